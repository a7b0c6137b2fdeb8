#!/usr/bin/env bash
# Nineteenth session, call 5: on run 11's header (block merges), the run of record
# (scripts/gpu-v15c.sh: prof_check, then gpu-final.sh's benchmarks and peers) and then the whole
# GPU check (gpu-check.sh without the smoke run and prof_check; the million-edge row test by
# itself after it, as in the eighteenth session's call 5).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
bash "$ROOT/scripts/gpu-v15c.sh" 2>&1 | tail -n 40
echo "record done at $SECONDS s"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O/check"
GTEST_FILTER=-GpuCorrectness.OneRowOfAMillionEdges SKIP_BENCH=1 SKIP_PROF=1 OUT="$O/check" \
  bash "$ROOT/scripts/gpu-check.sh" 2>&1 | tail -n 12
"$BIN/gpu_tests" --gtest_filter=GpuCorrectness.OneRowOfAMillionEdges > "$O/check/million.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$O/check/million.log"
tar -C "$O" -czf "$O/check.tgz" check && rm -rf "$O/check"
echo "done at $SECONDS s"
