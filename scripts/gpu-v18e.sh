#!/usr/bin/env bash
# Eighteenth session, call 8: Nsight Compute's per-instruction warp sampling of run 10's
# citeseer and cora kernels (rules 0 and 1) and citeseer's scheduler, occupancy and memory
# sections, cold, for the next step on citeseer (perf-notes, "What the measurements say to do
# next": it needs -40%).
set -uo pipefail
NCU_TIMEOUT=100
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v18e
V=csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.pf.i32.f32  # citeseer's rule
step sass_citeseer ncu_sass citeseer "$G/citeseer.mtx.gz" "$V"
# The same citeseer launch's scheduler, occupancy, launch and memory sections (details page).
step details_citeseer timeout -k 5 100 ncu --clock-control none --section SchedulerStats --section Occupancy \
  --section LaunchStats --section MemoryWorkloadAnalysis --section SpeedOfLight \
  --nvtx --nvtx-include "csrgat\/citeseer\/$V\/profile/" \
  --launch-skip 1 --launch-count 1 --csv --page details "$T" profile --graph "$G/citeseer.mtx.gz" --name citeseer \
  --variant "$V" --iters 3 > "$W/ncu-citeseer-details.csv" 2>&1
step sass_cora ncu_sass cora "$G/cora.mtx.gz" csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split32.pf.i32.f32
gzip -9 "$W"/*.csv
echo "done at $SECONDS s"
