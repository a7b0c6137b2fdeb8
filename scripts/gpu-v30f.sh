#!/usr/bin/env bash
# Thirtieth session, call 6: after the review-of-the-change refactors (the shared task and
# plan-size checks the library's Shape and prepare now call; the tuner's worker-reply helpers):
# the library's GPU tests, the worker tests, and the smoke tuning run with its
# --continue/--reuse checks.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v30f
step tests timeout 240 "$BIN/gpu_tests" --gtest_filter='Production.*:CApi.*:Dispatch.*:WorkerOps.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/tests.log" | head -40
step smoke timeout 300 "$T" run configs/smoke.yaml > "$W/smoke.log" 2>&1; tail -n 3 "$W/smoke.log"
step continue timeout 200 bash scripts/check-continue.sh runs/smoke > "$W/continue.log" 2>&1; grep -E "^PASS|^FAIL" "$W/continue.log"
pgrep -fa "tuner worker" || echo "no tuner worker left running"
echo "done at $SECONDS s"
