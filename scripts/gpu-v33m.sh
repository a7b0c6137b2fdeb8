#!/usr/bin/env bash
# Thirty-third session, call 13: tma_gather with the barrier's first sleep after a failed poll at
# 1024, 2048, 4096 and 8192 ns, lag 24, cp.async and RG 8 (no Nsight Compute).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v33m
