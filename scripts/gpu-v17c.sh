#!/usr/bin/env bash
# Seventeenth session, call 3: Nsight Compute's per-instruction warp sampling (SASS, CSV) of
# run 8's ca-astroph kernel and cora's, cold (ncu flushes the caches before the launch), to see
# where the 70% of the warps' stalls that are not gathers go (call 2: long scoreboard is 30%).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v17c
step sass_astroph ncu_sass ca-astroph "$G/ca-astroph.mtx.gz" csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split32.lpt.pf.i32.f32
step sass_cora ncu_sass cora "$G/cora.mtx.gz" csrgat.tpr32.fl16.rpb4.vec4.t1.g8.smem0.online.split32.pf.i32.f32
step sass_hepph ncu_sass cit-hepph "$G/cit-hepph.mtx.gz" csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split32.lpt.pf.i32.f32
echo "done at $SECONDS s"
