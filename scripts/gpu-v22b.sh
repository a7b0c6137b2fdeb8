#!/usr/bin/env bash
# Twenty-second session, call 2: block-merged partials in shared memory with the global
# (max, sum) stored as two floats again (call 1: an unpacked plan with F = 47 put the pair at
# an odd offset, and the float2 store of bd80df3 faulted, misaligned):
#  1. GpuCorrectness (BlockMergedSplitRows first) on this tree;
#  2. run 13: configs/h200.yaml, the whole lab on the new kernels (fresh store), gpu-multi.sh.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
(
  out_dir v22b
  step gpu_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.BlockMerged*:GpuCorrectness.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -30
)
CFG=configs/h200.yaml LIMIT=420 bash "$ROOT/scripts/gpu-multi.sh"
echo "done at $SECONDS s"
