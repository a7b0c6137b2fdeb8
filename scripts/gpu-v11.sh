#!/usr/bin/env bash
# Eleventh session, call 1: the whole GPU check on the `.pf` change (gpu_tests with the smoke
# set's prefetch variants, memcheck and racecheck with the sanitizer set's, production
# example, smoke run, --continue and --reuse checks), then the prediction of perf-notes'
# eleventh-session section: each graph's tuned rule against the same variant with `.pf`, side
# by side in one process (round-robin, 10 rounds): GPU time cold (CUPTI), launch included
# cold (events), and warm (CUDA Graph) on the seed shape; uniform 1M (DRAM-bound) too. Then
# the rules' non-pf kernels built from HEAD's sources (.gpu/bin/tuner-head, staged beside) and
# from this tree in alternating processes: does the prefetch branch cost the other kernels?
# Logs and JSON are packed into $OUT/v11.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v11

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 12; }

w=csrgat.tpr32.fl8.rpb4.vec4.t2 t=.smem0.online
declare -A rule=(
  [seed]="$w.g8$t.split256" [cora]="$w.g4$t.split32" [citeseer]="$w.g4$t.split32"
  [pubmed]="$w.mb8$t.split64.lpt" [wiki-vote]="$w.g4$t.split64.lpt"
  [ca-astroph]="$w.mb8$t.split128.lpt" [cit-hepph]="$w.mb8$t.split128.lpt"
  [soc-slashdot0902]="$w.mb8$t.split256.lpt"
  [uniform1m]="csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256")
spec() { case "$1" in seed) echo "seed:n=384,deg=18,seed=1";; uniform1m) echo "uniform:n=1000000,deg=16,seed=1";; *) echo "$G/$1.mtx.gz";; esac; }
B=(--max-seconds 0.3 --max-samples 300 --rounds 10)
for g in seed cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902 uniform1m; do
  r="${rule[$g]}"
  step "pf-gpu-$g" timeout 60 "$T" bench --graph "$(spec $g)" --feat 64 --impl "$r.i32.f32,$r.pf.i32.f32" "${B[@]}" --json "$W/pf-gpu-$g.json"
done
for g in seed cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do
  r="${rule[$g]}"
  step "pf-events-$g" timeout 60 "$T" bench --graph "$(spec $g)" --feat 64 --impl "$r.i32.f32,$r.pf.i32.f32,seed,empty" --events "${B[@]}" --json "$W/pf-events-$g.json"
done
r="${rule[seed]}"
step pf-warm-seed timeout 60 "$T" bench --graph "$(spec seed)" --feat 64 --impl "$r.i32.f32,$r.pf.i32.f32,empty" --cache warm --graph-replay "${B[@]}" --json "$W/pf-warm-seed.json"
# HEAD's kernels against this tree's, same ids (no .pf), alternating processes.
for i in 1 2; do
  for bin in tuner tuner-head; do
    for g in seed cora pubmed soc-slashdot0902; do
      r="${rule[$g]}"
      step "head-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "$r.i32.f32" --max-seconds 0.3 --max-samples 300 --json "$W/head-$bin-$g-$i.json"
    done
  done
done
echo "done at $SECONDS s"
