#!/usr/bin/env bash
# Thirty-first session, call 10: the tuner's run on the session's final tree (the job queue
# after its review, a resumed problem's trials dropped when another GPU takes it): the worker
# GPU tests, the smoke tuning run and its --continue/--reuse checks.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31k
step tests timeout 120 "$BIN/gpu_tests" --gtest_filter='WorkerOps.*:Dispatch.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/tests.log" | tail -8
step smoke timeout 200 "$T" run configs/smoke.yaml > "$W/smoke.log" 2>&1; tail -n 3 "$W/smoke.log"
step continue timeout 150 bash scripts/check-continue.sh runs/smoke > "$W/continue.log" 2>&1; grep -E "^PASS|^FAIL" "$W/continue.log"
pgrep -fa "tuner worker" || echo "no tuner worker left running"
echo "done at $SECONDS s"
