#!/usr/bin/env bash
# Thirty-third session, call 2: tma_gather (the gathers' ring in shared memory, filled by bulk
# copies; RG of a warp's R rows accumulating in registers) beside stream_gather's best and the
# baseline, then Nsight Compute's stall reasons on R 31, RG 15 at 4 blocks an SM.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33b 31,16,15,8,tma4r15
