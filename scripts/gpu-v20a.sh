#!/usr/bin/env bash
# Twentieth session, call 1 (perf-notes, "Twentieth session"):
#  1. the GPU tests but the million-edge row (8d8ac59's host change and the timeline build have
#     not run on a GPU);
#  2. tuner timeline: citeseer's rule and its one-wave and sub-warp alternatives, its uniform
#     twin (3327 rows of degree 3), cora's and the seed shape's rules, cold;
#  3. by id, cold GPU time, two rounds: kernels the h200 space does not reach (tpr32 with chunks
#     of 16 and 24 edges, tpr32 in blocks of 8 warps, tpr16 fl8) beside citeseer's rule;
#  4. when .gpu/bin/tuner-smem is staged (branch exp/bm-smem: block-merged chunks keep their
#     partials in shared memory), this tree against it on the small graphs' .bm rules, two
#     processes each.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20a
B=(--max-seconds 0.3 --max-samples 300 --rounds 2)
gpu_tests_until 150 '*-*OneRowOfAMillionEdges*'

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
rule_cs=$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32
rule_cora=$w32.g8.smem0.online.split64.pf.bm.i32.f32
rule_seed=$w32.g8.smem0.online.split0.pf.i32.f32
rule_pub=csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
fl8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online
TL="$rule_cs,$w32.g4.mb8.smem0.online.split32.pf.bm.i32.f32,$fl8.split16.lpt.pf.bm.i32.f32"
TL+=",csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32"
step timeline-citeseer timeout 120 "$T" timeline --graph "$G/citeseer.mtx.gz" --variant "$TL" \
  --json "$W/timeline-citeseer.json" --tasks > "$W/timeline-citeseer.txt" 2>&1
step timeline-uniform timeout 60 "$T" timeline --graph "uniform:n=3327,deg=3,seed=1" \
  --variant "$rule_cs,$w32.g4.mb8.smem0.online.split32.pf.bm.i32.f32" \
  --json "$W/timeline-uniform.json" --tasks > "$W/timeline-uniform.txt" 2>&1
step timeline-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" --variant "$rule_cora" \
  --json "$W/timeline-cora.json" --tasks > "$W/timeline-cora.txt" 2>&1
step timeline-seed timeout 60 "$T" timeline --graph "seed:n=384,deg=18,seed=1" --variant "$rule_seed" \
  --json "$W/timeline-seed.json" --tasks > "$W/timeline-seed.txt" 2>&1
cat "$W"/timeline-*.txt

IDS="tuned,$rule_cs,$w32.g4.mb6.smem0.online.split16.pf.bm.i32.f32,$w32.g4.mb6.smem0.online.split24.pf.bm.i32.f32"
IDS+=",$w32.g4.smem0.online.split16.pf.bm.i32.f32,$w32.g4.smem0.online.split24.pf.bm.i32.f32"
IDS+=",csrgat.tpr32.fl8.rpb8.vec4.t2.g4.mb3.smem0.online.split32.pf.bm.i32.f32"
IDS+=",csrgat.tpr32.fl8.rpb8.vec4.t2.g4.mb3.smem0.online.split16.pf.bm.i32.f32"
IDS+=",csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32"
IDS+=",$fl8.split16.lpt.pf.bm.i32.f32,$fl8.split24.lpt.pf.bm.i32.f32,$fl8.split32.lpt.pf.bm.i32.f32"
IDS+=",$fl8.mb8.split24.lpt.pf.bm.i32.f32,empty"
step ids timeout 150 "$T" bench --graph "$G/citeseer.mtx.gz" --graph "uniform:n=3327,deg=3,seed=1" \
  --graph "$G/cora.mtx.gz" --feat 64 --impl "$IDS" "${B[@]}" --json "$W/ids.json" > "$W/ids.txt" 2>&1
python3 - "$W/ids.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    g = r["graph"].split("/")[-1].replace(".mtx.gz", "")
    print(f"{g[:26]:26s} {r['impl'][:80]:80s} {r.get('status',''):8s} {r.get('gpu_median_us') or 0:7.2f} us  {r.get('variant','')[:40]}")
PY

if [ -x "$BIN/tuner-smem" ]; then
  step gpu_tests-smem timeout 120 "$BIN/gpu_tests-smem" --gtest_filter='*BlockMerged*:*Split*:*Chunk*' \
    > "$W/gpu_tests-smem.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests-smem.log" | head -20
  AB="tuned,$rule_cs,$rule_cora,$rule_pub,csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split64.lpt.pf.bm.i32.f32"
  AB+=",csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split48.lpt.pf.bm.i32.f32,$fl8.split16.lpt.pf.bm.i32.f32"
  for i in 1 2; do
    for bin in tuner tuner-smem; do
      step "smem-$bin-$i" timeout 90 "$BIN/$bin" bench --graph "$G/citeseer.mtx.gz" --graph "$G/cora.mtx.gz" \
        --graph "$G/pubmed.mtx.gz" --graph "$G/ca-astroph.mtx.gz" --feat 64 --impl "$AB" "${B[@]}" \
        --json "$W/smem-$bin-$i.json" > "$W/smem-$bin-$i.txt" 2>&1
    done
  done
  python3 scripts/ab_table.py "$W" smem tuner-smem tuner "smem partials" tree
fi
echo "done at $SECONDS s"
