#!/usr/bin/env bash
# Twenty-second session, call 5 (perf-notes, "a short row is its own chain of instructions"):
# Nsight Compute's per-instruction samples (one every 32 cycles per SM) and executed-instruction
# counts of citeseer's run-13 rule (tpr32 fl16 g4 mb7 split32 .pf.bm) on 132 rows of 3 edges
# (one warp per SM: each SM's samples are one row's chain), cold and warm (no cache control),
# and on citeseer cold: which instructions a short row executes and where it waits.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v22d
R=csrgat.tpr32.fl16.rpb4.vec4.t1.g4.mb7.smem0.online.split32.pf.bm.i32.f32
NCU_EXTRA="--warp-sampling-interval 0" step ncu-u132-cold ncu_sass u132-cold "uniform:n=132,deg=3,seed=1" "$R"
NCU_EXTRA="--warp-sampling-interval 0 --cache-control none" step ncu-u132-warm ncu_sass u132-warm "uniform:n=132,deg=3,seed=1" "$R"
NCU_EXTRA="--warp-sampling-interval 0" step ncu-citeseer ncu_sass citeseer "$G/citeseer.mtx.gz" "$R"
for f in "$W"/ncu-*-sass.csv; do python3 scripts/sass_stalls.py "$f" 15 | head -40; done
gzip -9 "$W"/*.csv 2>/dev/null
echo "done at $SECONDS s"
