#!/usr/bin/env bash
# Thirty-seventh session, call 1: 16-bit out (csrgat::Output, KernelArgs::out_storage).
#   tests  every GPU test (the stores of every kernel changed: the 16-bit out tests among them)
#   ab     the header's kernels by id, this tree's build (tuner) against eb82d4f's (tuner-head,
#          staged beside it), float32 out, cold GPU time: processes tuner, tuner-head, tuner
#   out    target 5 with bf16 out: uniform 2M (F = 128) and uniform 1M (F = 64), bf16 values,
#          the tuned dispatch writing f32 and bf16 out round-robin, beside the f32 dispatch, with
#          counters (this tree's tuner; the last "tuner" pass of ab)
# Packed into $OUT/v37a.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v37a
step gpu_tests timeout -k 5 200 "$BIN/gpu_tests" > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(FAILED|PASSED) |Failure|tests ran" "$W/gpu_tests.log" | head -30

B=(--max-seconds 0.3 --max-samples 40)
small=(--graph "seed:n=384,deg=18,seed=1" --graph "$G/pubmed.mtx.gz" --graph "$G/soc-slashdot0902.mtx.gz")
small_ids=csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split128.pf.i32.f32,csrgat.tpr8.fl8.rpb16.vec4.t2.g2.smem0.online.split16.lpt.pf.bm.i32.f32,csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split48.lpt.pf.bm.i32.f32
u1=(--graph "uniform:n=1000000,deg=16,seed=1" --feat 64)
u2=(--graph "uniform:n=2000000,deg=32,seed=1" --feat 128)
u1_f32=csrgat.tpr8.fl8.rpb16.vec4.t1.g4.mb8.smem3.online.split0.fs2.i32.f32
u1_bf16=csrgat.tpr8.fl8.rpb16.vec8.t1.e2.g4.mb8.smem3.online.split0.i32.bf16
u2_f32=csrgat.tpr16.fl16.rpb8.vec4.t1.g4.mb8.smem3.online.split0.fs2.i32.f32
u2_bf16=csrgat.tpr16.fl16.rpb8.vec8.t1.e2.g4.mb8.smem3.online.split512.i32.bf16
i=0
for bin in tuner tuner-head tuner; do
  i=$((i + 1))
  last=(); outs=(); C=()
  # The last pass: this tree's tuned dispatch too, with f32 and bf16 out, and counters.
  if [ "$i" = 3 ]; then last=(",tuned"); outs=(--out f32,bf16); C=(--counters); fi
  step "small-$bin-$i" timeout 90 "$BIN/$bin" bench "${small[@]}" --feat 64 --impl "$small_ids" --rounds 3 "${B[@]}" \
    --json "$W/ab-small-$bin-$i.json" | tail -n 10
  step "u1-f32-$bin-$i" timeout 90 "$BIN/$bin" bench "${u1[@]}" --impl "$u1_f32${last[*]}" --rounds 3 "${B[@]}" "${C[@]}" \
    --json "$W/ab-u1f32-$bin-$i.json" | tail -n 3
  step "u1-bf16-$bin-$i" timeout 90 "$BIN/$bin" bench "${u1[@]}" --value bf16 --impl "$u1_bf16${last[*]}" "${outs[@]}" --rounds 3 "${B[@]}" "${C[@]}" \
    --json "$W/ab-u1bf16-$bin-$i.json" | tail -n 5
  step "u2-f32-$bin-$i" timeout 120 "$BIN/$bin" bench "${u2[@]}" --impl "$u2_f32${last[*]}" --rounds 3 "${B[@]}" "${C[@]}" \
    --json "$W/ab-u2f32-$bin-$i.json" | tail -n 3
  step "u2-bf16-$bin-$i" timeout 120 "$BIN/$bin" bench "${u2[@]}" --value bf16 --impl "$u2_bf16${last[*]}" "${outs[@]}" --rounds 3 "${B[@]}" "${C[@]}" \
    --json "$W/ab-u2bf16-$bin-$i.json" | tail -n 5
done
echo "done at $SECONDS s"
