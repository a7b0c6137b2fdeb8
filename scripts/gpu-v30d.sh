#!/usr/bin/env bash
# Thirtieth session, call 4: the whole GPU check on the final tree, now with the smoke tuning
# run and its --continue/--reuse checks (the worker changed: close-on-exec pipes, death with
# the tuner, a one-sample trial's null noise, a counter failure timed again without counters,
# a lost context after counters): scripts/gpu-check.sh (gpu_tests without the million-edge row,
# memcheck and racecheck over configs/sanitizer.yaml, the production example, smoke_run,
# continue_run), then the million-edge row, then memcheck over the library's own tests.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O/check"
GTEST_FILTER=-GpuCorrectness.OneRowOfAMillionEdges SKIP_PROF=1 OUT="$O/check" \
  bash "$ROOT/scripts/gpu-check.sh" 2>&1 | tail -n 14
"$BIN/gpu_tests" --gtest_filter=GpuCorrectness.OneRowOfAMillionEdges > "$O/check/million.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$O/check/million.log"
timeout -k 5 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Production.*:CApi.*:-Production.OverlappedLaunchWaitsForThePreviousKernel' \
  > "$O/check/memcheck-library.log" 2>&1
echo "memcheck-library: exit $?"
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$O/check/memcheck-library.log"
# No orphaned worker may outlive the tuner runs above.
pgrep -fa "tuner worker" || echo "no tuner worker left running"
tar -C "$O" -czf "$O/check.tgz" check && rm -rf "$O/check"
echo "done at $SECONDS s"
