#!/usr/bin/env bash
# Fifty-eighth session, call 10 onwards (full staging): scripts/gpu-v58c.sh (on an H200 the run of
# record first; colblock_probe's list with mma_gather's trims 1 and 9; Nsight Compute on both),
# then Nsight Compute's instructions and stall samples an instruction (ncu_probe_source) of
# mma_gather at trim 1, R 24 and 3 blocks: where its ~26 instructions an item go.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NAME=v58d bash "$D/gpu-v58c.sh"
source "$D/gpu-env.sh"
out_dir v58d-src
NCU_KERNEL=mma_gather ncu_probe_source src-mma-t1 "24,33,8,32,tma3r24g16s1024t1hm"
echo "done at $SECONDS s"
