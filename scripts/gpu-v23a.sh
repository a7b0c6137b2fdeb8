#!/usr/bin/env bash
# Twenty-third session, call 1: gpu-v22e.sh (not run in the twenty-second session) plus three
# fl8 t2 g8 ids (perf-notes, next step "citeseer's chunks"): citeseer's launch ends with a
# chunk's chain (4 gather rounds for 32 edges) and its merge. Timelines, cold, of the run-13
# rule against the same warps with chunks of 16 and 24 edges (outside the small
# space: tpr32 takes split 32 or 64 there), in blocks of 4 warps (rows of 5-7 chunks through
# the hand-off) and of 8 (rows of up to 8 chunks merged in the block), and fl8 t2; and fl8 t2
# g8 (a chunk of 32 edges in one gather round per slot; mb0: ~1.6 waves on citeseer).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v23a
p=csrgat.tpr32
ids=(
  "$p.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split32.pf.bm.i32.f32"
  "$p.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split16.pf.bm.i32.f32"
  "$p.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split24.pf.bm.i32.f32"
  "$p.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32"
  "$p.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split24.pf.bm.i32.f32"
  "$p.fl8.rpb8.vec4.t2.g4.mb3.smem0.online.split16.pf.bm.i32.f32"
  "$p.fl8.rpb4.vec4.t2.g4.mb7.smem0.online.split16.pf.bm.i32.f32"
  "$p.fl8.rpb4.vec4.t2.g8.smem0.online.split32.pf.bm.i32.f32"
  "$p.fl8.rpb8.vec4.t2.g8.smem0.online.split32.pf.bm.i32.f32"
  "$p.fl8.rpb8.vec4.t2.g8.smem0.online.split16.pf.bm.i32.f32"
)
for i in "${!ids[@]}"; do
  step "tl-$i" timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" --variant "${ids[$i]}" \
    --json "$W/tl-$i.json" > "$W/tl-$i.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |row 1-4" "$f" | head -6; done
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
