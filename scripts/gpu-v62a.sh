#!/usr/bin/env bash
# Sixty-second session: on an H200 the run of record first (NO_RECORD=1 skips it). Then the A/B
# of tma_gather's NaN rows summed again (6b77b0c, 04cd464: a vote a chunk whether an item weighed
# 0; only then, at the batch's end, the rows that came out NaN summed again by rows_again without
# the weight-0 items) against the build before ($BIN/tuner-base, 8286971): the library's three
# sweeps by id (float32, bfloat16, and the tensor-core sweep, SASS byte-identical: the control),
# uniform 2M d32 F128, cold, alternating processes, AB_ROUNDS (default 3) times. Then the Colblock
# GPU tests and, while the call's time lasts (DEADLINE, default 580 s), the whole GPU check
# (scripts/gpu-check.sh, with the new GpuCorrectness.MaskedEdgesFromNonFiniteSources among its
# GPU tests), else that test and the colblock memcheck and racecheck alone. Staging:
# scripts/stage-gpu.sh of this build, then 8286971's tuner xz-compressed as
# .gpu/bin/tuner-base.xz (without it the A/B is skipped, said so).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v62a
DEADLINE=${DEADLINE:-580}
ab_colblock_lib "${AB_ROUNDS:-3}" tuner-base tuner
colblock_tests
if [ $((DEADLINE - SECONDS)) -gt 440 ]; then
  gpu_check_until "$DEADLINE"
else
  gpu_tests_until "$DEADLINE" 'GpuCorrectness.MaskedEdgesFromNonFiniteSources'
  colblock_sanitizers "$DEADLINE"
fi
echo "done at $SECONDS s"
