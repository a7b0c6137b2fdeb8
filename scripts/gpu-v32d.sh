#!/usr/bin/env bash
# Thirty-second session, call 4: does a gather miss need L1 space for its data? The baseline with
# 16, 24 and 32 KB of unused shared memory a block at the same occupancy (96-192 KB an SM, as
# stream_gather's accumulators take), and stream_gather with fewer rows a warp (R 8-12: more L1).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32d 10,16,15,4,stream7
