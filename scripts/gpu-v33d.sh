#!/usr/bin/env bash
# Thirty-third session, call 4: tma_gather's ring filled by cp.async (16 bytes a lane, a commit
# group a ring group) beside its bulk copies, stream_gather's best and the baseline, then Nsight
# Compute's stall reasons on R 31, RG 15, K 8 in groups of 4 with cp.async.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33d 31,16,15,8,tma4r15g4a
