#!/usr/bin/env bash
# Twenty-first session, call 1 (perf-notes, "what a merging warp waits for"): tuner timeline with
# five marks (be7585d: the merge's entry, its (max, sum) and its first weighted features, the
# last two read after the loaded values arrive), on this tree (global partials) and on
# exp/bm-smem-21 (.gpu/bin/tuner-smem: a block-merged row's partials in shared memory):
#  1. timelines of citeseer's rule and tpr16 fl8 split16 (cold twice, warm once), cora's rule and
#     slashdot's rule (cold), each build;
#  2. Nsight Compute's per-instruction samples of citeseer's rule and of tpr16 fl8 split16, one
#     cold launch each, a sample every 32 cycles per SM (the merges run in a few blocks only:
#     the nineteenth session's default interval took 422 samples, none in a merge).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v21a
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
fl8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
for bin in tuner tuner-smem; do
  for i in 1 2 warm; do
    c=(); [ "$i" = warm ] && c=(--cache warm)
    step "tl-$bin-citeseer-$i" timeout 60 "$BIN/$bin" timeline --graph "$G/citeseer.mtx.gz" "${c[@]}" \
      --variant "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32,$fl8" \
      --json "$W/tl-$bin-citeseer-$i.json" --tasks > "$W/tl-$bin-citeseer-$i.txt" 2>&1
  done
  step "tl-$bin-cora" timeout 60 "$BIN/$bin" timeline --graph "$G/cora.mtx.gz" \
    --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32" --json "$W/tl-$bin-cora.json" --tasks > "$W/tl-$bin-cora.txt" 2>&1
  step "tl-$bin-slashdot" timeout 60 "$BIN/$bin" timeline --graph "$G/soc-slashdot0902.mtx.gz" \
    --variant "csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split64.lpt.pf.bm.i32.f32" \
    --json "$W/tl-$bin-slashdot.json" > "$W/tl-$bin-slashdot.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |pad  |row 1-4" "$f" | head -14; done

NCU_EXTRA="--warp-sampling-interval 0"
step ncu-citeseer-rule ncu_sass citeseer-rule "$G/citeseer.mtx.gz" "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32"
step ncu-citeseer-fl8 ncu_sass citeseer-fl8 "$G/citeseer.mtx.gz" "$fl8"
for f in "$W"/ncu-*-sass.csv; do python3 scripts/sass_stalls.py "$f" 12 | head -30; done
gzip -9 "$W"/*.csv 2>/dev/null
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
