#!/usr/bin/env bash
# Tenth session, call 4: is `g8` (the seed shape's new rule) slower launch included, as call 3's
# A/B read (9.78 against g4's 9.22 us, tuned measured first), or was that the order? The two
# kernels in both orders, launch included (events), then GPU time (CUPTI), cold L2, and warm;
# cora's own winner (g8.split32) beside its rule's (g4.split32) the same way.
# Logs and JSON are packed into $OUT/v10d.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v10d
w=csrgat.tpr32.fl8.rpb4.vec4.t2
g4=$w.g4.smem0.online.split0.i32.f32 g8=$w.g8.smem0.online.split256.i32.f32
c4=$w.g4.smem0.online.split32.i32.f32 c8=$w.g8.smem0.online.split32.i32.f32
S=(--graph "seed:n=384,deg=18,seed=1" --feat 64)
C=(--graph "$G/cora.mtx.gz" --feat 64)
B=(--max-seconds 0.3 --max-samples 300)
for i in 1 2; do
  step "seed-events-$i" timeout 60 "$T" bench "${S[@]}" --impl "$g4,$g8,tuned,empty" --events "${B[@]}" --json "$W/seed-events-a$i.json"
  step "seed-events-$i-rev" timeout 60 "$T" bench "${S[@]}" --impl "empty,tuned,$g8,$g4" --events "${B[@]}" --json "$W/seed-events-b$i.json"
  step "cora-events-$i" timeout 60 "$T" bench "${C[@]}" --impl "$c4,$c8,tuned" --events "${B[@]}" --json "$W/cora-events-a$i.json"
  step "cora-events-$i-rev" timeout 60 "$T" bench "${C[@]}" --impl "tuned,$c8,$c4" --events "${B[@]}" --json "$W/cora-events-b$i.json"
done
step seed-gpu timeout 60 "$T" bench "${S[@]}" --impl "$g4,$g8,tuned" "${B[@]}" --json "$W/seed-gpu.json"
step cora-gpu timeout 60 "$T" bench "${C[@]}" --impl "$c4,$c8,tuned" "${B[@]}" --json "$W/cora-gpu.json"
step seed-warm timeout 60 "$T" bench "${S[@]}" --impl "$g4,$g8,tuned" --cache warm --graph-replay "${B[@]}" --json "$W/seed-warm.json"
echo "done at $SECONDS s"
