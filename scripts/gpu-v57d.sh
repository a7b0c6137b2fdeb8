#!/usr/bin/env bash
# Fifty-seventh session, call 11 onwards (full staging): on an H200 first the run of record;
# then colblock_probe's default list (the library's sweeps, and mma_gather, the bfloat16 sweep's
# adds on the tensor cores, at R 16 with 4 and 5 blocks an SM, R 24 with 3, R 24 with 4 and a row
# tile in shared memory;
# docs/perf-notes.md, "Fifty-seventh session: the bfloat16 sweep on the tensor cores
# (prediction)"), and Nsight Compute's instruction counts and stall reasons of bfloat16 127 and
# of mma_gather at R 24 (a row tile in shared memory), 4 blocks.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v57d}" "19,33,8,16,tma5r10g8s1024t127h" \
  "24,33,8,32,tma4r16g16s1024hm" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---|no kernel|R=)|csv|skipped"
echo "done at $SECONDS s"
