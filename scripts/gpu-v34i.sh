#!/usr/bin/env bash
# Thirty-fourth session, call 9: where colblock's L2 traffic comes from. Nsight Compute on one
# launch of the probe's baseline and of tma_gather's best configuration: L2 sectors in all, from
# the L1/TEX unit, over the fabric between the L2's two partitions, and the L1's global-load
# sectors and hits (the scores' and items' loads), beside lts__t_bytes.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34i
c="20,16,15,8,tma5r10g4s4096"
ncu_probe_counters 'tma_gather|sliced_gather' "$c" \
  'lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcnode_gpc.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,gpu__time_duration.sum'
echo "done at $SECONDS s"
