#!/usr/bin/env bash
# Thirty-fifth session, call 4: the run of record on run 19's header (the sweep on f32 attached
# to the uniform 2M rule; on bf16 measured slower than the family and not attached):
# scripts/gpu-v34e.sh (prof_check, then SKIP_CHECK=1 WRITE_FLUSH=0 scripts/gpu-final.sh). Then
# Nsight Compute on one launch of the sweep on uniform 2M, f32 and bf16: instructions issued and
# the schedulers' issue activity beside L2 and DRAM bytes (is the sweep bound by its per-item
# instructions? bf16 halved its bytes and gained 11%).
D="$(dirname "${BASH_SOURCE[0]}")"
bash "$D/gpu-v34e.sh"
(
  source "$D/gpu-env.sh"
  out_dir v35d
  M=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
  for v in f32 bf16; do
    step "ncu-$v" timeout 150 ncu --clock-control none --metrics "$M" -k regex:tma_gather --launch-count 1 --csv \
      "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --value "$v" --impl colblock --max-samples 3 --max-seconds 0.1 \
      > "$W/ncu-colblock-$v.csv" 2> "$W/ncu-colblock-$v.err"
    grep -E "issue_active|inst_executed|lts__t_bytes|dram__bytes|gpu__time|warps_active" "$W/ncu-colblock-$v.csv" | cut -c1-220
  done
)
