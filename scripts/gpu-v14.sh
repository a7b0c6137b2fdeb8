#!/usr/bin/env bash
# Fourteenth session, last call: run 6's header (tuning runs 5 and 6 on the thirteenth
# session's kernels) in the library, then, most important first, until DEADLINE seconds:
#   1. the run of record (scripts/gpu-final.sh with SKIP_CHECK=1: the dispatch and library tests,
#      issue 7's benchmarks, the latency ladder, PyG) -> $OUT/final.tgz;
#   2. the cuSPARSE baseline on pubmed with H = 1, 2, 8 (runs 4 and 6 each had a cuSPARSE trial on
#      pubmed H=8 that did not reply within 60 s);
#   3. the rest of the GPU tests (those the run of record did not run), if time is left.
# Logs of 2 and 3 are packed into $OUT/v14.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
DEADLINE="${DEADLINE:-560}"
SKIP_CHECK=1 bash scripts/gpu-final.sh 2>&1 | grep -E "^=== |^--- exit|^\[ +(OK|FAILED|PASSED) |done at"
out_dir v14
for h in 1 2 8; do
  step "cusparse-pubmed-h$h" timeout -k 5 20 "$T" bench --graph "$G/pubmed.mtx.gz" --feat 64 --heads "$h" \
    --impl cusparse --max-seconds 0.1 --max-samples 50 --json "$W/cusparse-h$h.json" > "$W/cusparse-h$h.log" 2>&1
  tail -n 4 "$W/cusparse-h$h.log"
done
gpu_tests_until "$DEADLINE" '-Dispatch.*:Production.*'
echo "done at $SECONDS s"
