#!/usr/bin/env bash
# Sixteenth session's first call (written in a session without a GPU; for the next one):
#   1. the profiler's GPU tests, the new counter options included
#      (ProfilerGpu.UserReplayAndAStayingProfilerReadWhatKernelReplayReads);
#   2. prof_check --counter-cost: each step of a counter collection on a 100 KB copy, kernel and
#      user replay, per collection or kept enabled, with and without 8 GiB more allocated
#      (perf-notes, "Sixteenth session": the predictions), and the ceilings, the new L2 gather
#      ceiling (random 256-byte rows from L2) among them;
#   3. the smoke tuning run with its --continue/--reuse checks, and its report's Tuning time
#      section (build, s; the counter collections by step);
#   4. the rest of the GPU tests (the fifteenth session's review fixes were never run on a GPU),
#      less the million-edge row test, until DEADLINE seconds.
# Logs and JSON are packed into $OUT/v16.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
DEADLINE="${DEADLINE:-560}"
out_dir v16

step profiler_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='ProfilerGpu.*' > "$W/profiler_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|collection [0-9]" "$W/profiler_tests.log"
step prof_check timeout 180 "$BIN/prof_check" "$W/prof_check.json" --counter-cost > "$W/prof_check.log" 2>&1
sed -n '/^cost of a counter collection/,$p' "$W/prof_check.log"

step smoke_run timeout 240 "$T" run configs/smoke.yaml > "$W/smoke_run.log" 2>&1
tail -n 4 "$W/smoke_run.log"
report="$(ls -d runs/smoke/report 2>/dev/null || true)"
[ -n "$report" ] && sed -n '/^## Tuning time/,/^## [^T]/p' "$report/report.md" | grep -E "^\| |Hardware counters" | head -n 30
step continue_run timeout 200 bash scripts/check-continue.sh runs/smoke > "$W/continue_run.log" 2>&1
grep -E "PASS|FAIL|ok:|error" "$W/continue_run.log" | tail -n 12

gpu_tests_until "$DEADLINE" '-ProfilerGpu.*:GpuCorrectness.OneRowOfAMillionEdges'
echo "done at $SECONDS s"
