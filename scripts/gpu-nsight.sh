#!/usr/bin/env bash
# Nsight check on the GPU machine: `tuner profile` runs one variant inside its NVTX range and
# ncu, filtered with the command line profile prints, must capture exactly those launches.
# Also: cold launch-included timings with events only (no CUPTI tracing overhead).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
V=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split1024.i32.f32
"$T" profile --graph "seed:n=384,deg=18,seed=1" --name seed_384 --variant "$V" --iters 7 | tee "$O/profile.txt"
FILTER="csrgat\/seed_384\/$V\/profile/"
echo "=== ncu --nvtx --nvtx-include '$FILTER'"
ncu --clock-control none --nvtx --nvtx-include "$FILTER" --section SpeedOfLight --section LaunchStats \
    --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    "$T" profile --graph "seed:n=384,deg=18,seed=1" --name seed_384 --variant "$V" --iters 7 > "$O/ncu.txt" 2>&1
echo "ncu exit $?; kernels captured: $(grep -c '^  csrgat_fused' "$O/ncu.txt")"
grep -E "^  [a-z_]+.*\(|Duration|Elapsed Cycles|Registers Per|Achieved Occupancy|Stall|Warp Cycles Per Issued|Memory Throughput|L2 Hit|Block Size|Grid Size" "$O/ncu.txt" | head -40
echo "=== cold, launch included, events only"
"$T" bench --graph "seed:n=384,deg=18,seed=1" --graph "$G/cora.mtx.gz" --graph "$G/pubmed.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz" --feat 64 --impl tuned,seed,cusparse --events --max-seconds 0.3 --json "$O/bench-events.json"
