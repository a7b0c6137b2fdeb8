#!/usr/bin/env bash
# Thirty-fourth session, call 7: colblock after the review (an abandoned barrier stops waiting
# for the rest of its launch; new tests): the Colblock GPU tests, memcheck and racecheck as
# scripts/gpu-check.sh runs them, then uniform 2M, F 128 with tuned, seed and colblock
# (round-robin, 3 rounds, counters), to see the barrier's change cost nothing.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${1:-v34g}"  # gpu-v34h.sh runs this as v34h
step gpu_tests timeout -k 5 200 "$BIN/gpu_tests" --gtest_filter='Colblock.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|rror" "$W/gpu_tests.log" | head -30
step memcheck timeout -k 5 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Colblock.*:-Colblock.BarrierNeverGivesUp' > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck.log" | head -12
step racecheck timeout -k 5 150 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Colblock.MaskedEdgesAndRows:Colblock.EmptyRowsMixedInBatches' > "$W/racecheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |RACECHECK SUMMARY" "$W/racecheck.log" | head
step bench-2m timeout 200 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 \
  --impl tuned,seed,colblock --counters --rounds 3 --max-seconds 0.3 --max-samples 300 --json "$W/bench-2m.json"
echo "done at $SECONDS s"
