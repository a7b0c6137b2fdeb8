#!/usr/bin/env bash
# Thirty-sixth session, call 3 (full staging; colblock_probe and slice_probe may be left out): the
# device plan's fixed error order first (Colblock.* plain, then DevicePlanNamesWhatIsWrong under
# memcheck; v36c.tgz), then the run of record on the session's tree and run 21's header
# (scripts/gpu-v34e.sh: prof_check, then SKIP_CHECK=1 WRITE_FLUSH=0 scripts/gpu-final.sh).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v36c
  step colblock_tests timeout 60 "$BIN/gpu_tests" --gtest_filter='Colblock.*' > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -20
  step plan_memcheck timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
    --gtest_filter='Colblock.DevicePlanNamesWhatIsWrong' > "$W/memcheck.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY|Failure" "$W/memcheck.log" | head
)
exec bash "$D/gpu-v34e.sh"
