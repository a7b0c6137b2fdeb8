#!/usr/bin/env bash
# What caps the 16-bit path and the power-law graph (issue 7, targets 4 and 5), in one device
# call (repo root, .gpu/ staged by scripts/stage-gpu.sh):
#   rows   DRAM bandwidth of random row gathers by row size, whatever the value type: uniform
#          degree-16 graphs whose value matrix is 256 MB in every case (N * F * bytes fixed),
#          rows of 64, 128, 256 and 512 bytes in f32 and of 128 and 256 bytes in bf16, each with
#          the tuned-like variant for its width (one 16-byte load per lane and tile)
#   ncu    Nsight Compute on uniform 1M (tpr8) and power-law 1M (tpr32 split256): occupancy,
#          warp states, memory throughput; why power-law reaches 62% of copy bandwidth
# JSON and logs are packed into $OUT/rowbytes.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir rowbytes
B=(--max-seconds 0.25 --max-samples 100 --cache-dir /tmp/nvrtc-rows --counters)
u() { echo "uniform:n=$1,deg=16,seed=1"; }
# rows of 64 B: F=16 f32, 4 lanes per row; 128 B: F=32 f32 or F=64 bf16; 256 B: F=64 f32 or
# F=128 bf16; 512 B: F=128 f32.
step f32-64B timeout 90 "$T" bench --graph "$(u 4000000)" --feat 16 --impl csrgat.tpr4.fl4.rpb32.vec4.t1.mb8.smem0.online.split0.i32.f32,csrgat.tpr8.fl4.rpb16.vec4.t1.mb8.smem0.online.split0.i32.f32 "${B[@]}" --json "$W/f32-64B.json"
step f32-128B timeout 90 "$T" bench --graph "$(u 2000000)" --feat 32 --impl csrgat.tpr8.fl8.rpb16.vec4.t1.mb8.smem0.online.split0.i32.f32,csrgat.tpr8.fl4.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32 "${B[@]}" --json "$W/f32-128B.json"
step bf16-128B timeout 90 "$T" bench --graph "$(u 2000000)" --feat 64 --value bf16 --impl csrgat.tpr8.fl8.rpb16.vec8.t1.e2.mb8.smem0.online.split0.i32.bf16,csrgat.tpr8.fl8.rpb16.vec8.t1.mb8.smem0.online.split0.i32.bf16 "${B[@]}" --json "$W/bf16-128B.json"
step f32-256B timeout 90 "$T" bench --graph "$(u 1000000)" --feat 64 --impl csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32 "${B[@]}" --json "$W/f32-256B.json"
step bf16-256B timeout 90 "$T" bench --graph "$(u 1000000)" --feat 128 --value bf16 --impl csrgat.tpr16.fl16.rpb8.vec8.t1.e2.mb8.smem0.online.split0.i32.bf16,csrgat.tpr8.fl8.rpb16.vec8.t2.mb8.smem0.online.split0.i32.bf16 "${B[@]}" --json "$W/bf16-256B.json"
step f32-512B timeout 90 "$T" bench --graph "$(u 500000)" --feat 128 --impl csrgat.tpr16.fl16.rpb8.vec4.t2.mb8.smem0.online.split0.i32.f32 "${B[@]}" --json "$W/f32-512B.json"

U=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32
P=csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split256.i32.f32
for pair in "uniform|$(u 1000000)|$U" "powerlaw|powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1|$P"; do
  IFS='|' read -r name spec v <<< "$pair"
  step "ncu-$name" timeout 150 ncu --clock-control none --nvtx --nvtx-include "csrgat\/$name\/$v\/profile/" \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis \
    "$T" profile --graph "$spec" --name "$name" --feat 64 --variant "$v" --iters 1 > "$W/ncu-$name.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles Per Issued|Issued Warp|Memory Throughput|DRAM Throughput|L2 Hit|No Eligible|Active Warps|Eligible Warps" "$W/ncu-$name.txt" | head -24
done
echo "done at $SECONDS s"
