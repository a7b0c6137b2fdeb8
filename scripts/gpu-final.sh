#!/usr/bin/env bash
# Final GPU call of a session: the whole GPU check (scripts/gpu-check.sh without the smoke
# tuning run) plus a side-by-side bench of the direct-load variants (smem2) against the tuned
# dispatch, warm (CUDA Graph replay) on the seed shape and cold on graphs where latency rules.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
T="$ROOT/.gpu/bin/tuner"; G="$ROOT/.gpu/graphs"; O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
SKIP_BENCH=1 bash scripts/gpu-check.sh
W="tuned,seed,csrgat.tpr32.fl8.rpb4.vec4.t2.smem2.online.split0.i32.f32,csrgat.tpr32.fl16.rpb4.vec4.t1.smem2.online.split0.i32.f32,csrgat.tpr16.fl16.rpb8.vec4.t1.smem2.online.split0.i32.f32,csrgat.tpr8.fl8.rpb16.vec4.t2.smem2.online.split0.i32.f32"
echo "=== warm, CUDA Graph replay, seed shape"
"$T" bench --graph "seed:n=384,deg=18,seed=1" --feat 64 --impl "$W" --cache warm --graph-replay --max-seconds 0.2 --json "$O/final-warm.json"
C="tuned,csrgat.tpr32.fl8.rpb4.vec4.t2.smem2.online.split1024.i32.f32,csrgat.tpr16.fl16.rpb8.vec4.t1.smem2.online.split512.i32.f32,csrgat.tpr8.fl8.rpb16.vec4.t2.smem2.online.split256.i32.f32"
echo "=== cold, GPU time"
"$T" bench --graph "$G/cora.mtx.gz" --graph "$G/pubmed.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1" --graph "uniform:n=1000000,deg=16,seed=1" --feat 64 --impl "$C" --max-seconds 0.2 --json "$O/final-cold.json"
