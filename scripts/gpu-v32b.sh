#!/usr/bin/env bash
# Thirty-second session, call 2: colblock_probe with stream_gather's ring loads unconditional
# (call 1: ptxas copied each predicated load into the ring register, and the copy waited), beside
# the thirty-first session's best sweep (plan, lag 15); Nsight Compute's warp-stall reasons and L2
# hit rate on one launch of a streamed configuration and of the baseline.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32b 16,16,15,8,stream6
