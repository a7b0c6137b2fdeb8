#!/usr/bin/env bash
# Thirty-third session, call 7: tma_gather with cp.async groups of 1 and 2 ring slots, bulk
# copies at RG 10, and the row statistics pre-pass, then Nsight Compute's stall reasons on
# cp.async RG 10, R 20, GS 1 at 5 blocks an SM.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33g 20,16,15,8,tma5r10g1a
