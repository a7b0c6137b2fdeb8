#!/usr/bin/env bash
# ilp 1 is v3's code path: the previous build (.gpu/old/tuner) and this one timed on the same
# ids in one call, alternating twice, on the graphs where run 3 differed from run 2 most
# (power-law 1M, R-MAT) and on uniform 1M and the seed shape as controls. JSON to $OUT/ab.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir ab
P=csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split1024.i32.f32
U=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split256.i32.f32
S=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split1024.i32.f32
g=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1"
   --graph "uniform:n=1000000,deg=16,seed=1" --graph "seed:n=384,deg=18,seed=1")
for round in 1 2; do
  for side in old new; do
    X="$T"; [ $side = old ] && X="$ROOT/.gpu/old/tuner"
    step "$side-$round" timeout 120 "$X" bench "${g[@]}" --feat 64 --impl "$P,$U,$S,seed" \
      --max-seconds 0.25 --max-samples 200 --cache-dir "/tmp/nvrtc-$side" --json "$W/$side-$round.json"
  done
done
echo "done at $SECONDS s"
