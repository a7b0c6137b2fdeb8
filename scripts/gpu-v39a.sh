#!/usr/bin/env bash
# Thirty-ninth session, call 1 (stage tuner, gpu_tests and l2_policy_probe): the thirty-eighth
# session's call 4, never run (scripts/gpu-v38d.sh: the dispatch, production and C-interface GPU
# tests on the header kept as emitted, and l2_policy_probe's SM-subset part), with the sweep's L1
# policies (`.l1p<N>`, variants/colblock.cuh): their GPU test and memcheck over it, then uniform
# 2M, F 128, f32: seed and the sweep at policies 0-3, round-robin over 3 rounds with counters
# (docs/perf-notes.md, "Thirty-ninth session: the sweep's L1 policies (prediction)").
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v39a
gpu_tests_until 150 'Dispatch.*:Production.*:CApi.*:Colblock.L1PoliciesGiveTheSameOutput'
step memcheck timeout -k 5 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Colblock.L1PoliciesGiveTheSameOutput' > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck.log" | head -6
C=colblock.r19.ps16.lag8
step bench-2m timeout 180 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 \
  --impl "seed,$C.i32.f32,$C.l1p1.i32.f32,$C.l1p2.i32.f32,$C.l1p3.i32.f32" --counters --rounds 3 \
  --max-seconds 0.3 --max-samples 300 --json "$W/bench-2m.json"
step l2_policy_probe timeout -k 5 150 "$BIN/l2_policy_probe" "$W/l2_policy.json" > "$W/l2_policy.log" 2>&1
grep -E "^(uniform|policy|plain|sm:)" "$W/l2_policy.log"
echo "done at $SECONDS s"
