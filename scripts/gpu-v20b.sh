#!/usr/bin/env bash
# Twentieth session, call 2 (perf-notes, "one run_task for chunks and rows"):
#  1. every GPU test but the million-edge row on this tree (the kernels changed);
#  2. tuner timeline of citeseer's rule, tpr16 fl8 split16 and cora's rule on this tree;
#  3. this tree against 97c3f09's build (.gpu/bin/tuner-head), by id and the tuned dispatch,
#     cold GPU time, two processes each, on the small graphs, the uniform twin and uniform 1M.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20b
B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
gpu_tests_until 150 '*-*OneRowOfAMillionEdges*'

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
rule_cs=$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32
rule_cora=$w32.g8.smem0.online.split64.pf.bm.i32.f32
fl8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online
s8=csrgat.tpr8.fl8.rpb16.vec4.t2
step timeline-citeseer timeout 90 "$T" timeline --graph "$G/citeseer.mtx.gz" \
  --variant "$rule_cs,$fl8.split16.lpt.pf.bm.i32.f32" --json "$W/timeline-citeseer.json" --tasks \
  > "$W/timeline-citeseer.txt" 2>&1
step timeline-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" --variant "$rule_cora" \
  --json "$W/timeline-cora.json" --tasks > "$W/timeline-cora.txt" 2>&1
cat "$W"/timeline-*.txt

AB="tuned,$rule_cs,$rule_cora,$fl8.split16.lpt.pf.bm.i32.f32,$fl8.split24.lpt.pf.bm.i32.f32"
AB+=",csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32"
AB+=",$s8.g4.smem0.online.split16.lpt.pf.bm.i32.f32,$s8.g2.mb8.smem0.online.split64.lpt.pf.bm.i32.f32"
AB+=",$s8.g4.smem0.online.split48.lpt.pf.bm.i32.f32"
GR=(--graph "$G/citeseer.mtx.gz" --graph "$G/cora.mtx.gz" --graph "$G/pubmed.mtx.gz"
    --graph "$G/ca-astroph.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz" --graph "seed:n=384,deg=18,seed=1"
    --graph "uniform:n=3327,deg=3,seed=1" --graph "uniform:n=1000000,deg=16,seed=1")
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 100 "$BIN/$bin" bench "${GR[@]}" --feat 64 --impl "$AB" "${B[@]}" \
      --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" ab tuner tuner-head tree 97c3f09
echo "done at $SECONDS s"
