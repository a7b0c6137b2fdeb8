#!/usr/bin/env bash
# Thirty-third session, call 5: tma_gather with power-of-two partitions (a shift, not a division)
# and each chunk's items staged in shared memory, RG 8 and 10 at 20 warps an SM, then Nsight
# Compute's stall reasons on cp.async RG 8, R 20 at 5 blocks an SM.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33e 20,16,15,8,tma5r8g4a
