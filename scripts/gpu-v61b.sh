#!/usr/bin/env bash
# Sixty-first session: on an H200 the run of record first (NO_RECORD=1 skips it). Then target 5
# on uniform 2M d32 F128 with this build (tuner bench float32 tuned + seed; bfloat16 tuned beside
# the library's two bfloat16 sweeps by id; cold, two rounds), and the A/B of tma_gather's spare
# row (an item of weight 0 weighed into a row never written out, so that a masked edge from a
# +Inf source stays out of its row): the library's three sweeps by id (float32, bfloat16, and the
# tensor-core sweep, whose SASS the change leaves byte-identical: the control) from the build
# before it ($BIN/tuner-base, 8286971) and this one ($BIN/tuner), alternating processes, three
# times. Then the Colblock GPU tests (the new MaskedEdgesFromInfiniteSourcesStayOut among them)
# and, while the call's time lasts (DEADLINE, default 560 s), the whole GPU check
# (scripts/gpu-check.sh: compute-sanitizer over the Colblock tests among its steps), else the
# colblock memcheck and racecheck alone.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v61b
DEADLINE=${DEADLINE:-560}
targets_2m
ab_colblock_lib 3 tuner-base tuner
colblock_tests
if [ $((DEADLINE - SECONDS)) -gt 300 ]; then
  gpu_check_until "$DEADLINE"
else
  colblock_sanitizers "$DEADLINE"
fi
echo "done at $SECONDS s"
