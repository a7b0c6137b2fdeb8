#!/usr/bin/env bash
# Eighteenth session, calls 6 and 7: the test that non-finite values in rows no edge reads stay
# out of every output (GpuCorrectness.NonFiniteValuesOfRowsNoEdgeReads), on this tree's kernels,
# and on a build whose first gathers add every entry, taken or not (their FMAs without the guard):
# the test must pass on the first and fail on the second, or it checks nothing.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v18d
F='GpuCorrectness.AllSmokeVariantsCompile:GpuCorrectness.NonFinite*'
step tree timeout 240 "$BIN/gpu_tests" --gtest_filter="$F" > "$W/tree.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |^--- exit" "$W/tree.log"
# The kernel sources are built into the binaries (variants/CMakeLists.txt embeds them for
# NVRTC), so the mutant is a second gpu_tests built from the edited source: staged as
# .gpu/bin/gpu_tests-mutant after stage-gpu.sh, built with this line of
# variants/csrgat_fused.cuh
#   if (g * C::ES + slot < nb && wj != 0.f) fma_row<C>(wj, v0[EARLY ? g : 0], acc);
# turned into an unconditional fma_row<C>(wj, v0[EARLY ? g : 0], acc);
[ -x "$BIN/gpu_tests-mutant" ] || { echo "no $BIN/gpu_tests-mutant staged"; exit 1; }
step mutant timeout 240 "$BIN/gpu_tests-mutant" --gtest_filter="$F" > "$W/mutant.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |^--- exit" "$W/mutant.log"
grep -m3 -E "NonFinite.*(nan|inf|rel_err|Failure)|wrong|error" "$W/mutant.log" | cut -c1-300
echo "done at $SECONDS s"
