#!/usr/bin/env bash
# Fifty-sixth session, call 1 (full staging): on an H200 first the run of record on this build;
# then colblock_probe's default list (bit 7, an item's row by a jump table, and bit 8, the group's
# items by a loop not unrolled: bfloat16 127 in groups of 8 against 255 and 511, float32 15
# against 143 and 399; docs/perf-notes.md, "Fifty-sixth session: an item's row by a jump table
# (prediction)"), Nsight Compute's instruction counts and stall reasons of bfloat16 127 and 255;
# then, on the build whose library runs the bfloat16 sweep at 255 (a trial), the column-blocked
# sweep's GPU tests (Colblock.*) and `tuner bench` of the library's bfloat16 sweep beside the
# tuned dispatch and the seed on uniform 2M d32 F128, two rounds.
# (Its bits 7 and 8, and the library's trial at 255, were removed after it ran (call 10): run it
# on a checkout of 457194e.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v56a}" "19,33,8,16,tma5r10g8s1024t127h" \
  "19,33,8,16,tma5r10g8s1024t255h" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---)|csv"
out_dir "${NAME:-v56a}-lib"
colblock_lib_bf16 colblock,tuned,seed
echo "done at $SECONDS s"
