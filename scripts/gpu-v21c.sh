#!/usr/bin/env bash
# Twenty-first session, call 3: block merges of at most 4 chunks in merge_block_chunks, rows of
# 5-16 chunks back in merge_chunks (call 2: the grouped merge took pubmed +5.9%):
#  1. GpuCorrectness (the block-merge test among them) on this tree;
#  2. this tree against 206133c's build (.gpu/bin/tuner-head), the tuned dispatch, two
#     processes each, cold GPU time, seed shape and the seven real graphs;
#  3. run 12: configs/h200.yaml with the small space widened (tpr32 rpb8, tpr16 fl8; 731
#     variants per small problem), the whole lab (the kernel sources changed), gpu-v17e.sh with
#     TUNE_TAG v21c.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
(
  out_dir v21c-ab
  step gpu_tests timeout 100 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | head -20
  B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
  real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
  for i in 1 2; do
    for bin in tuner tuner-head; do
      step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
        --impl tuned "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
    done
  done
  python3 scripts/ab_table.py "$W" ab tuner tuner-head tree 206133c
  gzip -9 "$W"/*.json 2>/dev/null
)
TUNE_TAG=v21c LIMIT=420 bash "$ROOT/scripts/gpu-v17e.sh"
echo "done at $SECONDS s"
