#!/usr/bin/env bash
# Fifty-ninth session (full staging): scripts/gpu-v58e.sh's steps with this build's list (adds
# mma_gather's trims 33 and 49: 1 and 17 with bit 5, the finite contract kept, and the library's
# bfloat16 sweep once more at the end), then the contract itself: with --poison 64 (64 source
# rows holding a +Inf) the library's bfloat16 sweep and mma_gather at 33 must match the reference
# (diff finite), trim 1 must not (its 0 x Inf reaches rows that never gathered the row); then the
# library's Colblock GPU tests (with InfiniteValuesReachOnlyTheRowsThatGatherThem, new).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NAME=v59a bash "$D/gpu-v58e.sh"
source "$D/gpu-env.sh"
out_dir v59a-poison
probe_poisoned 120 "19,33,8,16,tma5r10g8s1024t127h" "24,33,8,32,tma3r24g16s1024t1hm" \
  "24,33,8,32,tma3r24g16s1024t33hm" "24,33,8,32,tma3r24g16s1024t49hm"
colblock_tests
echo "done at $SECONDS s"
