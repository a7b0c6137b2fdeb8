#!/usr/bin/env bash
# Twenty-third session, call 6: gpu-v23d.sh in the 480 s of device time left: the A/B of
# 1aebb5b (ex2.approx.ftz, straight-line merges of 5-8 chunks) against the run of record's
# build (.gpu/bin/tuner-head) with the one-row-per-SM timelines, then the run of record
# (gpu-v15c.sh) and the GPU check (gpu-check.sh: every GPU test but the million-edge row,
# memcheck, racecheck, the production example); the million-edge row (~80 s) only if the call
# is still under 240 s by then.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
(
  out_dir v23e
  B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
  real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
  for i in 1 2; do
    for bin in tuner tuner-head; do
      step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
        --impl tuned "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
    done
  done
  python3 scripts/ab_table.py "$W" ab tuner tuner-head new head
  K8=csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32
  for bin in tuner tuner-head; do
    step "tl-$bin-u132" timeout 60 "$BIN/$bin" timeline --graph "uniform:n=132,deg=99,seed=1" \
      --variant "$K8" --json "$W/tl-$bin-u132.json" > "$W/tl-$bin-u132.txt" 2>&1
  done
  for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E "GPU time|span|chunk  " "$f" | head -4; done
  gzip -9 "$W"/*.json 2>/dev/null
  echo "A/B done at $SECONDS s"
)
bash "$ROOT/scripts/gpu-v15c.sh" 2>&1 | tail -n 12
echo "record done at $SECONDS s"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O/check"
GTEST_FILTER=-GpuCorrectness.OneRowOfAMillionEdges SKIP_BENCH=1 SKIP_PROF=1 OUT="$O/check" \
  bash "$ROOT/scripts/gpu-check.sh" 2>&1 | tail -n 8
if [ "$SECONDS" -lt 240 ]; then
  "$BIN/gpu_tests" --gtest_filter=GpuCorrectness.OneRowOfAMillionEdges > "$O/check/million.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$O/check/million.log"
else
  echo "million-edge row: not run ($SECONDS s at this point)" | tee "$O/check/million.log"
fi
tar -C "$O" -czf "$O/check.tgz" check && rm -rf "$O/check"
echo "done at $SECONDS s"
