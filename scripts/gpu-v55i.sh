#!/usr/bin/env bash
# Fifty-fifth session, call 11 (full staging): on an H200 first the run of record; then
# colblock_probe's default list (bit 7, a chunk's barrier wait before its first refill: bfloat16
# 127 in groups of 8 against 255, float32 15 against 143, beside float32 79 at 2048 ns and
# bfloat16 63 in groups of 4; docs/perf-notes.md, "Fifty-fifth session: the chunk's wait before
# its first refill (prediction)").
# (Its bit 7 was removed after it ran: run it on a checkout of 5411734.)
# (gpu-v55b.sh's steps: the probe's default list, after the run of record on an H200.)
NAME=${NAME:-v55i} exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v55b.sh"
