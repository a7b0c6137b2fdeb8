#!/usr/bin/env bash
# Thirty-fourth session, call 11: tma_gather at R 19 and 18, whose 5 blocks of shared memory fit
# the 196 KB carveout (R 20's 199 KB take the 228 KB one, leaving the L1 28 KB, not 60, for the
# batches' scattered score loads: call 9's 30% L1 hits, ~3.4 GB of L2 reads), beside R 20; bulk
# and cp.async, plain and weighed; then Nsight Compute's L2 sectors by source and L1 hits on R 19.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v34k
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
c="19,16,15,8,tma5r10g4s4096"
ncu_probe_counters 'tma_gather|weigh_plan' "$c" \
  'lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,dram__bytes_read.sum,gpu__time_duration.sum'
echo "done at $SECONDS s"
