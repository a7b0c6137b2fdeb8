#!/usr/bin/env bash
# Twenty-second session, call 4 (diagnostics for the next step; perf-notes, "what bounds
# citeseer's row tasks"):
#  1. timelines of citeseer's rule (run 13: tpr32 fl16 g4 mb7 split32 .pf.bm), cold and warm,
#     and of the same kernel on uniform graphs of 3-edge rows with 3327, 528 and 132 rows
#     (~25, ~4 and ~1 warps per SM): if a short row's ~2 us is instruction issue shared with
#     the SM's other warps, it shrinks with fewer warps per SM; if it is its own chain of
#     loads, it does not;
#  2. Nsight Compute's scheduler, warp-state, instruction and occupancy sections of one cold
#     launch of that kernel on citeseer;
#  3. wiki-vote's rule (tpr32 fl8 rpb8 mb3 split64) timelines from this tree and from main's
#     e978113 build (.gpu/bin/tuner-head): where call 1's +2% goes (rows or merges).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v22c
R=csrgat.tpr32.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split32.pf.bm.i32.f32
for c in cold warm; do
  step "tl-citeseer-$c" timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" --variant "$R" --cache "$c" \
    --json "$W/tl-citeseer-$c.json" --tasks > "$W/tl-citeseer-$c.txt" 2>&1
done
for n in 3327 528 132; do
  step "tl-uniform-$n" timeout 60 "$T" timeline --graph "uniform:n=$n,deg=3,seed=1" --variant "$R" \
    --json "$W/tl-uniform-$n.json" > "$W/tl-uniform-$n.txt" 2>&1
done
step ncu-citeseer timeout -k 5 120 ncu --clock-control none --section SchedulerStats --section WarpStateStats \
  --section InstructionStats --section Occupancy --section LaunchStats --section SpeedOfLight \
  --nvtx --nvtx-include "csrgat\/citeseer\/$R\/profile/" \
  --launch-skip 1 --launch-count 1 --csv --page details "$T" profile --graph "$G/citeseer.mtx.gz" --name citeseer \
  --variant "$R" --iters 3 > "$W/ncu-citeseer-details.csv" 2>&1
grep -E "Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Executed Instructions\"|Warp Cycles Per Issued|Achieved Occupancy|\"Duration\"" "$W/ncu-citeseer-details.csv" | cut -d, -f13- | head -20
WV=csrgat.tpr32.fl8.rpb8.vec4.t2.g4.mb3.smem0.online.split64.lpt.pf.bm.i32.f32
for bin in tuner tuner-head; do
  step "tl-$bin-wiki-vote" timeout 60 "$BIN/$bin" timeline --graph "$G/wiki-vote.mtx.gz" --variant "$WV" \
    --json "$W/tl-$bin-wiki-vote.json" > "$W/tl-$bin-wiki-vote.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |row 1-4|row 5-16|row 17" "$f" | head -10; done
gzip -9 "$W"/*.json "$W"/*.csv 2>/dev/null
echo "done at $SECONDS s"
