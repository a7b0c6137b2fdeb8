#!/usr/bin/env bash
# Forty-seventh session: the DRAM read ceiling (048ab87) measured where it will be used. The
# profiler's GPU tests (ProfilerGpu.*: the ceilings measured, cached and plausible, the read
# between 0.8x and 1.5x the copy), then the run of record (scripts/gpu-v34e.sh: prof_check,
# whose ceilings now carry dram_read_gbs, first; then tuner bench and PyG, so the issue's DRAM
# table gives each kernel's share of the read roof beside the copy's). On an H200 these are the
# issue's figures on run 25's header; on an H100 the README main job's GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
step profiler_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='ProfilerGpu.*' > "$O/profiler_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|^ceilings on" "$O/profiler_tests.log"
bash "$ROOT/scripts/gpu-v34e.sh"
echo "all done at $SECONDS s"
