#!/usr/bin/env bash
# Fifty-second session, call 1 (stage colblock_probe): the sweep's group loop with fewer
# instructions an item (variants/colblock.cuh, tma_gather's kTrim: bit 0 whole groups without a
# bound check an item, bit 1 the register row by a switch), on the shipped geometry (R 19,
# 33.6 MB, lag 8, first sleep 4096 ns) beside the untrimmed kernel, the plain kernel and the seed
# in one process; then Nsight Compute's instruction counts and stalls for trims 0 and 3
# (docs/perf-notes.md, "Fifty-second session: the sweep's group loop trimmed (prediction)").
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v52a 19,33,8,8,tma5r10s4096 \
  19,33,8,8,tma5r10s4096t3
