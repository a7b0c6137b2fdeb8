#!/usr/bin/env bash
# Twenty-eighth session, call 3: the whole GPU check on the session's final tree (the library's
# launch now goes through prepare/enqueue and csrgat::Call): gpu-check.sh without the smoke run
# and prof_check, then scripts/gpu-check-tail.sh: the million-edge row test by itself and
# memcheck over the library's own GPU tests, which the tuner's sanitizer config does not reach.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O/check"
# Packed on any exit, a deadline's TERM included (the device returns at most 8 files).
trap 'pack "$O" check' EXIT
trap 'exit 143' TERM INT
lscpu 2>/dev/null | grep -E "^Model name" | tr -s " "
# SKIP_BENCH=0 keeps the smoke tuning run and its --continue/--reuse checks (gpu-v30d.sh).
GTEST_FILTER=-GpuCorrectness.OneRowOfAMillionEdges SKIP_BENCH="${SKIP_BENCH:-1}" SKIP_PROF=1 OUT="$O/check" \
  bash "$ROOT/scripts/gpu-check.sh" 2>&1 | tail -n 12
bash "$ROOT/scripts/gpu-check-tail.sh"
echo "done at $SECONDS s"
