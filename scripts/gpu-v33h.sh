#!/usr/bin/env bash
# Thirty-third session, call 8: tma_gather loading the next item's staged entry and source row
# before adding an item, beside the same kernels without, then Nsight Compute's stall reasons on
# bulk copies RG 10, R 20 at 5 blocks an SM with the loads ahead.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33h 20,16,15,8,tma5r10g4n
