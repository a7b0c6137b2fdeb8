#!/usr/bin/env bash
# Thirty-third session, call 9: tma_gather's best configuration (bulk copies, RG 10 of R 20, 20
# warps an SM) at lags 8, 15 and 24, with 8 MB partitions at lag 31, and with 21 rows a warp
# (no Nsight Compute).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33i
