#!/usr/bin/env bash
# Sixty-third session: the A/B of WarpBatch's r0 in int (the float32 sweep's 4-byte spill,
# refilled at every batch's start: docs/perf-notes.md, "Sixty-third session, call 4") against the
# build before ($BIN/tuner-base: 1cd929f in calls 5-7; gpu-v63b.sh runs these steps for
# exp/batch-index against main): the library's three sweeps by id (float32, bfloat16,
# the tensor-core sweep; all three kernels' SASS changed, no control), uniform 2M d32 F128, cold,
# alternating processes, AB_ROUNDS (default 2) times. Then the Colblock GPU tests, the masked-edge
# test, and the colblock memcheck and racecheck while DEADLINE (default 300 s) lasts. On an H200
# the run of record first (NO_RECORD=1 skips it). Staging: scripts/stage-gpu.sh of this build,
# then 1cd929f's tuner (.gpu/bin/tuner.xz as staged for it) copied as .gpu/bin/tuner-base.xz.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v63a
DEADLINE=${DEADLINE:-300}
ab_colblock_lib "${AB_ROUNDS:-2}" tuner-base tuner
colblock_tests
gpu_tests_until "$DEADLINE" 'GpuCorrectness.MaskedEdgesFromNonFiniteSources'
colblock_sanitizers "$DEADLINE"
echo "done at $SECONDS s"
