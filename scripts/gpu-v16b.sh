#!/usr/bin/env bash
# Sixteenth session's kernel change, for the next session's second call: the ilp-1 warp kernels
# (the header's pubmed / ca-astroph / cit-hepph / slashdot rule, mb8) wait for the previous kernel
# inside their first batch, after its column loads, instead of at the task's start; their columns
# are widened after the scores are out. The A/B of this tree (.gpu/bin/tuner) against the commit
# before the change (.gpu/bin/tuner-head, built from a `git worktree` of d145de2 with the same
# header), predictions in perf-notes ("Sixteenth session"):
#   1. the late-producer check of overlapped launches on every kernel form (OverlapVariants.*),
#      and the library's dispatch and overlap tests;
#   2. warm, plain and overlapped (tuned, tuned:pdl), round-robin, two processes per build:
#      pubmed, ca-astroph, cit-hepph, soc-slashdot0902, and the seed shape as a control (its g8
#      kernel is byte-identical);
#   3. cold, the rule by id: pubmed and soc-slashdot0902.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v16b

step overlap_tests timeout 240 "$BIN/gpu_tests" --gtest_filter='OverlapVariants.*:Dispatch.*:Production.*' > "$W/overlap_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/overlap_tests.log" | head -40

source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl" pubmed ca-astroph cit-hepph soc-slashdot0902 seed
ab_cold pubmed soc-slashdot0902
echo "done at $SECONDS s"
