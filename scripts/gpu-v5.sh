#!/usr/bin/env bash
# Kernel version 5 on the GPU machine, in one device call (repo root, .gpu/ staged by
# scripts/stage-gpu.sh, plus .gpu/old/tuner: a tuner built from the commit before v5):
#   tests  the whole gpu_tests binary (the chunk merge is in every split variant it checks)
#   ab     the old build and this one on the same variant ids, alternating twice:
#          power-law 1M (the chunk merge: tpr8 split256, tpr32 split1024, f32 and bf16),
#          uniform 1M bf16 (the new fl4 ids against run 3's winner), and the tuned dispatch on
#          the seed shape (warm) and three small graphs (events): the production library was
#          compute_75 PTX before this change, sm_90 SASS after.
# JSON and logs are packed into $OUT/v5.tgz (the device returns at most 8 files).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v5

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  step tests timeout 200 "$BIN/gpu_tests" > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(FAILED|PASSED) |tests from .* ran" "$W/gpu_tests.log" | tail -12
fi

P8=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split256.i32.f32
P32=csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split1024.i32.f32
PB=csrgat.tpr16.fl8.rpb8.vec8.t1.mb8.smem0.online.split512.i32.bf16
PB4=csrgat.tpr8.fl4.rpb16.vec8.t2.mb8.smem0.online.split256.i32.bf16
UB=csrgat.tpr8.fl8.rpb16.vec8.t1.e2.mb8.smem0.online.split0.i32.bf16
UB4=(csrgat.tpr4.fl4.rpb32.vec8.t2.mb8.smem0.online.split0.i32.bf16
     csrgat.tpr8.fl4.rpb16.vec8.t2.mb8.smem0.online.split0.i32.bf16
     csrgat.tpr8.fl4.rpb16.vec8.t2.e2.mb8.smem0.online.split0.i32.bf16
     csrgat.tpr16.fl4.rpb8.vec8.t2.mb8.smem0.online.split0.i32.bf16)
ub4="$(IFS=,; echo "${UB4[*]}")"
pl=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1")
uni=(--graph "uniform:n=1000000,deg=16,seed=1")
seed=(--graph "seed:n=384,deg=18,seed=1")
small=(--graph "$G/cora.mtx.gz" --graph "$G/citeseer.mtx.gz" --graph "$G/pubmed.mtx.gz")
for round in 1 2; do
  for side in old new; do
    X="$T"; [ $side = old ] && X="$ROOT/.gpu/old/tuner"
    B=(--max-seconds 0.25 --max-samples 200 --cache-dir "/tmp/nvrtc-$side")
    step "$side-$round-powerlaw" timeout 120 "$X" bench "${pl[@]}" --feat 64 --impl "$P8,$P32" --counters "${B[@]}" --json "$W/$side-$round-powerlaw.json"
    step "$side-$round-powerlaw-bf16" timeout 90 "$X" bench "${pl[@]}" --feat 64 --value bf16 --impl "$PB,$PB4" "${B[@]}" --json "$W/$side-$round-powerlaw-bf16.json"
    [ $round = 1 ] && step "$side-$round-uniform-bf16" timeout 90 "$X" bench "${uni[@]}" --feat 64 --value bf16 --impl "$UB,$ub4" --counters "${B[@]}" --json "$W/$side-$round-uniform-bf16.json"
    step "$side-$round-seed-warm" timeout 60 "$X" bench "${seed[@]}" --feat 64 --impl tuned,seed,empty --cache warm --graph-replay "${B[@]}" --json "$W/$side-$round-seed-warm.json"
    step "$side-$round-small" timeout 90 "$X" bench "${seed[@]}" "${small[@]}" --feat 64 --impl tuned,seed,cusparse,empty --events "${B[@]}" --json "$W/$side-$round-small.json"
  done
done
# This build only: how the power-law time moves with the chunk length once the merge is cheap.
ex=""; for sp in 64 128 512 1024; do ex+="${ex:+,}${P8/split256/split$sp}"; done
ex+=",${P32/split1024/split256},${P32/split1024/split512},${P32/.tpr32.fl8.rpb4./.tpr16.fl8.rpb8.}"
step explore-powerlaw timeout 120 "$T" bench "${pl[@]}" --feat 64 --impl "$ex" --max-seconds 0.25 --max-samples 200 --cache-dir /tmp/nvrtc-new --json "$W/explore-powerlaw.json"
echo "done at $SECONDS s"
