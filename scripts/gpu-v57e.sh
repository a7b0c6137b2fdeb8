#!/usr/bin/env bash
# Fifty-seventh session, call 14 onwards (full staging, the build of call 13): colblock_probe's
# default list on whichever GPU comes (on an H200 the first look at mma_gather where the DRAM is
# 1.43x an H100's; no run of record: too little device time is left for it), then Nsight
# Compute's DRAM throughput, stall reasons and instruction counts of mma_gather at R 24 with 4
# blocks (a shared row tile) and with 3 (all in registers), which call 13's filter left out.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
bash "$D/gpu-colblock.sh" "${NAME:-v57e}" "24,33,8,32,tma4r16g16s1024hm" \
  "24,33,8,32,tma3r24g16s1024hm" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---|no kernel|R=)|csv|skipped"
echo "done at $SECONDS s"
