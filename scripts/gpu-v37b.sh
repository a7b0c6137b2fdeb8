#!/usr/bin/env bash
# Thirty-seventh session, call 2: 16-bit out as `.o16` kernels (a template parameter: the
# float32-out kernels keep their SASS), on the session's tree.
#   check  the whole GPU check (scripts/gpu-v28c.sh: gpu_tests with the 16-bit out tests,
#          memcheck and racecheck over configs/sanitizer.yaml and the sweep, the production
#          example, the million-edge row, memcheck over the library's tests) -> check.tgz
#   o16    memcheck over the `.o16` kernels' bit-exact test (every store path)
#   ab     citeseer's and wiki-vote's rules by id (the two header kernels whose SASS moved, by
#          register names only), this tree's build against eb82d4f's (tuner-head)
#   out    target 5 with bf16 out: uniform 2M (F = 128) and uniform 1M (F = 64), bf16 values,
#          the tuned dispatch writing f32 and bf16 out round-robin, beside the f32 dispatch,
#          with counters
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
bash "$ROOT/scripts/gpu-v28c.sh"
out_dir v37b
step o16_memcheck timeout -k 5 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='GpuCorrectness.SixteenBitOutIsTheFloat32ResultRounded' > "$W/o16_memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/o16_memcheck.log"
B=(--max-seconds 0.3 --max-samples 60)
ids=csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.pf.bm.i32.f32,csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split128.lpt.pf.bm.i32.f32
for bin in tuner tuner-head tuner tuner-head; do
  step "ab-$bin" timeout 60 "$BIN/$bin" bench --graph "$G/citeseer.mtx.gz" --graph "$G/wiki-vote.mtx.gz" --feat 64 \
    --impl "$ids" --rounds 3 "${B[@]}" --json "$W/ab-$bin-$SECONDS.json" | grep -E "csrgat" | awk '{print $1, $5}'
done
u1=(--graph "uniform:n=1000000,deg=16,seed=1" --feat 64)
u2=(--graph "uniform:n=2000000,deg=32,seed=1" --feat 128)
step u2-bf16 timeout 120 "$T" bench "${u2[@]}" --value bf16 --impl tuned --out f32,bf16 --rounds 3 "${B[@]}" --counters \
  --json "$W/u2-bf16.json" | tail -n 3
step u2-f32 timeout 120 "$T" bench "${u2[@]}" --impl tuned "${B[@]}" --counters --json "$W/u2-f32.json" | tail -n 2
step u1-bf16 timeout 90 "$T" bench "${u1[@]}" --value bf16 --impl tuned --out f32,bf16 --rounds 3 "${B[@]}" --counters \
  --json "$W/u1-bf16.json" | tail -n 3
step u1-f32 timeout 90 "$T" bench "${u1[@]}" --impl tuned "${B[@]}" --counters --json "$W/u1-f32.json" | tail -n 2
echo "done at $SECONDS s"
