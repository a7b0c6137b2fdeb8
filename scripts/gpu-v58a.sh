#!/usr/bin/env bash
# Fifty-eighth session (full staging): on an H200 the run of record first (record_first_on_h200,
# END 330), then on any GPU colblock_probe's default list and Nsight Compute on mma_gather at R 24
# (scripts/gpu-v57e.sh's steps: on an H200 mma_gather against 127 where the DRAM is 1.43x an
# H100's; on an H100 mma_gather's instructions, DRAM throughput and stalls).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "not an H200: no run of record"
NAME="${NAME:-v58a}" bash "$D/gpu-v57e.sh"
echo "done at $SECONDS s"
