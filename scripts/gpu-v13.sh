#!/usr/bin/env bash
# Thirteenth session, call 1: the whole GPU check on the new KernelArgs layout (the row path's
# parameters in two constant-bank lines instead of four; the code otherwise the same:
# scripts/sass-diff.sh --mask-params), then the prediction of perf-notes' thirteenth-session
# section:
#   ladder  profiler/lat_ladder: what a parameter line, a dependent L2 load and an overlapped
#           launch cost a kernel of the seed shape's grid (graph replay)
#   head    the header's rules built from HEAD (.gpu/bin/tuner-head: the old layout) and from
#           this tree, same ids, plain launches, cold GPU time, alternating processes
#   warm    CUDA Graph replay, plain and overlapped (':pdl'), both builds, round-robin,
#           alternating processes
# Logs and JSON are packed into $OUT/v13.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 14; }

step ladder timeout 60 "$BIN/lat_ladder" "$W/ladder.json"

w=csrgat.tpr32.fl8.rpb4.vec4.t2 t=.smem0.online
declare -A rule=(
  [seed]="$w.g8$t.split0.pf" [cora]="$w.g4$t.split32.pf" [citeseer]="$w.g4$t.split32.pf"
  [wiki-vote]="$w.g4$t.split64.lpt.pf" [pubmed]="$w.mb8$t.split64.lpt.pf"
  [soc-slashdot0902]="$w.mb8$t.split256.lpt"
  [uniform1m]="csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256")
spec() { case "$1" in seed) echo "seed:n=384,deg=18,seed=1";; uniform1m) echo "uniform:n=1000000,deg=16,seed=1";;
         *) echo "$G/$1.mtx.gz";; esac; }
B=(--max-seconds 0.3 --max-samples 300 --rounds 10)
for bin in tuner tuner-head tuner tuner-head; do
  for g in seed cora pubmed; do
    step "warm-$bin-$g" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "tuned,tuned:pdl,empty,empty:pdl" \
      --cache warm --graph-replay "${B[@]}" --json "$W/warm-$bin-$g-$SECONDS.json" | tail -n 5
  done
done
for i in 1 2; do
  for bin in tuner tuner-head; do
    for g in seed cora citeseer wiki-vote pubmed soc-slashdot0902; do
      step "head-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "${rule[$g]}.i32.f32" \
        --max-seconds 0.3 --max-samples 300 --json "$W/head-$bin-$g-$i.json" | tail -n 2
    done
  done
done
for bin in tuner tuner-head tuner; do
  step "head-$bin-uniform1m" timeout 90 "$BIN/$bin" bench --graph "$(spec uniform1m)" --feat 64 --impl "${rule[uniform1m]}.i32.f32" \
    --max-seconds 0.3 --max-samples 100 --json "$W/head-$bin-uniform1m-$SECONDS.json" | tail -n 2
done
echo "done at $SECONDS s"
