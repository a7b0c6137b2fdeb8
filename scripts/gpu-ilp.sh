#!/usr/bin/env bash
# Kernel version 4 (ilp: gathers in flight per slot) on the GPU machine, in one device call
# (repo root, .gpu/ staged by scripts/stage-gpu.sh). Two builds on the same ids (is ilp 1
# unchanged?) are scripts/gpu-ab-ilp1.sh's job; call 1's old-*.json came from an earlier copy
# of that check here:
#   correct  the fused family (configs/smoke.yaml, ilp 1 and 4) against the float64 reference
#   ab       the same variant ids with ilp 1 and ilp > 1 side by side, one bench per graph class
#   ncu      (NCU=1) Nsight Compute on uniform 1M: ilp 1 against ilp 4, occupancy, warp states,
#            instruction counts, memory throughput
# Everything lands in $OUT/ilp.tgz (the device returns at most 8 files).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir ilp

if [ "${SKIP_CORRECT:-0}" != 1 ]; then
  step correct timeout 240 "$BIN/gpu_tests" \
    --gtest_filter='GpuCorrectness.*:-GpuCorrectness.OneRowOfAMillionEdges' > "$W/correct.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |compiled|Failure" "$W/correct.log" | tail -14
fi

# with ID PART...: the id with each part inserted before .smem (".g4", ".g4.mb4"), comma-joined.
with() { local id="$1"; shift; local out="" p; for p in "$@"; do out+=",${id/.smem0./$p.smem0.}"; done; echo "${out#,}"; }
S=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split0.i32.f32          # seed shape's winner
C=csrgat.tpr128.fl8.rpb1.vec4.t2.smem0.online.split0.i32.f32         # cora's
U=csrgat.tpr8.fl8.rpb16.vec4.t2.smem0.online.split256.i32.f32        # uniform 1M's (with .mb8)
P=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split1024.i32.f32       # power-law's (with .mb8)
Bf=csrgat.tpr8.fl8.rpb16.vec8.t1.smem0.online.split256.i32.bf16      # bf16 uniform's (.e2.mb8)
B=(--max-seconds 0.25 --max-samples 200 --cache-dir /tmp/nvrtc-new)
seed=(--graph "seed:n=384,deg=18,seed=1")
small=(); for f in cora citeseer pubmed wiki-vote soc-slashdot0902; do small+=(--graph "$G/$f.mtx.gz"); done
uni=(--graph "uniform:n=1000000,deg=16,seed=1")
pl=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1")

step seed-warm timeout 60 "$T" bench "${seed[@]}" --feat 64 --impl "$S,$(with $S .g2 .g4 .g8),seed,empty" --cache warm --graph-replay "${B[@]}" --json "$W/seed-warm.json"
step small timeout 150 "$T" bench "${seed[@]}" "${small[@]}" --feat 64 --impl "tuned,$S,$(with $S .g4 .g8),$(with $C .g4 .g8),cusparse" --events "${B[@]}" --json "$W/small.json"
step uniform timeout 100 "$T" bench "${uni[@]}" --feat 64 --impl "$(with $U .mb8 .g2 .g4 .g4.mb4)" --counters "${B[@]}" --json "$W/uniform.json"
step powerlaw timeout 100 "$T" bench "${pl[@]}" --feat 64 --impl "$(with $P .mb8 .g4 .g4.mb4),$(with $U .g4 .g4.mb4)" --counters "${B[@]}" --json "$W/powerlaw.json"
step uniform-bf16 timeout 100 "$T" bench "${uni[@]}" --feat 64 --value bf16 --impl "$(with $Bf .e2.mb8 .e2.g4 .e2.g4.mb4 .e2.g16 .g4 .g8)" --counters "${B[@]}" --json "$W/uniform-bf16.json"
if [ "${NCU:-0}" = 1 ]; then
  for v in "${U/.smem0./.mb8.smem0.}" "${U/.smem0./.g4.mb4.smem0.}"; do
    step "ncu $v" timeout 120 ncu --clock-control none --nvtx --nvtx-include "csrgat\/uniform\/$v\/profile/" \
      --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
      --section InstructionStats --section MemoryWorkloadAnalysis \
      "$T" profile "${uni[@]}" --name uniform --variant "$v" --iters 2 > "$W/ncu-$v.txt" 2>&1
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles Per Issued|Executed Instructions |Issued Warp|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|No Eligible|One or More|Active Warps" "$W/ncu-$v.txt" | head -30
  done
fi
echo "done at $SECONDS s"
