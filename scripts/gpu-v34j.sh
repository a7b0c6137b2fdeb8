#!/usr/bin/env bash
# Thirty-fourth session, call 10: tma_gather with its items' weights from a pre-pass (weigh_plan:
# the statistics and the scattered score loads out of the sweep, whose L1 is too small to keep a
# batch's scores; call 9's counters: ~3.4 GB of L2 reads from those misses), beside the same
# without, at 16.8 and 33.6 MB partitions, and with cp.async; then Nsight Compute's L2 sectors
# by source on the weighed best (as call 9).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34j
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
c="20,16,15,8,tma5r10g4s4096w"
ncu_probe_counters 'tma_gather|weigh_plan' "$c" \
  'lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,dram__bytes_read.sum,gpu__time_duration.sum'
echo "done at $SECONDS s"
