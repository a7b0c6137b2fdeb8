#!/usr/bin/env bash
# Fifty-sixth session, call 11 (full staging): on an H200 first the run of record on this build;
# then colblock_probe's default list (6 blocks an SM with 8 register rows and R 16, against the
# library's sweeps: bfloat16 127 in groups of 8 and 4, float32 15; docs/perf-notes.md,
# "Fifty-sixth session: six blocks an SM (prediction)") and Nsight Compute's instruction counts,
# stall reasons and occupancy of the bfloat16 sweep at 5 and at 6 blocks.
# (Its 6-block instances and the library's trial were removed after it ran (call 15): run it on a
# checkout of bfd03ab.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v56b}" "19,33,8,16,tma5r10g8s1024t127h" \
  "16,33,8,16,tma6r8g8s1024t127h" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---)"
# Then, on the build whose library runs the bfloat16 sweep at 6 blocks with 8 register rows (a
# trial): the column-blocked sweep's GPU tests and `tuner bench` of its bfloat16 sweep at R 19
# (the default: 5 blocks fit) and R 16 (6 blocks) beside the tuned dispatch and the seed on
# uniform 2M d32 F128, two rounds.
out_dir "${NAME:-v56b}-lib"
colblock_lib_bf16 colblock,colblock.r16.ps16.lag8.i32.bf16,tuned,seed
echo "done at $SECONDS s"
