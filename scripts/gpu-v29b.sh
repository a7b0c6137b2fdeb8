#!/usr/bin/env bash
# Twenty-ninth session, call 2: feature slices (`.fs<T>`) in the fused family. First the GPU
# tests of the slices (GpuCorrectness.FeatureSlices: every slice path against the reference)
# and the library's (Production, CApi: the shipped kernels, SASS-identical but for the moved
# parameter offsets); then run 17, a fresh re-tune of configs/h200.yaml whose large graphs now
# search slices 1, 2, 4 (uniform 2M: 1, 2) beside their earlier space (scripts/gpu-multi.sh).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v29b
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
  step tests timeout 240 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.FeatureSlices:Production.*:CApi.*' > "$W/tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure|failed|unsupported" "$W/tests.log" | head -40
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-420}" bash "$D/gpu-multi.sh"
