#!/usr/bin/env bash
# Thirteenth session, call 2: the register-gather kernels compute their first gathers' final
# addresses from the columns before they wait for the previous kernel (an overlapped launch),
# and load the scores first otherwise (KernelArgs::overlapped). The library's overlap test and
# the dispatch test first (the whole check runs in the final call), then the prediction of
# perf-notes' "second step" section of the thirteenth session:
#   ladder  profiler/lat_ladder with the shuffle and per-warp rungs
#   warm    CUDA Graph replay, plain and overlapped (':pdl'), this tree against HEAD's build
#           (.gpu/bin/tuner-head), round-robin, alternating processes; every ':pdl' result is
#           checked against the reference again after its timed launches
#   head    the header's rules, same ids, plain launches, cold GPU time, alternating processes
# Logs and JSON are packed into $OUT/v13b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13b

step gpu_tests timeout 200 "$BIN/gpu_tests" --gtest_filter='Production.*:Dispatch.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) " "$W/gpu_tests.log"
step ladder timeout 60 "$BIN/lat_ladder" "$W/ladder.json"

source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl,empty:pdl" seed cora citeseer wiki-vote pubmed
ab_cold seed cora citeseer wiki-vote pubmed soc-slashdot0902
ab_large uniform1m
echo "done at $SECONDS s"
