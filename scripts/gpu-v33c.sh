#!/usr/bin/env bash
# Thirty-third session, call 3: tma_gather with one mbarrier, wait and refill a group of ring
# slots (GS 4 or 2), beside stream_gather's best and the baseline, then Nsight Compute's stall
# reasons on R 31, RG 15, K 8 in groups of 4.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33c 31,16,15,8,tma4r15g4
