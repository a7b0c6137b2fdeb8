#!/usr/bin/env bash
# Eighth session's run of record, one device call (repo root, .gpu/ staged from the committed
# code: kernel v8, run 7's promoted header):
#   final   scripts/gpu-final.sh with SKIP_CHECK=1 (the whole GPU check ran on the same kernel
#           code in call 2): the dispatch and production tests, issue 7's benches, the peers
#   smem3   in the same call, the v8 variants that won the DRAM-bound problems in call 2's A/B
#           and call 4's cut-short tuning run (gathers staged by cp.async), by id beside the
#           tuned dispatch, GPU time and DRAM counters: what a header tuned over the v8 space
#           would dispatch (not yet: run 8 did not finish in one call)
# Packed into $OUT/final.tgz and $OUT/v8c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
SKIP_CHECK=1 bash scripts/gpu-final.sh 2>&1 | grep -E "^===|^---|done at|PASSED|FAILED" | tail -30
out_dir v8c
B=(--max-seconds 0.3 --max-samples 300 --counters)
large=(--graph "uniform:n=1000000,deg=16,seed=1" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1")
t8=csrgat.tpr8.fl8.rpb16; t16=csrgat.tpr16.fl16.rpb8; s=smem3.online
step f32 timeout 100 "$T" bench "${large[@]}" --feat 64 --impl "tuned,$t8.vec4.t2.g4.$s.split256.i32.f32,$t8.vec4.t2.g2.mb8.$s.split1024.lpt.i32.f32" "${B[@]}" --json "$W/smem3-f32.json"
step bf16 timeout 100 "$T" bench "${large[@]}" --feat 64 --value bf16 --impl "tuned,$t8.vec8.t1.e2.g4.mb8.$s.split256.i32.bf16,$t8.vec8.t1.g4.mb8.$s.split1024.lpt.i32.bf16,$t8.vec8.t1.e2.g4.$s.split512.lpt.i32.bf16" "${B[@]}" --json "$W/smem3-bf16.json"
u2=(--graph "uniform:n=2000000,deg=32,seed=1" --feat 128)
step 2m-f32 timeout 60 "$T" bench "${u2[@]}" --impl "tuned,$t16.vec4.t2.g4.$s.split512.i32.f32" "${B[@]}" --json "$W/smem3-2m-f32.json"
step 2m-bf16 timeout 60 "$T" bench "${u2[@]}" --value bf16 --impl "tuned,$t16.vec8.t1.e2.g4.$s.split0.i32.bf16" "${B[@]}" --json "$W/smem3-2m-bf16.json"
echo "done at $SECONDS s"
