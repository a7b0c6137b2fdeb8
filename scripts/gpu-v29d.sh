#!/usr/bin/env bash
# Twenty-ninth session, call 4: run 17's sliced rules against run 16's rules and against their
# own unsliced twins, side by side in rounds (tuner bench --rounds 5), cold: GPU time (CUPTI,
# both slices' kernels) with DRAM bytes from the counters, then CUDA events around the call
# (launch included: the second slice's launch counts). Uniform 1M F=64 and uniform 2M F=128, f32.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v29d
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
U1=csrgat.tpr8.fl8.rpb16.vec4.t1.g4.mb8.smem3.online.split0
I1="tuned,${U1}.fs2.i32.f32,${U1}.i32.f32,csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split256.i32.f32,seed"
U2=csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem3.online.split0
I2="tuned,${U2}.fs2.i32.f32,${U2}.i32.f32,csrgat.tpr16.fl16.rpb8.vec4.t2.g4.mb8.smem3.online.split0.i32.f32,seed"
for m in gpu events; do
  X=(--counters); [ $m = events ] && X=(--events)
  step "u1m-$m" timeout 200 "$T" bench --graph "uniform:n=1000000,deg=16,seed=1" --feat 64 --impl "$I1" \
    --rounds 5 --max-seconds 3 "${X[@]}" --json "$W/u1m-$m.json" 2>&1 | tail -n 8
  step "u2m-$m" timeout 250 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --impl "$I2" \
    --rounds 5 --max-seconds 5 "${X[@]}" --json "$W/u2m-$m.json" 2>&1 | tail -n 8
done
echo "done at $SECONDS s"
