#!/usr/bin/env bash
# scripts/gpu-colblock.sh NAME [NCU_CONFIG...]: colblock_probe's whole run into $OUT/NAME, then
# for each NCU_CONFIG (colblock_probe --config syntax) Nsight Compute's warp-stall reasons, L2 hit
# rate, DRAM throughput and occupancy limits on one launch of that configuration and of the
# baseline (sourced by the thirty-second session's per-call scripts, gpu-v32b.sh onwards).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "$1"
shift
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
for c in "$@"; do
  step "ncu $c" timeout -k 5 150 ncu --clock-control none -k regex:'stream_gather|tma_gather|sliced_gather|mma_gather' --launch-count 2 \
    --metrics 'lts__t_sector_hit_rate.pct,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem' \
    --csv --page raw "$BIN/colblock_probe" "$W/once-$c.json" --config "$c" --once > "$W/ncu-$c.csv" 2> "$W/ncu-$c.err"
  tail -3 "$W/ncu-$c.err"; wc -l < "$W/ncu-$c.csv"
done
echo "done at $SECONDS s"
