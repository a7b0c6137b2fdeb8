#!/usr/bin/env bash
# Why the 16-bit path moves fewer bytes per second than f32 at the same row size (issue 7,
# target 5), in one device call (repo root, .gpu/ staged by scripts/stage-gpu.sh):
#   bench  uniform 1M, F=64 bf16 (128-byte rows): run 4's winner against more edges per batch
#          (e4), ilp 2 and the same with a register cap, beside f32 F=32 (also 128-byte rows)
#          with 4 lanes per row and 2 tiles, the f32 layout that reached 3.3 TB/s (rowbytes call)
#   ncu    Nsight Compute on the bf16 winner and on that f32 layout: instructions, warp states
# JSON and logs are packed into $OUT/bf16.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir bf16
b=csrgat.tpr8.fl8.rpb16.vec8.t1.e2.mb8.smem0.online.split0.i32.bf16
f=csrgat.tpr8.fl4.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32
ids="$b,${b/.e2./.e4.},${b/.e2.mb8./.e2.g2.},${b/.e2.mb8./.g2.},${b/.e2.mb8./.e4.g4.}"
B=(--max-seconds 0.25 --max-samples 100 --cache-dir /tmp/nvrtc-bf16 --counters)
step bench-bf16 timeout 120 "$T" bench --graph "uniform:n=2000000,deg=16,seed=1" --feat 64 --value bf16 --impl "$ids" "${B[@]}" --json "$W/bench-bf16.json"
step bench-f32 timeout 60 "$T" bench --graph "uniform:n=2000000,deg=16,seed=1" --feat 32 --impl "$f" "${B[@]}" --json "$W/bench-f32.json"
for pair in "bf16|64|$b" "f32|32|$f"; do
  IFS='|' read -r name feat v <<< "$pair"
  step "ncu-$name" timeout 120 ncu --clock-control none --nvtx --nvtx-include "csrgat\/u2m\/$v\/profile/" \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis \
    "$T" profile --graph "uniform:n=2000000,deg=16,seed=1" --name u2m --feat "$feat" --variant "$v" --iters 1 > "$W/ncu-$name.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Active Warps|Executed Instructions |Issued Warp Per|Warp Cycles Per Issued|DRAM Throughput|No Eligible|Eligible Warps" "$W/ncu-$name.txt" | head -12
done
echo "done at $SECONDS s"
