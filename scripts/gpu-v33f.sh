#!/usr/bin/env bash
# Thirty-third session, call 6: tma_gather prefetching the rows of the items PF beyond its ring
# into L2 (PF 8, 16, 24), then Nsight Compute's stall reasons on cp.async RG 10, R 20, PF 16 at
# 5 blocks an SM.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33f 20,16,15,8,tma5r10g4p16a
