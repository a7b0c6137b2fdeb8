#!/usr/bin/env bash
# Sixtieth session, the last device time: target 5 (bfloat16 values at least 1.8x the float32 tuned
# dispatch on the DRAM-bound graphs, float32 out) on uniform 2M d32 F128 with the library's
# tensor-core sweep beside its tma_gather sweep, side by side in one process each: tuner bench
# float32 (the tuned dispatch and the seed), then bfloat16 (the tuned dispatch, the library's two
# bfloat16 sweeps by id), cold, two rounds. On an H200 the run of record first (NO_RECORD=1 skips
# it) and then the issue's figures; on an H100 the same ratios there. Not run in the sixtieth
# session (its device time ran out on starts that failed): the next session's first call.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v60c
targets_2m
echo "done at $SECONDS s"
