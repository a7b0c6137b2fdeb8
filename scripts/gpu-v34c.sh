#!/usr/bin/env bash
# Thirty-fourth session, call 3: the probe's tma_gather around its best configuration (partition
# size, lag, rows a warp, first sleep; the list at this script's commit), no Nsight Compute.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v34c
