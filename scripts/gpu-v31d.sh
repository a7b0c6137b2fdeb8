#!/usr/bin/env bash
# Thirty-first session, call 4: colblock_probe: does a larger lag (smaller partitions, the same
# L2 window) take the barrier's cost away (the slowest of 2112 warps sets a lockstep's pace)?
# Then Nsight Compute on one launch each of the barrier-free sweep and a barrier sweep: where
# their warps stall.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31d
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
for c in 16,16,-1,16 16,4,8,16; do
  step "ncu $c" timeout -k 5 150 ncu --clock-control none -k regex:sweep_gather --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --section MemoryWorkloadAnalysis --csv --page details \
    "$BIN/colblock_probe" "$W/once-$c.json" --config "$c" --once > "$W/ncu-$c.csv" 2> "$W/ncu-$c.err"
  tail -3 "$W/ncu-$c.err"; wc -l < "$W/ncu-$c.csv"
done
echo "done at $SECONDS s"
