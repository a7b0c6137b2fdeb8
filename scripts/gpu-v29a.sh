#!/usr/bin/env bash
# Twenty-ninth session, call 1: (1) the library's GPU tests on 542d11c (c_api.cpp's new_handle;
# prepare() no longer resets the PreparedLaunch): Production.* and CApi.*, then memcheck over
# them (without the overlap test, which cannot overlap under memcheck); (2) slice_probe: do
# feature slices gathered slice-major buy L2 reuse on the DRAM-bound uniform graphs (target 2)?
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v29a
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
step library "$BIN/gpu_tests" --gtest_filter='Production.*:CApi.*' > "$W/library.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/library.log"
step memcheck timeout -k 5 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Production.*:CApi.*:-Production.OverlappedLaunchWaitsForThePreviousKernel' \
  > "$W/memcheck-library.log" 2>&1
grep -E "^\[ +(FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck-library.log"
step slice_probe timeout 300 "$BIN/slice_probe" "$W/slice_probe.json" 2>&1 | tee "$W/slice_probe.log"
echo "done at $SECONDS s"
