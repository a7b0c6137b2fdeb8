#!/usr/bin/env bash
# Twentieth session, call 8 (perf-notes, "when the merging warp starts its merge"): tuner
# timeline with mark 2 moved to the merge's entry (before any of its loads), citeseer's rule and
# tpr16 fl8 split16 and cora's rule, cold, twice.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20h
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
for i in 1 2; do
  step "tl-$i" timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" \
    --variant "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32,csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32" \
    --json "$W/tl-citeseer-$i.json" --tasks > "$W/tl-citeseer-$i.txt" 2>&1
  step "tl-cora-$i" timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" \
    --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32" --json "$W/tl-cora-$i.json" > "$W/tl-cora-$i.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |pad  |row 1-4| chunk " "$f" | head -12; done
gzip -9 "$W"/*.json
echo "done at $SECONDS s"
