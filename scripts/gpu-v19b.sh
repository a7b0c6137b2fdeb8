#!/usr/bin/env bash
# Nineteenth session, calls 2 and 3 (perf-notes, "the chunks' hand-off without L1 invalidations",
# "rows merged inside their block"):
# every GPU test on this tree (the million-edge row is the chunk merge's hardest case), then
# this tree's build against HEAD's (.gpu/bin/tuner-head: the same kernels with __threadfence()
# in every chunk), cold GPU time, alternating builds twice: the tuned dispatch on the small
# graphs, and by id citeseer's chunked alternatives beside its uniform twin, and the slashdot
# fl16 kernels of call 1.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${AB_TAG:-v19b}"
B=(--max-seconds 0.3 --max-samples 300 --rounds 3)
gpu_tests_until 200 '*'

seed=(--graph "seed:n=384,deg=18,seed=1")
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
s16=csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem0.online
s8=csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online
f8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online
CS="tuned,$w32.g4.mb7.smem0.online.split0.pf.i32.f32,$w32.g4.mb7.smem0.online.split32.pf.i32.f32"
CS+=",$w32.g4.mb7.smem0.online.split64.pf.i32.f32,$w32.g8.smem0.online.split32.pf.i32.f32"
CS+=",$s16.split16.lpt.pf.i32.f32,$s16.split8.lpt.pf.i32.f32,$s16.split4.lpt.pf.i32.f32"
CS+=",$s8.split8.lpt.pf.i32.f32,$s8.split4.lpt.pf.i32.f32,$f8.split16.lpt.pf.i32.f32,$f8.split8.lpt.pf.i32.f32"
fl16=csrgat.tpr32.fl16.rpb4.vec4.t1.g2.smem0.online
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "tuned-$bin-$i" timeout 60 "$BIN/$bin" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned \
      "${B[@]}" --json "$W/tuned-$bin-$i.json" > "$W/tuned-$bin-$i.txt" 2>&1
    step "ids-$bin-$i" timeout 90 "$BIN/$bin" bench --graph "$G/citeseer.mtx.gz" \
      --graph "uniform:n=3327,deg=3,seed=1" --feat 64 --impl "$CS" "${B[@]}" \
      --json "$W/ids-$bin-$i.json" > "$W/ids-$bin-$i.txt" 2>&1
    step "fl16-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "$G/soc-slashdot0902.mtx.gz" --feat 64 \
      --impl "$fl16.split1024.i32.f32,csrgat.tpr16.fl16.rpb8.vec4.t1.g2.smem0.online.split512.lpt.i32.f32" \
      "${B[@]}" --json "$W/fl16-$bin-$i.json" > "$W/fl16-$bin-$i.txt" 2>&1
  done
done
# Call 3 (AB_TAG=v19c EXTRA=1): the large graphs whose rules split (power-law 1M, R-MAT) and
# pubmed with 2 heads by id (the sub-warp blocks then hold chunks of two heads each).
if [ "${EXTRA:-0}" = 1 ]; then
  for i in 1 2; do
    for bin in tuner tuner-head; do
      step "large-$bin-$i" timeout 90 "$BIN/$bin" bench --feat 64 --impl tuned \
        --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1" \
        "${B[@]}" --json "$W/large-$bin-$i.json" > "$W/large-$bin-$i.txt" 2>&1
      step "heads-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "$G/pubmed.mtx.gz" --graph "$G/cora.mtx.gz" \
        --feat 64 --heads 2 --impl "$s16.split32.lpt.pf.i32.f32,$s8.split32.lpt.pf.i32.f32,$w32.g4.smem0.online.split32.pf.i32.f32" \
        "${B[@]}" --json "$W/heads-$bin-$i.json" > "$W/heads-$bin-$i.txt" 2>&1
    done
  done
fi
for p in tuned ids fl16 large heads; do python3 scripts/ab_table.py "$W" "$p" tuner tuner-head tree HEAD; done
echo "results marked wrong: $(grep -o '"status": *"wrong"' "$W"/*.json | wc -l)"
echo "done at $SECONDS s"
