#!/usr/bin/env bash
# Sixty-fourth session, for the device time left: on an H200 the run of record first (NO_RECORD=1
# skips it), then on any GPU target 2 and 5's figures on uniform 2M d32 F128 as gpu-v64a.sh takes
# them (tuner bench: float32 the tuned dispatch and the seed; bfloat16 the tuned dispatch, whose
# sm_90 rule is the family kernel the H200 tune picked, and the library's two bfloat16 sweeps;
# cold, two rounds a process), then the bfloat16 family kernel's and the tensor-core sweep's
# counters (tuner bench --counters: DRAM and L2 bytes and rates over their own GPU time), which
# say how far each is from the DRAM roof, and so what the H200's 1.43x the bandwidth can give each.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v64b
targets_2m
step counters_bf16 timeout 200 "$T" bench --graph "$G2M" --feat 128 --value bf16 \
  --impl tuned,colblock.r24.ps16.lag8.mma.i32.bf16 --counters --max-seconds 0.5 \
  --json "$W/counters-bf16.json" 2>&1 | tail -n 4
echo "done at $SECONDS s"
