#!/usr/bin/env bash
# Twenty-third session, call 5 (diagnostics for the next step; perf-notes, "where a block merge's
# time goes"): a row of 99 edges per SM (uniform:n=132,deg=99: 132 rows, each one block of
# chunks, one merge per SM), so that every SM's samples are one block's chunks and then one
# merge, as citeseer's long rows run:
#  1. timelines (cold, warm) with every task's marks: tpr32 fl16 rpb8 mb3 split16 (7 chunks
#     merged from shared memory in two groups) and rpb4 mb7 split32 (4 chunks, one group);
#  2. Nsight Compute's per-instruction samples (one every 32 cycles per SM) of the same two
#     kernels, cold, and of the rpb8 one warm (no cache control): the merge's instructions and
#     their stall reasons (instruction fetch, shared-memory or constant loads, the barrier).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v23c
U="uniform:n=132,deg=99,seed=1"
K8=csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32
K4=csrgat.tpr32.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split32.pf.bm.i32.f32
for k in 8 4; do
  v=K$k
  for cache in cold warm; do
    step "tl-u132-rpb$k-$cache" timeout 60 "$T" timeline --graph "$U" --variant "${!v}" --cache "$cache" \
      --tasks --json "$W/tl-u132-rpb$k-$cache.json" > "$W/tl-u132-rpb$k-$cache.txt" 2>&1
  done
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  " "$f" | head -5; done
NCU_EXTRA="--warp-sampling-interval 0" step ncu-rpb8-cold ncu_sass u132-rpb8-cold "$U" "$K8"
NCU_EXTRA="--warp-sampling-interval 0 --cache-control none" step ncu-rpb8-warm ncu_sass u132-rpb8-warm "$U" "$K8"
NCU_EXTRA="--warp-sampling-interval 0" step ncu-rpb4-cold ncu_sass u132-rpb4-cold "$U" "$K4"
for f in "$W"/ncu-*-sass.csv; do python3 scripts/sass_stalls.py "$f" 12 | head -32; done
gzip -9 "$W"/*.csv "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
