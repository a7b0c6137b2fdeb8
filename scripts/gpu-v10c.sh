#!/usr/bin/env bash
# Tenth session, call 3: the run of record on tuning run 3's header (scripts/gpu-final.sh: the
# whole GPU check, then issue 7's table and the PyG peers), then run 8's small-graph choices by
# id beside the new tuned dispatch, launch included, in the same call (the A/B of the re-tune).
# Logs and JSON are packed into $OUT/final.tgz and $OUT/v10c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
bash scripts/gpu-final.sh 2>&1 | tail -n 40
out_dir v10c
w=csrgat.tpr32.fl8.rpb4.vec4.t2
old="$w.g4.smem0.online.split0.i32.f32,$w.g4.smem0.online.split256.lpt.i32.f32"
old+=",csrgat.tpr32.fl16.rpb4.vec4.t1.g4.smem0.online.split128.lpt.i32.f32,$w.g4.smem0.online.split128.lpt.i32.f32"
old+=",$w.mb8.smem0.online.split128.lpt.i32.f32,$w.mb8.smem0.online.split256.lpt.i32.f32"
small=(--graph "seed:n=384,deg=18,seed=1")
for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do small+=(--graph "$G/$f.mtx.gz"); done
step ab-events timeout 200 "$T" bench "${small[@]}" --feat 64 --impl "tuned,$old" --events --max-seconds 0.3 --max-samples 300 --json "$W/ab-events.json"
step ab-warm timeout 60 "$T" bench --graph "seed:n=384,deg=18,seed=1" --feat 64 --impl "tuned,$w.g4.smem0.online.split0.i32.f32" --cache warm --graph-replay --max-seconds 0.3 --json "$W/ab-warm.json"
echo "done at $SECONDS s"
