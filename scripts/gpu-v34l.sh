#!/usr/bin/env bash
# Thirty-fourth session, call 12: colblock with its new defaults (R 19, 2^16 sources, lag 8):
# the Colblock GPU tests and memcheck, then uniform 2M, F 128 with tuned, seed and colblock
# (round-robin, 3 rounds, counters).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34l
step gpu_tests timeout -k 5 200 "$BIN/gpu_tests" --gtest_filter='Colblock.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|rror" "$W/gpu_tests.log" | head -30
step memcheck timeout -k 5 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Colblock.*:-Colblock.BarrierNeverGivesUp' > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck.log" | head -14
step bench-2m timeout 200 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 \
  --impl tuned,seed,colblock --counters --rounds 3 --max-seconds 0.3 --max-samples 300 --json "$W/bench-2m.json"
echo "done at $SECONDS s"
