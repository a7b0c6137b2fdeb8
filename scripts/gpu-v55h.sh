#!/usr/bin/env bash
# Fifty-fifth session, call 10 (full staging): on an H200 first the run of record; then
# colblock_probe's default list (the barrier's prefetch also reading a step 2 or 4 later: bfloat16
# 127 in groups of 8 against 255 and 383, float32 15 against 143 and 271; docs/perf-notes.md,
# "Fifty-fifth session: the barrier's counters read for a later step too (prediction)").
# (Its bits 7 and 8 were removed after it ran: run it on a checkout of 0105d8e.)
# (gpu-v55b.sh's steps: the probe's default list, after the run of record on an H200.)
NAME=${NAME:-v55h} exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v55b.sh"
