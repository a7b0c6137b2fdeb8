#!/usr/bin/env bash
# Thirty-fourth session, call 2: tuner bench's colblock implementation (the probe's tma_gather as
# a planned kernel measured beside the family): its GPU tests, memcheck on three of them, then
# uniform 2M, d 32, F 128 beside the tuned dispatch, the seed and softmax + cuSPARSE, round-robin
# in 3 rounds, cold L2, with counters (the run of record's bench-2m step, colblock added).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34b
step gpu_tests timeout -k 5 150 "$BIN/gpu_tests" --gtest_filter='Colblock.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|rror" "$W/gpu_tests.log" | head -30
step memcheck timeout -k 5 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Colblock.UniformGraphManyPartitions:Colblock.MaskedEdgesAndRows:Colblock.EmptyRows' > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck.log" | head
step bench-2m timeout 240 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 \
  --impl tuned,seed,colblock,cusparse --counters --rounds 3 --max-seconds 0.3 --max-samples 300 --json "$W/bench-2m.json"
echo "done at $SECONDS s"
