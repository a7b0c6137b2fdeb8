#!/usr/bin/env bash
# Eighth session, kernel v8 (the scalar fallback path on its own light config, so the vector
# path's registers are its own; smem 3: gathers staged through shared memory by cp.async), in
# one device call (repo root, .gpu/ staged by scripts/stage-gpu.sh, plus .gpu/old/tuner: the
# tuner of the previous commit, kernel v6):
#   check   the whole GPU check (scripts/gpu-check.sh): the smoke and sanitizer configs now
#           hold smem 3 variants (f32 and bf16, chunks, scalar and vector paths)
#   ab      the old build and this one on run 7's tuned variant ids, graph by graph, old then
#           new, cold L2 (GPU time; DRAM counters on the large graphs), plus smem 3 twins and
#           the no-longer-spilling uncapped twins (new build only)
# Logs and JSON are packed into $OUT/v8b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v8b
OLD="$ROOT/.gpu/old/tuner"

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" bash scripts/gpu-check.sh 2>&1 | tail -n 12; }

u1=(--graph "uniform:n=1000000,deg=16,seed=1" --feat 64)
u2=(--graph "uniform:n=2000000,deg=32,seed=1" --feat 128)
pl=(--graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --feat 64)
small=(--graph "seed:n=384,deg=18,seed=1" --graph "$G/cora.mtx.gz" --graph "$G/pubmed.mtx.gz" --feat 64)
s=.online
g4s=csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0$s.split0.i32.f32
pub=csrgat.tpr32.fl8.rpb4.vec4.t2.g2.smem0$s.split128.lpt.i32.f32
f1=csrgat.tpr8.fl8.rpb16.vec4.t2.mb9.smem0$s.split256.i32.f32
b1=csrgat.tpr8.fl8.rpb16.vec8.t1.e2.mb9.smem0$s.split256.i32.bf16
f2=csrgat.tpr16.fl16.rpb8.vec4.t2.mb9.smem0$s.split0.i32.f32
b2=csrgat.tpr8.fl8.rpb16.vec8.t2.e2.g2.mb8.smem0$s.split0.i32.bf16
fp=csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0$s.split1024.lpt.i32.f32
bp=csrgat.tpr8.fl8.rpb16.vec8.t1.g2.mb9.smem0$s.split512.lpt.i32.bf16
t1=csrgat.tpr8.fl8.rpb16
n_f1="$t1.vec4.t2.g4.smem3$s.split256.i32.f32,$t1.vec4.t2.e2.g4.smem3$s.split256.i32.f32,$t1.vec4.t2.g2.smem3$s.split256.i32.f32"
n_b1="$t1.vec8.t1.e2.g4.smem3$s.split256.i32.bf16,$t1.vec8.t1.g4.smem3$s.split256.i32.bf16,$t1.vec8.t1.e2.g2.smem3$s.split256.i32.bf16"
n_b1+=",$t1.vec8.t1.e2.g4.mb8.smem3$s.split256.i32.bf16,$t1.vec8.t1.e2.smem0$s.split256.i32.bf16"
t16=csrgat.tpr16.fl16.rpb8
n_f2="$t16.vec4.t2.g2.smem3$s.split0.i32.f32,$t16.vec4.t2.g2.mb8.smem3$s.split0.i32.f32"
n_b2="$t1.vec8.t2.e2.g2.smem3$s.split0.i32.bf16,$t1.vec8.t2.e2.g2.mb8.smem3$s.split0.i32.bf16"
n_b2+=",$t16.vec8.t1.e2.g4.smem3$s.split0.i32.bf16,$t16.vec8.t1.g4.smem3$s.split0.i32.bf16"
n_b2+=",$t16.vec8.t1.e2.g4.mb8.smem3$s.split0.i32.bf16,$t1.vec8.t2.e2.g2.smem0$s.split0.i32.bf16"
n_bp="$t1.vec8.t1.g4.smem3$s.split512.lpt.i32.bf16,$t1.vec8.t1.e2.g4.smem3$s.split512.lpt.i32.bf16"
B=(--max-seconds 0.3 --max-samples 200)
ab() {  # ab NAME "old impls" "new-only impls" bench args...
  local name="$1" both="$2" extra="$3"; shift 3
  step "ab-$name-old" timeout 120 "$OLD" bench "$@" --impl "$both" "${B[@]}" --cache-dir /tmp/nvrtc-old --json "$W/ab-$name-old.json"
  step "ab-$name-new" timeout 150 "$T" bench "$@" --impl "$both${extra:+,$extra}" "${B[@]}" --cache-dir /tmp/nvrtc-new --json "$W/ab-$name-new.json"
}
ab small "tuned,$g4s,$pub" "" "${small[@]}"
ab warm "tuned,$g4s" "" --graph "seed:n=384,deg=18,seed=1" --feat 64 --cache warm --graph-replay
ab u1-f32 "tuned,$f1" "$n_f1" "${u1[@]}" --counters
ab u1-bf16 "tuned,$b1" "$n_b1" "${u1[@]}" --value bf16 --counters
ab u2-f32 "tuned,$f2" "$n_f2" "${u2[@]}" --counters
ab u2-bf16 "tuned,$b2" "$n_b2" "${u2[@]}" --value bf16 --counters
ab pl-f32 "tuned,$fp" "" "${pl[@]}" --counters
ab pl-bf16 "tuned,$bp" "$n_bp" "${pl[@]}" --value bf16 --counters
echo "done at $SECONDS s"
