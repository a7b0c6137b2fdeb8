#!/usr/bin/env bash
# Twelfth session, call 2: the whole GPU check on the second kernel step (gathers before the
# softmax, col before the wait; gpu_tests with the overlap test's late NaN writes and empty
# rows, memcheck, racecheck, production example, smoke run, --continue and --reuse checks),
# then the prediction of perf-notes' "second step" section:
#   head    the header's rules built from HEAD (.gpu/bin/tuner-head: call 1's kernels) and from
#           this tree, same ids, plain launches, cold GPU time, alternating processes
#   warm    CUDA Graph replay, plain and overlapped (':pdl'), both builds, round-robin
# Logs and JSON are packed into $OUT/v12b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v12b

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 14; }

w=csrgat.tpr32.fl8.rpb4.vec4.t2 t=.smem0.online
declare -A rule=(
  [seed]="$w.g8$t.split0.pf" [cora]="$w.g4$t.split32.pf" [citeseer]="$w.g4$t.split32.pf"
  [wiki-vote]="$w.g4$t.split64.lpt.pf" [pubmed]="$w.mb8$t.split64.lpt.pf"
  [ca-astroph]="$w.mb8$t.split128.lpt.pf" [soc-slashdot0902]="$w.mb8$t.split256.lpt"
  [uniform1m]="csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256"
  [powerlaw1m]="csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem3.online.split1024.lpt")
spec() { case "$1" in seed) echo "seed:n=384,deg=18,seed=1";; uniform1m) echo "uniform:n=1000000,deg=16,seed=1";;
         powerlaw1m) echo "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1";; *) echo "$G/$1.mtx.gz";; esac; }
for i in 1 2; do
  for bin in tuner tuner-head; do
    for g in seed cora citeseer wiki-vote pubmed ca-astroph soc-slashdot0902; do
      step "head-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "${rule[$g]}.i32.f32" \
        --max-seconds 0.3 --max-samples 300 --json "$W/head-$bin-$g-$i.json" | tail -n 2
    done
  done
done
for bin in tuner tuner-head tuner; do
  for g in uniform1m powerlaw1m; do
    step "head-$bin-$g" timeout 90 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "${rule[$g]}.i32.f32" \
      --max-seconds 0.3 --max-samples 100 --json "$W/head-$bin-$g-$SECONDS.json" | tail -n 2
  done
done
B=(--max-seconds 0.3 --max-samples 300 --rounds 10)
for bin in tuner tuner-head; do
  for g in seed cora; do
    step "warm-$bin-$g" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "tuned,tuned:pdl,empty,empty:pdl" \
      --cache warm --graph-replay "${B[@]}" --json "$W/warm-$bin-$g.json" | tail -n 5
  done
done
echo "done at $SECONDS s"
