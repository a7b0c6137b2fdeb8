#!/usr/bin/env bash
# Fifty-fifth session, call 10 (full staging): on an H200 first the run of record; then
# colblock_probe's default list (the barrier's prefetch also reading a step 2 or 4 later: bfloat16
# 127 in groups of 8 against 255 and 383, float32 15 against 143 and 271; docs/perf-notes.md,
# "Fifty-fifth session: the barrier's counters read for a later step too (prediction)").
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v55h}" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done)"
