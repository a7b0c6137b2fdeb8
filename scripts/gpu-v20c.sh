#!/usr/bin/env bash
# Twentieth session, call 3 (perf-notes, "what a chunk's microsecond after the barrier is"):
# tuner timeline with marks (after run_task; after the block's barrier or the hand-off's count;
# after the merge's (max, sum)) on run 11's kernels: citeseer's rule and tpr16 fl8 split16, cold
# and warm; cora's and slashdot's rules, cold.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20c
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
rule_cs=$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32
rule_cora=$w32.g8.smem0.online.split64.pf.bm.i32.f32
rule_sd=csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split64.lpt.pf.bm.i32.f32
fl8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
for cache in cold warm; do
  step "timeline-citeseer-$cache" timeout 90 "$T" timeline --graph "$G/citeseer.mtx.gz" \
    --variant "$rule_cs,$fl8" --cache "$cache" --last 16 --json "$W/timeline-citeseer-$cache.json" --tasks \
    > "$W/timeline-citeseer-$cache.txt" 2>&1
done
step timeline-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" --variant "$rule_cora" --last 16 \
  --json "$W/timeline-cora.json" --tasks > "$W/timeline-cora.txt" 2>&1
step timeline-slashdot timeout 60 "$T" timeline --graph "$G/soc-slashdot0902.mtx.gz" --variant "$rule_sd" \
  --last 16 --json "$W/timeline-slashdot.json" > "$W/timeline-slashdot.txt" 2>&1
cat "$W"/timeline-*.txt
gzip -9 "$W"/*.json
echo "done at $SECONDS s"
