#!/usr/bin/env bash
# Where overlapping ILP loads (kernel v6) pay, for the next tuning run's space, in one device
# call (repo root, .gpu/ staged by scripts/stage-gpu.sh): run 5's winners against their ilp 2
# and ilp 4 twins (without launch bounds: ilp 4 needs the registers), with and without `.lpt`
# (run 5's h200 space paired `.lpt` with ilp 1 only), on the small and skewed real graphs (cold,
# launch included) and on power-law and R-MAT (GPU time).
# JSON and logs are packed into $OUT/v6c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v6c
B=(--max-seconds 0.25 --max-samples 200 --cache-dir /tmp/nvrtc-v6c)
w32=csrgat.tpr32.fl8.rpb4.vec4.t2
w128=csrgat.tpr128.fl8.rpb1.vec4.t2
w8=csrgat.tpr8.fl8.rpb16.vec4.t2
tail=smem0.online
ids=tuned
for s in split128.lpt split256.lpt split128 split0; do
  ids+=",$w32.mb8.$tail.$s.i32.f32,$w32.g2.$tail.$s.i32.f32,$w32.g4.$tail.$s.i32.f32"
done
ids+=",$w128.mb8.$tail.split1024.lpt.i32.f32,$w128.g2.$tail.split1024.lpt.i32.f32,$w128.g4.$tail.split1024.lpt.i32.f32"
real=(--graph "seed:n=384,deg=18,seed=1"); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
step small timeout 240 "$T" bench "${real[@]}" --feat 64 --impl "$ids,cusparse" --events "${B[@]}" --json "$W/small.json"
big=""; for s in split512.lpt split1024.lpt; do for g in mb8 g2.mb8 g2 g4; do big+="${big:+,}$w8.$g.$tail.$s.i32.f32"; done; done
step large timeout 150 "$T" bench --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1" --feat 64 --impl "$big" "${B[@]}" --json "$W/large.json"
echo "done at $SECONDS s"
