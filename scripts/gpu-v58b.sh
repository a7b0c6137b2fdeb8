#!/usr/bin/env bash
# scripts/gpu-v58b.sh [NCU_CONFIG...] (fifty-eighth session, full staging): on an H200 the run of
# record first (record_first_on_h200, END 330); then on any GPU colblock_probe's default list and
# Nsight Compute's instructions, DRAM throughput and stalls of each NCU_CONFIG (default: call 4's,
# mma_gather at trim 7, R 24 at 3 blocks and R 24 at 4 with a shared tile), into $OUT/$NAME.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "not an H200: no run of record"
[ $# -gt 0 ] || set -- "24,33,8,32,tma3r24g16s1024t7hm" "24,33,8,32,tma4r16g16s1024t7hm"
bash "$D/gpu-colblock.sh" "${NAME:-v58b}" "$@" 2>&1 |
  grep -E "^(device|tma|seed|baseline U=4 |done|===|---|no kernel|R=)|csv|skipped"
echo "done at $SECONDS s"
