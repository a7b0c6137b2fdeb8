#!/usr/bin/env bash
# Fifty-eighth session, call 5 onwards (full staging): scripts/gpu-v58b.sh with this build's
# default list (mma_gather at trim 1 against 9, the weights in bfloat16, and at R 31 and 28 with a
# shared row tile, R 24 at 4 blocks, beside the library's bfloat16 sweep 127) and Nsight Compute on
# trims 1 and 9 at R 24 and 3 blocks.
NAME="${NAME:-v58c}" exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v58b.sh" \
  "24,33,8,32,tma3r24g16s1024t1hm" "24,33,8,32,tma3r24g16s1024t9hm"
