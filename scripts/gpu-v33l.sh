#!/usr/bin/env bash
# Thirty-third session, call 12: colblock_probe after the review's fixes (every checked output
# NaN-filled first), the barrier's warp sum by REDUX, the first sleep after a failed poll at 64,
# 256 and 1024 ns, and PF 8 under the barrier's schedule (no Nsight Compute).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33l
