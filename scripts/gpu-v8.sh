#!/usr/bin/env bash
# Eighth session, one device call on one GPU (repo root, .gpu/ staged by scripts/stage-gpu.sh
# from a build against the promoted header):
#   check   the whole GPU check (scripts/gpu-check.sh): the dispatch test now reads the recorded
#           store compressed (.sqlite.gz), and the smoke tuning run prints the longest-first
#           work estimate
#   spill   where bf16's DRAM bytes go (target 5): uniform 2M F=128 and uniform 1M F=64, DRAM
#           read and write bytes and GPU time of the bf16 winners against twins that do not
#           spill (no register cap) or spill less (fewer gathers in flight)
#   cold    the seed shape's cold call taken apart: the tuned dispatch (aggregate()) against the
#           same kernel launched by id, the seed kernel and the empty kernel, with events
#           (launch included) and CUPTI (GPU time), both with L2 flushed
# Logs and JSON are packed into $OUT/v8.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v8

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" bash scripts/gpu-check.sh 2>&1 | tail -n 12; }

B=(--max-seconds 0.3 --max-samples 200)
u2="uniform:n=2000000,deg=32,seed=1"
b2=csrgat.tpr8.fl8.rpb16.vec8.t2
twins2="$b2.e2.g2.mb8.smem0.online.split0.i32.bf16,$b2.e2.g2.smem0.online.split0.i32.bf16"
twins2+=",$b2.e2.smem0.online.split0.i32.bf16,$b2.e2.mb8.smem0.online.split0.i32.bf16"
twins2+=",csrgat.tpr16.fl16.rpb8.vec8.t1.e2.smem0.online.split0.i32.bf16"
twins2+=",csrgat.tpr16.fl16.rpb8.vec8.t1.mb10.smem0.online.split0.i32.bf16"
step spill-2m timeout 170 "$T" bench --graph "$u2" --feat 128 --value bf16 --impl "$twins2" \
  --counters "${B[@]}" --json "$W/spill-2m.json"
step f32-2m timeout 60 "$T" bench --graph "$u2" --feat 128 \
  --impl csrgat.tpr16.fl16.rpb8.vec4.t2.mb9.smem0.online.split0.i32.f32 --counters "${B[@]}" --json "$W/f32-2m.json"
u1="uniform:n=1000000,deg=16,seed=1"
b1=csrgat.tpr8.fl8.rpb16.vec8.t1
twins1="$b1.e2.mb9.smem0.online.split256.i32.bf16,$b1.e2.smem0.online.split256.i32.bf16"
twins1+=",$b1.e2.g2.smem0.online.split256.i32.bf16,$b1.e2.g2.mb8.smem0.online.split256.i32.bf16"
twins1+=",$b1.mb9.smem0.online.split256.i32.bf16,$b1.smem0.online.split256.i32.bf16"

step spill-1m timeout 120 "$T" bench --graph "$u1" --feat 64 --value bf16 --impl "$twins1" \
  --counters "${B[@]}" --json "$W/spill-1m.json"

seed=(--graph "seed:n=384,deg=18,seed=1" --feat 64)
win=csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32
step cold-events timeout 60 "$T" bench "${seed[@]}" --impl "tuned,$win,seed,empty" --events \
  --max-seconds 0.3 --max-samples 300 --json "$W/cold-events.json"
step cold-gpu timeout 60 "$T" bench "${seed[@]}" --impl "tuned,$win,seed,empty" \
  --max-seconds 0.3 --max-samples 300 --json "$W/cold-gpu.json"
echo "done at $SECONDS s"
