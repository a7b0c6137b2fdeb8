#!/usr/bin/env bash
# Sixty-fourth session: after graphs::mask_nonfinite_sources (the masked-edge poisoning of two
# GPU tests as one helper, their inputs unchanged), the GPU tests that use it: Colblock.* and
# GpuCorrectness.MaskedEdgesFromNonFiniteSources, within DEADLINE (default 240) s of the tests'
# start. Then
# targets 2 and 5 on uniform 2M d32 F128 at main's kernels (2b5dd80) as gpu-v60c.sh takes them:
# tuner bench float32 (the tuned dispatch, the seed), then bfloat16 (the tuned dispatch, the
# library's two bfloat16 sweeps by id), cold, two rounds a process. On an H200 the run of record
# first (NO_RECORD=1 skips it).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v64a
DEADLINE=$((SECONDS + ${DEADLINE:-240}))  # counted from here, after any run of record
colblock_tests
gpu_tests_until "$DEADLINE" 'GpuCorrectness.MaskedEdgesFromNonFiniteSources'
targets_2m
echo "done at $SECONDS s"
