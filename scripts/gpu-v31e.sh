#!/usr/bin/env bash
# Thirty-first session, call 5: colblock_probe with a step's counter spread over 128 lines in 16
# ring slots (call 4: ~4.2 us a step whatever the lag, as if the additions to one line
# serialised); then Nsight Compute's warp-stall reasons on one launch of a barrier sweep.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31e
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
for c in 16,8,3,16; do
  step "ncu $c" timeout -k 5 150 ncu --clock-control none -k regex:sweep_gather --launch-count 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed' \
    --csv --page raw "$BIN/colblock_probe" "$W/once-$c.json" --config "$c" --once > "$W/ncu-$c.csv" 2> "$W/ncu-$c.err"
  tail -3 "$W/ncu-$c.err"; wc -l < "$W/ncu-$c.csv"
done
echo "done at $SECONDS s"
