#!/usr/bin/env bash
# Fifty-third session (full staging): the group loop's trim 7 (a group's copies by one elected
# lane) beside the shipped trim 3, float32 and bfloat16 (colblock_probe's default list: trim 3
# first and last), then Nsight Compute on float32 trims 3 and 7 and bfloat16 trim 7
# (docs/perf-notes.md, "Fifty-third session: a group's copies by one elected lane (prediction)").
# On an H200 only, then the run of record on this tree (CHECK_PART=0 scripts/gpu-v47a.sh,
# ~215 s; END, default 560, bounds it).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$D/gpu-colblock.sh" v53a 19,33,8,8,tma5r10s4096t3 19,33,8,8,tma5r10s4096t7 \
  19,33,8,16,tma5r10s4096t7h 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |=== ncu|done)"
source "$D/gpu-env.sh"
first_gpu
if [[ "$GPU_NAME" != *H200* ]]; then
  echo "not an H200 ($GPU_NAME): no run of record"
  exit 0
fi
CHECK_PART=0 END=$((${END:-560} - SECONDS)) exec bash "$D/gpu-v47a.sh"
