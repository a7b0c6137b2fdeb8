#!/usr/bin/env bash
# Twenty-third session, call 6 (not run: the device refused it four times; ready for the next
# session): the A/B of 1aebb5b (ex2.approx.ftz, straight-line merges of 5-8 chunks) against the
# run of record's build (.gpu/bin/tuner-head), the one-row-per-SM timelines from both, and the
# checks of this tree: GpuCorrectness (but the million-edge row), memcheck, racecheck. No run of
# record: call 4's stands, for the build before 1aebb5b.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v23f
ab_tuned 3 tuner tuner-head
K8=csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32
for bin in tuner tuner-head; do
  step "tl-$bin-u132" timeout 60 "$BIN/$bin" timeline --graph "uniform:n=132,deg=99,seed=1" \
    --variant "$K8" --json "$W/tl-$bin-u132.json" > "$W/tl-$bin-u132.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E "GPU time|span|chunk  " "$f" | head -4; done
gzip -9 "$W"/*.json 2>/dev/null
step gpu_tests timeout 100 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*:Production.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -30
step memcheck timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
tail -2 "$W/memcheck.log"
step racecheck timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 8 > "$W/racecheck.log" 2>&1
tail -2 "$W/racecheck.log"
echo "done at $SECONDS s"
