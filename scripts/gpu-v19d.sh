#!/usr/bin/env bash
# Nineteenth session, call 4: the block-merge GPU test (GpuCorrectness.BlockMergedSplitRows),
# then run 11: configs/h200.yaml with the small graphs' one-wave tpr32 g4 kernels and block
# merges (`.bm`), the whole lab measured again (the kernel sources changed), through
# gpu-v17e.sh (TUNE_TAG v19d; the recorded store given as --reuse finds nothing to reuse).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
step bm_test timeout 120 "$BIN/gpu_tests" --gtest_filter=GpuCorrectness.BlockMergedSplitRows 2>&1 |
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure|^--- exit" | head -20
TUNE_TAG=v19d bash "$ROOT/scripts/gpu-v17e.sh"
