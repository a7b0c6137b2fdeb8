#!/usr/bin/env bash
# Twelfth session, call 1: the whole GPU check on the overlapped-launch change (gpu_tests with
# Production.OverlappedLaunchWaitsForThePreviousKernel, memcheck, racecheck, production example,
# smoke run, --continue and --reuse checks), then the prediction of perf-notes' twelfth-session
# section, side by side in one process per graph (round-robin, 10 rounds):
#   warm    CUDA Graph replay: the tuned dispatch plain and overlapped (':pdl'), the seed shape's
#           rule without `.pf` both ways, the seed kernel, the empty kernel both ways
#   events  cold, launch included: tuned and tuned:pdl (a single call: nothing to overlap)
#   head    the rules' kernels built from HEAD (.gpu/bin/tuner-head: no griddepcontrol) and
#           from this tree, plain launches, cold GPU time, alternating processes
# Logs and JSON are packed into $OUT/v12.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v12

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 14; }

w=csrgat.tpr32.fl8.rpb4.vec4.t2 t=.smem0.online
plain="$w.g8$t.split0.i32.f32"
declare -A rule=(
  [seed]="$w.g8$t.split0.pf" [cora]="$w.g4$t.split32.pf" [pubmed]="$w.mb8$t.split64.lpt.pf"
  [soc-slashdot0902]="$w.mb8$t.split256.lpt")
spec() { case "$1" in seed) echo "seed:n=384,deg=18,seed=1";; *) echo "$G/$1.mtx.gz";; esac; }
B=(--max-seconds 0.3 --max-samples 300 --rounds 10)
step warm-seed timeout 90 "$T" bench --graph "$(spec seed)" --feat 64 \
  --impl "tuned,tuned:pdl,$plain,$plain:pdl,seed,empty,empty:pdl" --cache warm --graph-replay "${B[@]}" --json "$W/warm-seed.json"
for g in cora citeseer pubmed wiki-vote; do
  step "warm-$g" timeout 60 "$T" bench --graph "$(spec $g)" --feat 64 --impl "tuned,tuned:pdl,seed,empty,empty:pdl" \
    --cache warm --graph-replay "${B[@]}" --json "$W/warm-$g.json"
done
for g in seed cora; do
  step "events-$g" timeout 60 "$T" bench --graph "$(spec $g)" --feat 64 --impl "tuned,tuned:pdl,seed,empty" \
    --events "${B[@]}" --json "$W/events-$g.json"
done
for i in 1 2; do
  for bin in tuner tuner-head; do
    for g in seed cora pubmed soc-slashdot0902; do
      step "head-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$(spec $g)" --feat 64 --impl "${rule[$g]}.i32.f32" \
        --max-seconds 0.3 --max-samples 300 --json "$W/head-$bin-$g-$i.json"
    done
  done
done
# Where the seed shape's warm time goes, instruction by instruction (plain launches, L2 warm):
# Nsight Compute's warp-state sampling per SASS instruction of the tuned rule's kernel.
step ncu-seed timeout 120 ncu --cache-control none --clock-control none --section WarpStateStats \
  --section SourceCounters --section LaunchStats --section Occupancy -k regex:csrgat_fused --launch-skip 3 \
  --launch-count 1 --page source --print-source sass --csv \
  "$T" profile --graph "$(spec seed)" --name seed --variant "${rule[seed]}.i32.f32" --feat 64 --iters 5 > "$W/ncu-seed-sass.csv" 2> "$W/ncu-seed.err"
head -c 600 "$W/ncu-seed.err"; wc -l "$W/ncu-seed-sass.csv"
echo "done at $SECONDS s"
