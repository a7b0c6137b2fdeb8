#!/usr/bin/env bash
# ILP loads that overlap (kernel v6: load_vec_if loads kZero16 for entries a slot does not take,
# instead of a predicated load whose result ptxas copied out at once), in one device call (repo
# root, .gpu/ staged by scripts/stage-gpu.sh, plus .gpu/old/tuner: a tuner built from the
# commit before): the old build and this one on the same ids, alternating twice:
#   warm    the seed shape in a CUDA Graph: the tuned dispatch (its rule is the g2 kernel) and
#           the g1, g2 and g4 twins of that kernel (g1's SASS is unchanged: the control)
#   small   the same ids cold, launch included, on the seed shape, cora, citeseer and pubmed
#   uniform tpr8 g1 (unchanged) and g2 on uniform 1M, GPU time and DRAM counters
# JSON and logs are packed into $OUT/v6b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v6b
K1=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split0.i32.f32
K2=${K1/.t2./.t2.g2.}
K4=${K1/.t2./.t2.g4.}
U1=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32
U2=${U1/.t2./.t2.g2.}
seed=(--graph "seed:n=384,deg=18,seed=1")
small=("${seed[@]}"); for f in cora citeseer pubmed; do small+=(--graph "$G/$f.mtx.gz"); done
for round in 1 2; do
  for side in old new; do
    X="$T"; [ $side = old ] && X="$ROOT/.gpu/old/tuner"
    B=(--max-seconds 0.25 --max-samples 200 --cache-dir "/tmp/nvrtc-$side")
    step "$side-$round-warm" timeout 60 "$X" bench "${seed[@]}" --feat 64 --impl "tuned,$K1,$K2,$K4" --cache warm --graph-replay "${B[@]}" --json "$W/$side-$round-warm.json"
    step "$side-$round-small" timeout 90 "$X" bench "${small[@]}" --feat 64 --impl "$K1,$K2,$K4" --events "${B[@]}" --json "$W/$side-$round-small.json"
    step "$side-$round-uniform" timeout 90 "$X" bench --graph "uniform:n=1000000,deg=16,seed=1" --feat 64 --impl "$U1,$U2" --counters "${B[@]}" --json "$W/$side-$round-uniform.json"
  done
done
echo "done at $SECONDS s"
