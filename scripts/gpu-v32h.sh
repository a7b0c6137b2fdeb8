#!/usr/bin/env bash
# Thirty-second session, call 8: the timer after its fix (a sample whose CUPTI kernel records did
# not all arrive gives no span; the measurement falls back to CUDA events): the profiler's GPU
# tests (the two-kernel launch among them), the worker and dispatch tests, the smoke tuning run
# and its --continue/--reuse checks.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${1:-v32h}"  # call 9 (gpu-v32i.sh) names its own
step tests timeout 240 "$BIN/gpu_tests" --gtest_filter='ProfilerGpu.*:WorkerOps.*:Dispatch.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/tests.log" | tail -30
step smoke timeout 200 "$T" run configs/smoke.yaml > "$W/smoke.log" 2>&1; tail -n 3 "$W/smoke.log"
grep -c "timing with CUDA events" "$W/smoke.log" runs/smoke/*.log 2>/dev/null | head -3
step continue timeout 150 bash scripts/check-continue.sh runs/smoke > "$W/continue.log" 2>&1; grep -E "^PASS|^FAIL" "$W/continue.log"
pgrep -fa "tuner worker" || echo "no tuner worker left running"
echo "done at $SECONDS s"
