#!/usr/bin/env bash
# Twenty-second session, call 1: block-merged partials in shared memory (SharedPartials:
# a row of at most 4 chunks whose features fit a pass keeps its chunks' partial rows and
# (max, sum) in the block's shared memory; perf-notes, "block-merged partials in shared memory
# again"):
#  1. GpuCorrectness (BlockMergedSplitRows: H 1-4, F 64/48/47, rpb4-16, mixed shared/global
#     partials in blocks of 8 warps) and the sanitizer's memcheck and racecheck on this tree;
#  2. this tree against main's build (.gpu/bin/tuner-head), the tuned dispatch (run 12's
#     header), two processes each, cold GPU time, seed shape and the seven real graphs;
#  3. timelines (cold) of citeseer's and cora's rules, both builds.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v22a
step gpu_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -30
step memcheck timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
tail -3 "$W/memcheck.log"
step racecheck timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 8 > "$W/racecheck.log" 2>&1
tail -3 "$W/racecheck.log"
B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
      --impl tuned "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" ab tuner tuner-head shared global
w32=csrgat.tpr32.fl16.rpb4.vec4.t1.g4.mb6.smem0.online.split32.lpt.pf.bm.i32.f32
cora=csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32
for bin in tuner tuner-head; do
  step "tl-$bin-citeseer" timeout 60 "$BIN/$bin" timeline --graph "$G/citeseer.mtx.gz" \
    --variant "$w32" --json "$W/tl-$bin-citeseer.json" --tasks > "$W/tl-$bin-citeseer.txt" 2>&1
  step "tl-$bin-cora" timeout 60 "$BIN/$bin" timeline --graph "$G/cora.mtx.gz" \
    --variant "$cora" --json "$W/tl-$bin-cora.json" --tasks > "$W/tl-$bin-cora.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |pad  |row 1-4" "$f" | head -14; done
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
