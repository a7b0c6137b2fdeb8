#!/usr/bin/env bash
# Twenty-third session, call 2: every row whose chunks ran in its block merges from shared
# memory (merge_block_chunks in groups of 4 chunks, up to RPB; perf-notes, "every in-block row
# merges from shared memory"):
#  1. GpuCorrectness (BlockMergedSplitRows: rows of 5-16 chunks in blocks of 8-16 groups, H 1-4,
#     F 64/48/47), the sanitizer's memcheck and racecheck on this tree;
#  2. this tree against main's build (.gpu/bin/tuner-head), the tuned dispatch (run 13's
#     header), two processes each, cold GPU time, seed shape and the seven real graphs;
#  3. timelines (cold) on citeseer: the rule and tpr32 fl16 rpb8 chunks of 16 and 24 edges at
#     mb3 (80 registers, two waves) and mb4 (64, one wave), with and without .lpt, and tpr16 fl8
#     rpb8 split16; on cora its rule and the same with chunks of 16 edges.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v23b
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
python3 scripts/ab_table.py "$W" ab tuner tuner-head new main
p=csrgat.tpr32.fl16
ids=(
  "$p.rpb4.vec4.t1.g4.mb7.smem0.online.split32.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb3.smem0.online.split16.lpt.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb4.smem0.online.split16.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb4.smem0.online.split16.lpt.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb3.smem0.online.split24.pf.bm.i32.f32"
  "$p.rpb8.vec4.t1.g4.mb4.smem0.online.split24.pf.bm.i32.f32"
  "csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32"
)
for i in "${!ids[@]}"; do
  step "tl-citeseer-$i" timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" --variant "${ids[$i]}" \
    --json "$W/tl-citeseer-$i.json" > "$W/tl-citeseer-$i.txt" 2>&1
done
for s in 32 16; do
  step "tl-cora-$s" timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" \
    --variant "csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split$s.pf.bm.i32.f32" \
    --json "$W/tl-cora-$s.json" > "$W/tl-cora-$s.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |row 1-4" "$f" | head -6; done
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
