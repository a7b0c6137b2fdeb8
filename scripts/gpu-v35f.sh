#!/usr/bin/env bash
# Thirty-fifth session, call 6: compute-sanitizer over the sweep as the library now builds it
# (f32 ring of 8 rows, bf16 ring of 16 rows) and over the library's path through a Shape of the
# device graph (gpu-check.sh's colblock steps, run alone).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v35f
step colblock_memcheck timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter="$COLBLOCK_MEMCHECK_TESTS" > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY|Failure" "$W/memcheck.log" | head -30
step colblock_racecheck timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter="$COLBLOCK_RACECHECK_TESTS" > "$W/racecheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |RACECHECK SUMMARY|ERROR SUMMARY|Failure" "$W/racecheck.log" | head -20
