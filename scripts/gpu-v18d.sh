#!/usr/bin/env bash
# Eighteenth session, call 6: the test that non-finite values in rows no edge reads stay out of
# every output (GpuCorrectness.NonFiniteValuesOfRowsNoEdgeReads), on this tree's kernels, and
# on a copy whose first gathers add every entry, taken or not (their FMAs without the guard):
# the test must pass on the first and fail on the second, or it checks nothing.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v18d
F='GpuCorrectness.AllSmokeVariantsCompile:GpuCorrectness.NonFinite*'
step tree timeout 240 "$BIN/gpu_tests" --gtest_filter="$F" > "$W/tree.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |^--- exit" "$W/tree.log"
mut=/tmp/csrgat-mutant
rm -rf "$mut" && mkdir -p "$mut" && cp -r variants configs "$mut/"
sed -i 's/if (g \* C::ES + slot < nb \&\& wj != 0.f) fma_row<C>(wj, v0\[EARLY ? g : 0\], acc);/fma_row<C>(wj, v0[EARLY ? g : 0], acc);/' \
  "$mut/variants/csrgat_fused.cuh"
if cmp -s variants/csrgat_fused.cuh "$mut/variants/csrgat_fused.cuh"; then echo "mutant: the edit did not apply"; exit 1; fi
CSRGAT_SOURCE_DIR="$mut" step mutant timeout 240 "$BIN/gpu_tests" --gtest_filter="$F" > "$W/mutant.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |^--- exit" "$W/mutant.log"
grep -m3 -E "NonFinite.*(nan|inf|rel_err|Failure)|wrong|error" "$W/mutant.log" | cut -c1-300
echo "done at $SECONDS s"
