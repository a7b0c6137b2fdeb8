#!/usr/bin/env bash
# Thirty-second session, call 7: stream_gather's warps' busy time by place in the block, block
# slot on the SM and SM (the profiling launch's warp trace), R 12 at 6 and 7 blocks an SM.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32g
