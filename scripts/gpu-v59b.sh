#!/usr/bin/env bash
# Fifty-ninth session, the last device time (~280 s, a machine's start included): the lighter
# form of scripts/gpu-v59a.sh. The probe's list (mma_gather's trims 1, 17, 25, 33, 49 beside the
# library's bfloat16 sweep 127, twice) and the finite contract with --poison 64 (127, trim 1 and
# trim 33), then the library's Colblock GPU tests; no Nsight Compute.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
bash "$D/gpu-colblock.sh" v59b 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---|no kernel)"
out_dir v59b-poison
probe_poisoned 60 "19,33,8,16,tma5r10g8s1024t127h" "24,33,8,32,tma3r24g16s1024t1hm" \
  "24,33,8,32,tma3r24g16s1024t33hm"
colblock_tests
echo "done at $SECONDS s"
