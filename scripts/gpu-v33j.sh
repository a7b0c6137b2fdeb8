#!/usr/bin/env bash
# Thirty-third session, call 10: tma_gather reading the next batch's row bounds, scores and first
# items before the batch ends (kNext), beside the same kernels without, then Nsight Compute's
# stall reasons on bulk RG 10, R 20 at 5 blocks an SM with it.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33j 20,16,15,8,tma5r10g4b
