#!/usr/bin/env bash
# Twenty-third session, call 6: gpu-v23d.sh cut to the ~320 s of device time left (two refused
# starts): the A/B of 1aebb5b (ex2.approx.ftz, straight-line merges of 5-8 chunks) against the
# run of record's build (.gpu/bin/tuner-head) with the one-row-per-SM timelines; GpuCorrectness
# (every test but the million-edge row) and memcheck on this tree; the run of record
# (gpu-v15c.sh: prof_check, the dispatch and library tests, benchmarks, PyG); then racecheck.
# Left out against gpu-v19e.sh: the profiler's and the tuner's GPU tests (no kernel code of
# theirs changed) and the million-edge row (~80 s).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"
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
  step gpu_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -30
  step memcheck timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
  tail -2 "$W/memcheck.log"
  echo "A/B and checks done at $SECONDS s"
)
bash "$ROOT/scripts/gpu-v15c.sh" 2>&1 | tail -n 12
echo "record done at $SECONDS s"
(
  out_dir v23e-race
  step racecheck timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 8 > "$W/racecheck.log" 2>&1
  tail -2 "$W/racecheck.log"
)
echo "done at $SECONDS s"
