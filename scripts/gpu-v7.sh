#!/usr/bin/env bash
# Seventh session, after tuning run 6 (the first over ilp 4 and `.lpt` with ilp > 1), in one
# device call on one GPU (repo root, .gpu/ staged by scripts/stage-gpu.sh from a build against
# the promoted header):
#   final     scripts/gpu-final.sh: the whole GPU check, issue 7's benches and the peers
#             (packed into $OUT/final.tgz)
#   bf16      where bf16's edge rate stops (target 5): uniform 1M, F=64, GPU time and DRAM
#             counters of the tuned bf16 variant against twins with more gathers in flight
#             (ilp 4, epl 4) or no register cap, and the f32 winner
#   ncu       Nsight Compute on the f32 and bf16 winners of uniform 1M (cold L2, one launch):
#             issue activity, stall reasons, occupancy, DRAM throughput
# Logs are packed into $OUT/v7.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v7

[ "${SKIP_FINAL:-0}" = 1 ] || OUT="$O" bash scripts/gpu-final.sh

uni="uniform:n=1000000,deg=16,seed=1"
f32=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32
b=csrgat.tpr8.fl8.rpb16.vec8.t1
bf=$b.e2.g2.mb8.smem0.online.split256.i32.bf16   # run 6's bf16 winner on uniform 1M
twins="$bf,$b.e2.g2.smem0.online.split256.i32.bf16,$b.e2.g4.mb8.smem0.online.split256.i32.bf16"
twins+=",$b.e2.g4.smem0.online.split256.i32.bf16,$b.e4.mb8.smem0.online.split256.i32.bf16"
twins+=",$b.e4.g2.mb8.smem0.online.split256.i32.bf16,$b.g4.mb8.smem0.online.split256.i32.bf16"
step bf16-twins timeout 150 "$T" bench --graph "$uni" --feat 64 --value bf16 --impl "$twins" \
  --counters --max-seconds 0.3 --max-samples 200 --json "$W/bf16-twins.json"

for v in "$f32" "$bf"; do
  step "ncu-$v" timeout 120 ncu --clock-control none --set full \
    --nvtx --nvtx-include "csrgat\/uniform\/$v\/profile/" --launch-skip 2 --launch-count 1 \
    "$T" profile --graph "$uni" --name uniform --feat 64 --variant "$v" --iters 3 > "$W/ncu-$v.txt" 2>&1
  grep -E " Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Executed Instructions  |Issue Slots Busy|Issued Ipc Active|DRAM Throughput|L2 Hit Rate|No Eligible|Local Memory" "$W/ncu-$v.txt" | head -16
done
echo "done at $SECONDS s"
