#!/usr/bin/env bash
# Thirty-second session, call 1: colblock_probe with stream_gather (a ring of LA gathers in flight
# a warp all the time, items from the plan a lane each, shared memory for the accumulators only)
# beside the thirty-first session's best sweep (plan, lag 15), and Nsight Compute's warp-stall
# reasons on one launch of a streamed configuration and of the baseline. (Call 1 ran this body
# inline, without the L2 hit rate among the metrics; gpu-colblock.sh has it since call 2.)
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32a 16,16,15,8,stream6
