#!/usr/bin/env bash
# Twenty-fourth session, call 7 (exploration for the next session, outside the tuned space):
# call 6 found citeseer's launch ending with its long rows' chunks of 16 edges, two gather rounds
# each (mark 0 at ~3.0 us against ~2.2 us for the one-round short rows), then their merge
# (~0.6-0.9 us). Chunks of 8 edges are one round for tpr16 g4 (8 edges per round); a 99-edge row
# then has 13 chunks, merged in its block only with rpb16. Side by side, cold GPU time, five
# rounds, on citeseer and cora: the rule, the same kernel in blocks of 16, chunks of 8 in blocks
# of 16 (tpr16 and tpr8) and in blocks of 8 (13 chunks > 8: the global hand-off); then the
# timeline of the rpb16 split8 kernel on citeseer.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v24d
P=vec4.t2.g4.smem0.online
V="csrgat.tpr16.fl8.rpb8.$P.split16.lpt.pf.bm.i32.f32"
V+=",csrgat.tpr16.fl8.rpb16.$P.split16.lpt.pf.bm.i32.f32"
V+=",csrgat.tpr16.fl8.rpb16.$P.split8.lpt.pf.bm.i32.f32"
V+=",csrgat.tpr8.fl8.rpb16.$P.split8.lpt.pf.bm.i32.f32"
V+=",csrgat.tpr16.fl8.rpb8.$P.split8.lpt.pf.bm.i32.f32"
step bench timeout 120 "$T" bench --graph "$G/citeseer.mtx.gz" --graph "$G/cora.mtx.gz" --feat 64 \
  --impl "tuned,$V" --max-seconds 0.4 --max-samples 300 --rounds 5 --json "$W/bench.json" > "$W/bench.txt" 2>&1
cat "$W/bench.txt"
step tl timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" --variant "csrgat.tpr16.fl8.rpb16.$P.split8.lpt.pf.bm.i32.f32" \
  --cache cold --tasks --json "$W/tl-split8.json" > "$W/tl-split8.txt" 2>&1
head -14 "$W/tl-split8.txt"
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
