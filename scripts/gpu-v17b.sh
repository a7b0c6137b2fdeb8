#!/usr/bin/env bash
# Seventeenth session, call 2 (perf-notes, "Call 2"): Nsight Compute on run 8's ca-astroph and
# cit-hepph kernels, and the A/B of gathers loaded with ld.global.cg (.gpu/bin/tuner-cg, an
# experiment build, not committed) against this tree's ld.global.ca, by the header's ids, cold.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v17b
P=csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online
W32=csrgat.tpr32.fl8.rpb4.vec4.t2.g4.mb6.smem0.online.split256.lpt.pf.i32.f32
nc() {  # nc NAME GRAPH VARIANT: one launch under ncu (caches flushed before it), sections as listed
  local filter="csrgat\/$1\/$3\/profile/"
  ncu --clock-control none --nvtx --nvtx-include "$filter" --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
      --section WarpStateStats --section Occupancy --section SchedulerStats --section LaunchStats \
      --metrics l1tex__t_sector_hit_rate.pct,lts__t_bytes.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum \
      "$T" profile --graph "$2" --name "$1" --variant "$3" --iters 3 > "$W/ncu-$1-$4.txt" 2>&1
  echo "--- $1 $3"
  grep -E "Duration|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Stall|l1tex__t_sector_hit|lts__t_bytes|lts__t_sector_op|dram__bytes|L2 Cache Throughput|L1/TEX Cache Throughput|DRAM Throughput|Block Limit" "$W/ncu-$1-$4.txt" | head -40
}
step ncu nc ca-astroph "$G/ca-astroph.mtx.gz" "$P.split32.lpt.pf.i32.f32" tpr8
nc ca-astroph "$G/ca-astroph.mtx.gz" "$W32" tpr32
nc cit-hepph "$G/cit-hepph.mtx.gz" "$P.split32.lpt.pf.i32.f32" tpr8

# The header's ids (run 8) for the seven real graphs, each timed on every graph.
IDS="csrgat.tpr32.fl16.rpb4.vec4.t1.g8.smem0.online.split32.pf.i32.f32"
IDS+=",csrgat.tpr16.fl16.rpb8.vec4.t1.g2.smem0.online.split16.lpt.pf.i32.f32"
IDS+=",csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split64.lpt.pf.i32.f32"
IDS+=",$P.split32.lpt.pf.i32.f32,$P.split64.lpt.i32.f32"
GR=(); for g in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do GR+=(--graph "$G/$g.mtx.gz"); done
for i in 1 2; do
  for bin in tuner tuner-cg; do
    step "cold-$bin-$i" timeout 120 "$BIN/$bin" bench "${GR[@]}" --feat 64 --impl "$IDS" --rounds 5 \
      --max-seconds 0.3 --max-samples 300 --json "$W/cold-$bin-$i.json" > "$W/cold-$bin-$i.txt" 2>&1
    tail -n 3 "$W/cold-$bin-$i.txt"
  done
done
echo "done at $SECONDS s"
