#!/usr/bin/env bash
# Fifteenth session, first call: the GPU check of the fourteenth session's host changes and the
# two predictions of perf-notes' "Fifteenth session" section, most important first:
#   1. the worker's ops (WorkerOps.*), the smoke tuning run and its --continue/--reuse checks;
#   2. pubmed H=8 tuned alone (docs/data/v14/call7/probe-h8.yaml: 85.5 s, 42 s of it one
#      cuSPARSE trial, before the counter trials ran with only their kernels loaded), with its
#      report's "Tuning time" section;
#   3. the A/B of the vector kernels without their scalar fallback (.gpu/bin/tuner-head, a build
#      of HEAD with the alignment test replaced by the vector path) against this tree's build;
#   4. the rest of the GPU tests, until DEADLINE seconds.
# Logs and JSON are packed into $OUT/v15.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
DEADLINE="${DEADLINE:-560}"
out_dir v15

step worker_ops timeout 120 "$BIN/gpu_tests" --gtest_filter='WorkerOps.*' > "$W/worker_ops.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/worker_ops.log"
step smoke_run timeout 240 "$T" run configs/smoke.yaml > "$W/smoke_run.log" 2>&1
tail -n 4 "$W/smoke_run.log"
step continue_run timeout 200 bash scripts/check-continue.sh runs/smoke > "$W/continue_run.log" 2>&1
grep -E "PASS|FAIL|ok:|error" "$W/continue_run.log" | tail -n 12

sed -e "s#OUTDIR#$W/h8#" docs/data/v14/call7/probe-h8.yaml > configs/.probe-h8.yaml
step probe_h8 timeout 200 "$T" run configs/.probe-h8.yaml > "$W/probe_h8.log" 2>&1
tail -n 6 "$W/probe_h8.log"
rm -f configs/.probe-h8.yaml
[ -f "$W/h8/report/report.md" ] && sed -n '/^## Tuning time/,/^## [^T]/p' "$W/h8/report/report.md" | head -n 40
[ -f "$W/h8/results.sqlite" ] && gzip -9 "$W/h8/results.sqlite"

source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl" seed cora pubmed
ab_cold seed cora pubmed

gpu_tests_until "$DEADLINE" '-WorkerOps.*'
echo "done at $SECONDS s"
