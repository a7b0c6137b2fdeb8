#!/usr/bin/env bash
# Thirty-sixth session, call 2 (full staging): bf16 in feature slices of 32 features (fl 4).
# 1. configs/h200-bf16-slices.yaml with counters (scripts/gpu-config-probe.sh, v36b-slices.tgz);
# 2. run 22: configs/h200.yaml, whose uniform graphs now have fl 4 for bf16, taking the problems
#    run 21 measured under the same fingerprint from the recorded store (REUSE; multi.tgz);
# 3. what the remaining time allows, after the thirty-fifth session's review fixes (never run on a
#    GPU): the sweep's, the library's and the dispatch's GPU tests, then compute-sanitizer memcheck
#    and racecheck over the sweep (scripts/gpu-v35f.sh's steps; v36b.tgz).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
END=$(($(date +%s) + ${BUDGET:-570}))
CFG=configs/h200-bf16-slices.yaml NAME=v36b-slices bash "$D/gpu-config-probe.sh"
REUSE=tests/data/recorded/h200.sqlite.gz CFG=configs/h200.yaml LIMIT="${LIMIT:-260}" bash "$D/gpu-multi.sh"
(
  source "$D/gpu-env.sh"
  out_dir v36b
  left() { echo $((END - $(date +%s))); }
  gpu_tests_until $((SECONDS + $(left) - 200)) 'Colblock.*:Production.*:CApi.*:Dispatch.*'
  if [ "$(left)" -gt 80 ]; then
    step colblock_memcheck timeout $(($(left) - 50)) compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
      --gtest_filter="$COLBLOCK_MEMCHECK_TESTS" > "$W/memcheck.log" 2>&1
    grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY|Failure" "$W/memcheck.log" | head -30
  else echo "memcheck: skipped, $(left) s left"; fi
  if [ "$(left)" -gt 40 ]; then
    step colblock_racecheck timeout $(($(left) - 10)) compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/gpu_tests" \
      --gtest_filter="$COLBLOCK_RACECHECK_TESTS" > "$W/racecheck.log" 2>&1
    grep -E "^\[ +(OK|FAILED|PASSED) |RACECHECK SUMMARY|ERROR SUMMARY|Failure" "$W/racecheck.log" | head -20
  else echo "racecheck: skipped, $(left) s left"; fi
)
