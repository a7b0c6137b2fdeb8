#!/usr/bin/env bash
# The whole GPU check, run on the GPU machine from the repo root with .gpu/ staged
# (scripts/stage-gpu.sh): the gpu tests, compute-sanitizer memcheck and racecheck on the smoke
# set and on tuner bench's colblock kernel, a GPU lost mid-problem (scripts/check-lost-gpu.sh),
# bench, profile, timeline and check (scripts/check-gpu-commands.sh), the production examples
# (C++ and C), the profiler check, a short tuning run and its continuation on
# "another GPU" (scripts/check-continue.sh). Prints a summary
# table last. Logs go to $OUT (the device tool's output folder) or .gpu/logs.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
LOGS="${OUT:-$ROOT/.gpu/logs}"
mkdir -p "$LOGS"
declare -a names results times
step() {  # step NAME TIMEOUT CMD...
  local name="$1" limit="$2"; shift 2
  local t0=$SECONDS
  echo "=== $name: $*"
  timeout -k 10 "$limit" "$@" > "$LOGS/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$LOGS/$name.log"
  names+=("$name"); times+=($((SECONDS - t0)))
  case $rc in 0) results+=("PASS");; 124|137) results+=("TIMEOUT");; *) results+=("FAIL($rc)");; esac
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee "$LOGS/gpu.txt"
[ "${SKIP_TESTS:-0}" = 1 ] || step gpu_tests 900 "$BIN/gpu_tests"
[ "${SKIP_SANITIZER:-0}" = 1 ] || {
  step memcheck 600 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 7
  step racecheck 600 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/tuner" check configs/sanitizer.yaml --seed 8
  # The column-blocked sweep (not in the config's family; the library's, csrgat/colblock.cu): its
  # shared-memory ring is filled by bulk copies and read after the mbarrier's wait; f32 and bf16
  # instances, and the library's path through a Shape of the device graph.
  step colblock_memcheck 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
    --gtest_filter="$COLBLOCK_MEMCHECK_TESTS"
  step colblock_racecheck 300 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/gpu_tests" \
    --gtest_filter="$COLBLOCK_RACECHECK_TESTS"
}
# A GPU lost in the middle of a problem: the run stops measuring on it, blames no variant,
# and the same config resumes and finishes the run (scripts/check-lost-gpu.sh, ~30-60 s).
[ "${SKIP_LOST_GPU:-0}" = 1 ] || step lost_gpu 300 bash scripts/check-lost-gpu.sh
# bench, profile, timeline and check beside tuner run (scripts/check-gpu-commands.sh, ~1 min).
[ "${SKIP_COMMANDS:-0}" = 1 ] || step commands 300 bash scripts/check-gpu-commands.sh
step production_example 120 "$BIN/production_example"
# The C interface from C, libcsrgat_c.so staged beside it.
step production_c_example 120 env LD_LIBRARY_PATH="$BIN" "$BIN/production_c_example"
[ "${SKIP_PROF:-0}" = 1 ] || step prof_check 300 "$BIN/prof_check" "$LOGS/prof_check.json"
[ "${SKIP_BENCH:-0}" = 1 ] || {
  step smoke_run 900 "$BIN/tuner" run configs/smoke.yaml
  step continue_run 300 bash scripts/check-continue.sh runs/smoke
}
echo
printf '%-20s %-10s %8s\n' step result seconds
for i in "${!names[@]}"; do printf '%-20s %-10s %8s\n' "${names[$i]}" "${results[$i]}" "${times[$i]}"; done
# A skipped GPU test passes but checked nothing (the dispatch test skips when the library was
# built with another header than the recorded store's): name them.
[ -f "$LOGS/gpu_tests.log" ] && grep -E "^\[  SKIPPED \] [A-Za-z]" "$LOGS/gpu_tests.log" | sed 's/^/gpu_tests /'
for r in "${results[@]}"; do [ "$r" = PASS ] || exit 1; done
