#!/usr/bin/env bash
# Sixty-fourth session: the library built with the h100-mma tune's header (scripts/gpu-v64c.sh,
# docs/data/v64/call6-h100: its bfloat16 rule for uniform 2M d32 F128 attaches the tensor-core
# sweep `colblock.r24.ps16.lag8.mma`, its float32 rule `colblock.r19.ps16.lag8`). Staged: that
# build's tuner and gpu_tests only (cmake -DCSRGAT_TUNED_CONFIG=<the header>). Runs the tuned
# rules' GPU tests (Dispatch.AColblock*: the float32 sweep; Dispatch.ABf16*: the tensor-core sweep
# through aggregate() and a Call, and a bf16 out through the rule's .o16 twin), the bf16 one under
# compute-sanitizer memcheck, then tuner bench on uniform 2M: bfloat16 values, the tuned dispatch,
# the prepared call and the sweep by id; float32, the tuned dispatch and the seed.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
out_dir v64d
step dispatch_tests timeout 240 "$BIN/gpu_tests" --gtest_filter='Dispatch.AColblock*:Dispatch.ABf16*' > "$W/dispatch_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|Skipped|^--- exit" "$W/dispatch_tests.log" | head -20
step memcheck_bf16 timeout 240 compute-sanitizer --tool memcheck --error-exitcode 3 "$BIN/gpu_tests" \
  --gtest_filter='Dispatch.ABf16*' > "$W/memcheck_bf16.log" 2>&1
grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED|SKIPPED) " "$W/memcheck_bf16.log"
bench_2m bf16 tuned,tuned_call,colblock.r24.ps16.lag8.mma.i32.bf16
bench_2m f32 tuned,seed
echo "done at $SECONDS s"
