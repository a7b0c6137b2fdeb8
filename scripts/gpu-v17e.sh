#!/usr/bin/env bash
# Seventeenth session, call 5: run 9, configs/h200.yaml with the small graphs' wider space
# (launch bounds 6-8 on the sub-warp chunk kernels, chunks of 24, 40 and 48 edges), re-tuning
# the small graphs with `tuner run --reuse`: the large graphs' problems come from run 8 in the
# recorded store (same fingerprints, GPU model, driver and kernel sources).
# Logs, the store, the header and the report are packed into $OUT/v17e.tgz (gpu-multi's multi).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${TUNE_TAG:-v17e}"  # docs/gpu-scripts.md: the eighteenth session ran it as TUNE_TAG=v18c (run 10)
OUT="$W" REUSE=tests/data/recorded/h200.sqlite.gz CFG=configs/h200.yaml LIMIT="${LIMIT:-500}" \
  bash scripts/gpu-multi.sh 2>&1 | tail -n 40
echo "done at $SECONDS s"
