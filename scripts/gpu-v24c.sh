#!/usr/bin/env bash
# Twenty-fourth session, call 6 (diagnostics for the next step; perf-notes "what bounds
# citeseer's new rule"): run 15's citeseer rule (tpr16 fl8 rpb8 split16 lpt: two rows per warp)
# against run 14's (tpr32 fl16 rpb4 mb6 split32 lpt), on citeseer itself:
#  1. timelines, cold, with every task's marks (when rows and chunks end, the merge);
#  2. Nsight Compute's per-instruction samples (every 32 cycles per SM), cold and warm for the
#     new rule, cold for the old: where the launch's warps wait (instruction fetch, L2/DRAM
#     loads, the barrier, the merge).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v24c
CS="$G/citeseer.mtx.gz"
KN=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
KO=csrgat.tpr32.fl16.rpb4.vec4.t1.g4.mb6.smem0.online.split32.lpt.pf.bm.i32.f32
for k in KN KO; do
  step "tl-$k" timeout 60 "$T" timeline --graph "$CS" --variant "${!k}" --cache cold --tasks \
    --json "$W/tl-$k.json" > "$W/tl-$k.txt" 2>&1
done
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|row  |chunk  |merge" "$f" | head -8; done
NCU_EXTRA="--warp-sampling-interval 0" step ncu-new-cold ncu_sass cs-new-cold "$CS" "$KN"
NCU_EXTRA="--warp-sampling-interval 0 --cache-control none" step ncu-new-warm ncu_sass cs-new-warm "$CS" "$KN"
NCU_EXTRA="--warp-sampling-interval 0" step ncu-old-cold ncu_sass cs-old-cold "$CS" "$KO"
for f in "$W"/ncu-*-sass.csv; do echo "## $(basename "$f")"; python3 scripts/sass_stalls.py "$f" 12 | head -34; done
gzip -9 "$W"/*.csv "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
