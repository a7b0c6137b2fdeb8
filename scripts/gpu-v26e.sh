#!/usr/bin/env bash
# Twenty-sixth session, call 5: the dry merge pass before the block's barrier (this tree,
# `tuner`) against 86870d5 (`tuner-head`): the tuned dispatch side by side, five rounds
# (ab_tuned); the timeline of citeseer's rule from both builds, cold; then GpuCorrectness and
# Production (but the million-edge row), memcheck and racecheck on sanitizer.yaml's blocks of
# 16 groups and its one-head .bm problem.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v26e
ab_tuned 5 tuner tuner-head | tee "$W/ab-table.txt"
ab_timeline "$G/citeseer.mtx.gz" csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.pf.bm.i32.f32 24 tuner tuner-head
gzip -9 "$W"/*.json 2>/dev/null
step gpu_tests timeout 150 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*:Production.*:Dispatch.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/gpu_tests.log" | tail -12
for tool in memcheck racecheck; do
  step "$tool" timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 7 > "$W/$tool.log" 2>&1
  grep -E "variants correct|failures|SUMMARY" "$W/$tool.log" | tail -8
done
echo "done at $SECONDS s"
