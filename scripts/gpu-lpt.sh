#!/usr/bin/env bash
# Longest rows first (`.lpt`) on the GPU machine, in one device call (repo root, .gpu/ staged by
# scripts/stage-gpu.sh, plus .gpu/old/tuner: a tuner built from the commit before `.lpt`):
#   lpt     run 4's winners against the same ids with .lpt, and tpr8 at longer chunks, on
#           power-law, R-MAT, uniform (GPU time) and the skewed real graphs (launch included)
#   ab      the build before .lpt and this one on the same ids without .lpt, alternating
#           twice: the row-order branch must cost nothing when unused
#   tests   gpu_tests (the smoke set has .lpt ids, int32 and int64 orders, with and without
#           chunks) and compute-sanitizer memcheck on configs/sanitizer.yaml (last: the
#           measurements come back even when the call runs out of time)
# JSON and logs are packed into $OUT/lpt.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir lpt
P8=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split256.i32.f32
P32=csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split256.i32.f32
P32s=csrgat.tpr32.fl8.rpb4.vec4.t2.mb8.smem0.online.split128.i32.f32
U=csrgat.tpr8.fl8.rpb16.vec4.t2.mb8.smem0.online.split0.i32.f32
lpt() { local o="" v; for v in "$@"; do o+="${o:+,}$v,${v/.i32./.lpt.i32.}"; done; echo "$o"; }
B=(--max-seconds 0.25 --max-samples 100 --cache-dir /tmp/nvrtc-new)
pl=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1")
rm=(--graph "rmat:scale=20,ef=16,seed=1")
uni=(--graph "uniform:n=1000000,deg=16,seed=1")
real=(); for f in wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
step lpt-powerlaw timeout 120 "$T" bench "${pl[@]}" --feat 64 --impl "$(lpt $P32 $P32s $P8 ${P8/split256/split512} ${P8/split256/split1024})" "${B[@]}" --json "$W/lpt-powerlaw.json"
step lpt-rmat timeout 90 "$T" bench "${rm[@]}" --feat 64 --impl "$(lpt $P32 $P8 ${P8/split256/split1024})" "${B[@]}" --json "$W/lpt-rmat.json"
step lpt-uniform timeout 60 "$T" bench "${uni[@]}" --feat 64 --impl "$(lpt $U)" "${B[@]}" --json "$W/lpt-uniform.json"
step lpt-real timeout 90 "$T" bench "${real[@]}" --feat 64 --impl "$(lpt $P32 $P32s),cusparse" --events "${B[@]}" --json "$W/lpt-real.json"
if [ -x "$ROOT/.gpu/old/tuner" ]; then
  for round in 1 2; do
    for side in old new; do
      X="$T"; [ $side = old ] && X="$ROOT/.gpu/old/tuner"
      step "ab-$side-$round" timeout 90 "$X" bench "${pl[@]}" "${uni[@]}" --feat 64 --impl "$P32,$U" --max-seconds 0.25 --max-samples 100 --cache-dir "/tmp/nvrtc-$side" --json "$W/ab-$side-$round.json"
      step "ab-$side-$round-seed" timeout 60 "$X" bench --graph "seed:n=384,deg=18,seed=1" --feat 64 --impl tuned,empty --cache warm --graph-replay --max-seconds 0.25 --max-samples 100 --json "$W/ab-$side-$round-seed.json"
    done
  done
fi
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  step tests timeout 200 "$BIN/gpu_tests" > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(FAILED|PASSED) |tests from .* ran" "$W/gpu_tests.log" | tail -8
  [ "$SECONDS" -lt 200 ] && step memcheck timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
  grep -E "ERROR SUMMARY|check:" "$W/memcheck.log"
fi
echo "done at $SECONDS s"
