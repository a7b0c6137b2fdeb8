#!/usr/bin/env bash
# Tenth session, call 1: the whole GPU check on the host-side changes of the ninth session's
# end, then where the small and skewed graphs' cold GPU time goes (target 1's 2x row):
#   split   tpr32 warp-per-row kernels with chunks of 32 and 64 edges (two and four batches of
#           16 gathers) against the tuned ones, on the real graphs, the seed shape, and two
#           synthetic graphs of cora's size (uniform degree 4; power-law with cora's longest row)
#   ncu     Nsight Compute on cora's and the seed shape's winners, cold L2 (--cache-control all)
# Logs and JSON are packed into $OUT/v10.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v10

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" bash scripts/gpu-check.sh 2>&1 | tail -n 12; }

s=.online
w=csrgat.tpr32.fl8.rpb4.vec4.t2
ids="tuned,$w.g4.smem0$s.split0.i32.f32"
for sp in 32 64 128; do ids+=",$w.g4.smem0$s.split$sp.lpt.i32.f32,$w.mb8.smem0$s.split$sp.lpt.i32.f32"; done
ids+=",$w.g4.smem0$s.split32.i32.f32"
small=(--graph "seed:n=384,deg=18,seed=1" --graph "$G/cora.mtx.gz" --graph "$G/citeseer.mtx.gz"
       --graph "$G/pubmed.mtx.gz" --graph "$G/wiki-vote.mtx.gz" --graph "$G/ca-astroph.mtx.gz"
       --graph "$G/cit-hepph.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz"
       --graph "uniform:n=2708,deg=4,seed=1" --graph "powerlaw:n=2708,deg=4,alpha=2.1,maxdeg=168,seed=1")
step split timeout 240 "$T" bench "${small[@]}" --feat 64 --impl "$ids" --max-seconds 0.1 --max-samples 200 --json "$W/split.json"

nc() {  # nc NAME GRAPH VARIANT
  step "ncu-$1" timeout 90 ncu --cache-control all --clock-control none --section SpeedOfLight \
    --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis -k regex:csrgat_fused --launch-skip 2 --launch-count 1 \
    "$T" profile --graph "$2" --name "$1" --variant "$3" --feat 64 --iters 5 > "$W/ncu-$1.txt" 2>&1
  grep -E "Duration|Elapsed Cycles|SM Active Cycles|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp|No Eligible|DRAM Throughput|L2 Hit|Grid Size|Registers Per|Waves Per SM" "$W/ncu-$1.txt" | head -20
}
nc cora "$G/cora.mtx.gz" "$w.g4.smem0$s.split0.i32.f32"
nc cora-s32 "$G/cora.mtx.gz" "$w.g4.smem0$s.split32.lpt.i32.f32"
nc seed "seed:n=384,deg=18,seed=1" "$w.g4.smem0$s.split0.i32.f32"
nc uni2708 "uniform:n=2708,deg=4,seed=1" "$w.g4.smem0$s.split0.i32.f32"
echo "done at $SECONDS s"
