#!/usr/bin/env bash
# Sixtieth session (full staging): on an H200 the run of record first (record_first_on_h200;
# NO_RECORD=1 skips it); then mma_gather's bit 5 with one walk for all the rows it sums again
# (16 rows a walk, their sums in the idle ring, 8 items' loads in flight): the probe's sweeps side
# by side (the library's bfloat16 sweep 127 twice, trims 1, 33, then 65 and 97: bit 6, the
# chunk's score and items loaded before the barrier's wait), the same poisoned (--poison 64: 127,
# 33 and 97 finite, and 33 and 97 no longer 6.5x their clean time),
# then the library's Colblock GPU tests and tuner bench of its two bfloat16 sweeps (tma_gather's
# 127 at R 19 and the tensor-core sweep at R 24) on uniform 2M d32 F128.
# (Ran as call 9 / 16 of the sixtieth session; trims 65, 97, 161 and 225 were removed after: bits
# 6 and 7 of mma_gather, measured and dropped, docs/perf-notes.md.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v60a
L127="19,33,8,16,tma5r10g8s1024t127h"
M="24,33,8,32,tma3r24g16s1024t"
probe_configs "$L127" "${M}1hm" "${M}33hm" "${M}65hm" "${M}97hm" "$L127" "${M}33hm" "${M}97hm"
probe_poisoned 120 "$L127" "${M}33hm" "${M}97hm"
colblock_lib_bf16 "colblock.r19.ps16.lag8.i32.bf16,colblock.r24.ps16.lag8.mma.i32.bf16"
echo "done at $SECONDS s"
