#!/usr/bin/env bash
# Fifty-seventh session (full staging, plus tuner-trial and gpu_tests-trial: the library's
# bfloat16 sweep at trim 255): on an H200 first the run of record on this build; then
# colblock_probe's default list (bit 7, the barrier's counters read two chunks ahead: bfloat16
# 127 against 255 in groups of 8, float32 47 against 175 beside 15; docs/perf-notes.md,
# "Fifty-seventh session: the barrier's counters two chunks ahead (prediction)"), Nsight
# Compute's instruction counts and stall reasons of bfloat16 127 and 255; then, on the trial
# build, the column-blocked sweep's GPU tests (Colblock.*) and `tuner bench` of the library's
# bfloat16 sweep beside the tuned dispatch and the seed on uniform 2M d32 F128, two rounds.
# (Its bit 7 and the probe's 255 and 175 were removed after it ran (calls 4 and 7): run it on a
# checkout of bab76fd.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v57a}" "19,33,8,16,tma5r10g8s1024t127h" \
  "19,33,8,16,tma5r10g8s1024t255h" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---)|csv"
out_dir "${NAME:-v57a}-lib"
T="$BIN/tuner-trial" colblock_lib_bf16 colblock,tuned,seed "$BIN/gpu_tests-trial"
echo "done at $SECONDS s"
