#!/usr/bin/env bash
# Kernel version 3 on the GPU machine, in one device call (repo root, .gpu/ staged by
# scripts/stage-gpu.sh, plus .gpu/old/tuner: a tuner built from the previous kernel version):
#   correct  the fused family against the float64 reference (gpu_tests, GpuCorrectness.*)
#   sass     instruction counts of the same kernel before and after (.gpu/sass/*.cubin)
#   ab       the previous build and this one, same variant ids, same graphs, one call
#   tune     tuner run configs/h200.yaml into $OUT/h200 (killed once part-way, then resumed;
#            a run cut by the call's time limit resumes in the next call from the store)
# Everything lands in $OUT/v3.tgz (or .gpu/out), the store and header also beside it.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
OLD="$ROOT/.gpu/old/tuner"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
# At most 8 files come back from the device: logs and JSON go to $W, packed into one archive.
W="$O/work"; mkdir -p "$W"
trap 'tar -C "$O" -czf "$O/v3.tgz" work 2>/dev/null; rm -rf "$W"' EXIT
BUDGET="${BUDGET:-560}"  # seconds this script may use in all
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv

if [ "${SKIP_CORRECT:-0}" != 1 ]; then
  step correct timeout 120 "$ROOT/.gpu/bin/gpu_tests" \
    --gtest_filter='GpuCorrectness.*:-GpuCorrectness.OneRowOfAMillionEdges' > "$W/correct.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) " "$W/correct.log" | tail -12
fi

if [ -d "$ROOT/.gpu/sass" ] && command -v cuobjdump >/dev/null; then
  echo "=== sass"
  for c in "$ROOT"/.gpu/sass/*.cubin; do
    n="$(basename "$c" .cubin)"
    cuobjdump -sass "$c" > "$W/$n.sass" 2>&1
    printf '%-10s LDG %3d  LDG.128 %3d  SHFL %3d  REDUX %2d  STG %3d  BRA %3d\n' "$n" \
      "$(grep -c 'LDG' "$W/$n.sass")" "$(grep -c 'LDG.E.128' "$W/$n.sass")" \
      "$(grep -c 'SHFL' "$W/$n.sass")" "$(grep -c 'REDUX' "$W/$n.sass")" \
      "$(grep -c 'STG' "$W/$n.sass")" "$(grep -c 'BRA' "$W/$n.sass")"
  done
fi

if [ "${SKIP_AB:-0}" != 1 ] && [ -x "$OLD" ]; then
  v32=csrgat.tpr32.fl8.rpb4.vec4.t2.smem0.online.split1024.i32.f32
  v8=csrgat.tpr8.fl8.rpb16.vec4.t2.smem0.online.split0.i32.f32
  b8=csrgat.tpr8.fl8.rpb16.vec8.t1.smem0.online.split256.i32.bf16
  small=(--graph "$G/cora.mtx.gz" --graph "$G/pubmed.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz")
  seed=(--graph "seed:n=384,deg=18,seed=1")
  uni=(--graph "uniform:n=1000000,deg=16,seed=1")
  pl=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1")
  for side in old new; do
    X="$T"; [ $side = old ] && X="$OLD"
    B=(--max-seconds 0.25 --max-samples 200 --cache-dir "/tmp/nvrtc-$side")
    # The new build also runs each id with launch bounds (.mb8) and bf16 with two edges per lane.
    mb() { [ $side = new ] && for v in "$@"; do printf ',%s' "${v/.smem0./.mb8.smem0.}"; done; }
    e2=""; [ $side = new ] && e2=",${b8/.t1./.t1.e2.},${b8/.t1./.t1.e2.mb8.}"
    step "ab-$side-seed-warm" timeout 60 "$X" bench "${seed[@]}" --feat 64 --impl "$v32$(mb $v32),seed" --cache warm --graph-replay "${B[@]}" --json "$W/ab-$side-seed-warm.json"
    step "ab-$side-small" timeout 90 "$X" bench "${seed[@]}" "${small[@]}" --feat 64 --impl "$v32$(mb $v32),cusparse" "${B[@]}" --json "$W/ab-$side-small.json"
    step "ab-$side-uniform" timeout 90 "$X" bench "${uni[@]}" --feat 64 --impl "$v8$(mb $v8)" --counters "${B[@]}" --json "$W/ab-$side-uniform.json"
    step "ab-$side-powerlaw" timeout 90 "$X" bench "${pl[@]}" --feat 64 --impl "$v32$(mb $v32),$v8$(mb $v8)" --counters "${B[@]}" --json "$W/ab-$side-powerlaw.json"
    step "ab-$side-uniform-bf16" timeout 90 "$X" bench "${uni[@]}" --feat 64 --value bf16 --impl "$b8$(mb $b8)$e2" --counters "${B[@]}" --json "$W/ab-$side-uniform-bf16.json"
  done
fi

if [ "${SKIP_TUNE:-0}" != 1 ]; then
  # The config's output, moved under $O so that a cut call still returns the store.
  sed "s#^output:.*#output: $W/h200#" configs/h200.yaml > configs/.h200-out.yaml
  [ -f "$ROOT/.gpu/h200/results.sqlite" ] && { mkdir -p "$W/h200"; cp "$ROOT/.gpu/h200/results.sqlite" "$W/h200/"; }
  echo "=== tune part 1, killed after ${KILL_AFTER:-45} s (at $SECONDS s)"
  timeout -s KILL "${KILL_AFTER:-45}" "$T" run configs/.h200-out.yaml > "$W/h200-part1.log" 2>&1
  echo "exit $?"; tail -n 3 "$W/h200-part1.log"
  left=$((BUDGET - SECONDS))
  echo "=== tune part 2, resumed, ${left} s left (at $SECONDS s)"
  timeout -s INT "$left" "$T" run configs/.h200-out.yaml > "$W/h200-part2.log" 2>&1
  echo "exit $?"
  grep -E "resuming|taken from the store|finished in|tuned header|report" "$W/h200-part2.log" | head
  sed -n '/^graph /,$p' "$W/h200-part2.log" | head -30
  python3 -c "import sqlite3; d=sqlite3.connect('$W/h200/results.sqlite'); d.execute('pragma journal_mode=delete'); d.execute('vacuum')" 2>/dev/null
  rm -rf "$W/h200/cache"; cp "$W/h200/results.sqlite" "$O/h200.sqlite"; cp "$W/h200/include/csrgat/tuned/sm_90.h" "$O/sm_90.h"
fi
echo "done at $SECONDS s"
