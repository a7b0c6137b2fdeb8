#!/usr/bin/env bash
# Fifteenth session, last call: the whole GPU check on the final tree, less the GPU test of a
# million-edge row (75 s; unchanged since call 4 ran it with the check on the GPU):
# gpu_tests (the late-producer checks now restore the inputs from copies kept per problem),
# memcheck and racecheck on the sanitizer set (the check kernel included), the production
# example, prof_check, the smoke tuning run and its --continue/--reuse checks.
set -uo pipefail
OUT="${OUT:+$OUT/check}" SKIP_BENCH=0 GTEST_FILTER='-GpuCorrectness.OneRowOfAMillionEdges' \
  bash "$(dirname "${BASH_SOURCE[0]}")/gpu-check.sh"
