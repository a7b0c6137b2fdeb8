#!/usr/bin/env bash
# Sixty-second session's next step (docs/perf-notes.md, "Sixty-second session, call 24"): where
# the NaN rows' +0.64% on the float32 sweep goes. On an H200 the run of record first (NO_RECORD=1
# skips it). Then the library's float32 sweep (r19, 5 blocks, 10 register rows, 4096 ns, trim 15:
# colblock.r19.ps16.lag8.i32.f32's kernel) in colblock_probe from 8286971's build
# ($BIN/colblock_probe-base) and this one, uniform 2M d32 F128: timed, alternating processes,
# twice each; then Nsight Compute's instructions executed and stall samples an instruction
# (ncu_probe_source) of one launch of each, summed by scripts/sass_stalls.py. Then, while the
# call's time lasts (DEADLINE, default 580 s), the whole GPU check (scripts/gpu-check.sh), else
# the narrowed GpuCorrectness.MaskedEdgesFromNonFiniteSources alone. Staging: scripts/stage-gpu.sh
# of this build, then 8286971's colblock_probe xz-compressed as .gpu/bin/colblock_probe-base.xz
# (without it the base's steps are skipped, said so; the sixty-second session built it into
# build-base/ from a worktree of 8286971: cmake as build-lead, target colblock_probe, stripped).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v62b
DEADLINE=${DEADLINE:-580}
F32="19,33,8,8,tma5r10s4096t15"
if [ -x "$BIN/colblock_probe-base" ]; then
  for i in 1 2; do
    PROBE="$BIN/colblock_probe-base" PROBE_TAG="-base-$i" probe_configs "$F32"
    PROBE_TAG="-new-$i" probe_configs "$F32"
  done
  PROBE="$BIN/colblock_probe-base" ncu_probe_source src-f32-base "$F32"
  ncu_probe_source src-f32-new "$F32"
  for b in base new; do
    echo "== $b"; python3 scripts/sass_stalls.py "$W/src-f32-$b.csv.gz" 12 --by-count 6 | head -60
  done
else
  echo "no $BIN/colblock_probe-base staged: no side-by-side"
fi
if [ $((DEADLINE - SECONDS)) -gt 440 ]; then
  gpu_check_until "$DEADLINE"
else
  gpu_tests_until "$DEADLINE" 'GpuCorrectness.MaskedEdgesFromNonFiniteSources'
fi
echo "done at $SECONDS s"
