#!/usr/bin/env bash
# Twentieth session, call 6 (perf-notes, "where a block's merge spends its microsecond"):
# tuner timeline with marks, this tree (partials in global memory) against the diagnostic branch
# c3f00c1 (exp/bm-smem merged onto the tree with the marks; .gpu/bin/tuner-smem: the same kernels with block-merged partials in shared
# memory), citeseer's rule and tpr16 fl8 split16, cora's rule; each binary twice, cold.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20f
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
V="$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32,csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32"
for i in 1 2; do
  for bin in tuner tuner-smem; do
    step "tl-$bin-$i" timeout 60 "$BIN/$bin" timeline --graph "$G/citeseer.mtx.gz" --variant "$V" \
      --json "$W/tl-$bin-$i.json" --tasks > "$W/tl-$bin-$i.txt" 2>&1
    step "tl-cora-$bin-$i" timeout 60 "$BIN/$bin" timeline --graph "$G/cora.mtx.gz" \
      --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32" --json "$W/tl-cora-$bin-$i.json" \
      > "$W/tl-cora-$bin-$i.txt" 2>&1
  done
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |pad  |row 1-4|row 5-16" "$f"; done
gzip -9 "$W"/*.json
echo "done at $SECONDS s"
