#!/usr/bin/env bash
# Thirty-second session, call 3: colblock_probe with a leaner stream_gather (no profile in the timed
# instance, the row and weight taken with the load, 16 scores a time for the row statistics) with
# and without a barrier; Nsight Compute's warp-stall reasons and L2
# hit rate on one launch of a streamed configuration and of the baseline.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32c 14,16,15,4,stream7
