#!/usr/bin/env bash
# Twenty-ninth session, call 5: the review's fixes (a sliced kernel's `.pf` prefetch extent ends
# with the last row's slice; the library skips a `.fs` rule whose kernel is not sliced or whose
# slices would lose the vector loads; slices overlapping each other tested on a real stream):
# the GPU tests they touch, then the two shipped `.fs2` rules (their SASS gained the extent's
# 16 instructions, in the prefetch they do not run) beside run 16's rules once more.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v29e
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
step tests timeout 300 "$BIN/gpu_tests" \
  --gtest_filter='GpuCorrectness.FeatureSlices:OverlapVariants.*:Dispatch.*:Production.*:CApi.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|failed" "$W/tests.log" | head -40
step u1m timeout 120 "$T" bench --graph "uniform:n=1000000,deg=16,seed=1" --feat 64 --rounds 5 --counters \
  --impl tuned,csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256.i32.f32,seed --json "$W/u1m.json" 2>&1 | tail -n 4
step u2m timeout 150 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --rounds 5 --counters \
  --impl tuned,csrgat.tpr16.fl16.rpb8.vec4.t2.g4.mb8.smem3.online.split0.i32.f32,seed --json "$W/u2m.json" 2>&1 | tail -n 4
echo "done at $SECONDS s"
