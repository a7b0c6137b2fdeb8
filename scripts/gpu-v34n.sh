#!/usr/bin/env bash
# Thirty-fourth session, call 14: after the read-through's refactor (one DeviceBuffer for the
# ceilings, prof_check and colblock's device plan; the plan's errors worded in one place):
# prof_check (the ceilings and the profiler's checks) and the Colblock GPU tests.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34n
step prof_check timeout 200 "$BIN/prof_check" "$W/prof_check.json" 2>&1 | grep -E "PASS|FAIL|SKIP" | head -40
step gpu_tests timeout -k 5 120 "$BIN/gpu_tests" --gtest_filter='Colblock.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/gpu_tests.log" | head -20
echo "done at $SECONDS s"
