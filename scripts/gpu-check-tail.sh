#!/usr/bin/env bash
# The whole GPU check's last two steps (scripts/gpu-v28c.sh runs them after gpu-check.sh), to run
# by themselves where a call's deadline cut them off (fifty-first session, call 5 on the H200):
# the million-edge row test (~80 s) and memcheck over the library's own GPU tests (Production,
# CApi: aggregate() and a prepared call, in this process and through libcsrgat_c.so), which the
# tuner's sanitizer config does not reach. Logs into $O/check (packed by the caller, or on exit
# when run alone: PACK=1).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
if [ "${PACK:-0}" = 1 ]; then
  out_dir check  # $O/check, packed on exit; the GPU, its clocks and the host's CPU printed
else
  O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O/check"
fi
"$BIN/gpu_tests" --gtest_filter=GpuCorrectness.OneRowOfAMillionEdges > "$O/check/million.log" 2>&1
echo "million: exit $? at $SECONDS s"
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$O/check/million.log"
# Not the overlap test: memcheck runs kernels one at a time, so the overlapped launch it asserts
# cannot happen there (call 3 ran it: its only failure, 0 memcheck errors).
timeout -k 5 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Production.*:CApi.*:-Production.OverlappedLaunchWaitsForThePreviousKernel' \
  > "$O/check/memcheck-library.log" 2>&1
echo "memcheck-library: exit $? at $SECONDS s"
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$O/check/memcheck-library.log"
