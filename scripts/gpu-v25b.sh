#!/usr/bin/env bash
# Twenty-fifth session, call 2: the library now embeds the tuner's NVRTC cubins (7e43695).
# First scripts/gpu-v24e.sh (each small graph's rule through the library and through the
# tuner's NVRTC compile, side by side, five rounds: now the same machine code, so equal within
# the noise, where call 8 of the twenty-fourth session had the library 0-1.4% slower), and the
# dispatch and production GPU tests on the embedded kernels; then run 16, a fresh re-tune of
# configs/h200.yaml with tpr16 fl8 rpb16 split8 in the small space (scripts/gpu-multi.sh).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
bash "$D/gpu-v24e.sh"
(
  source "$D/gpu-env.sh"
  out_dir v25b
  step dispatch timeout 120 "$BIN/gpu_tests" --gtest_filter='Dispatch.*:Production.*' > "$W/dispatch.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/dispatch.log" | head -30
  step production_example timeout 60 "$BIN/production_example" > "$W/production_example.log" 2>&1
  tail -3 "$W/production_example.log"
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-420}" bash "$D/gpu-multi.sh"
