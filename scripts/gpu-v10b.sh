#!/usr/bin/env bash
# Tenth session, call 2: re-tune the small graphs over their own space (configs/h200.yaml) with
# `tuner run --reuse`, which takes the large graphs' problems from run 8 (the recorded store,
# tests/data/recorded/h200.sqlite.gz: same fingerprints, GPU model, driver and kernels), then,
# when time is left, the smoke run and the continuation and reuse checks (scripts/gpu-check.sh
# without the tests, sanitizers and profiler check, which call 1 ran on the same host code
# before --reuse).
# Logs, the store, the header and the report are packed into $OUT/v10b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v10b
OUT="$W" REUSE=tests/data/recorded/h200.sqlite.gz CFG=configs/h200.yaml LIMIT="${LIMIT:-430}" \
  bash scripts/gpu-multi.sh 2>&1 | tail -n 40
if [ "$SECONDS" -lt "${CHECK_BEFORE:-390}" ]; then
  OUT="$W/check" SKIP_TESTS=1 SKIP_SANITIZER=1 SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 30
else
  echo "no time left for the smoke run and the continuation checks (at $SECONDS s)"
fi
echo "done at $SECONDS s"
