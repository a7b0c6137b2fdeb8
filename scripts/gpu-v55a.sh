#!/usr/bin/env bash
# Fifty-fifth session (full staging): gpu-v54a.sh with the probe's default list (float32 15, 47
# and 79; bfloat16 63 against 127 at pauses of 512-2048 ns, groups of 8, lags 12 and 16: bit 6
# spaces the barrier's polls by a timed pause), Nsight Compute's counts for float32 15 and 79, and
# the per-instruction counts of bfloat16 127 (1024 ns) and of groups of 8. On an H200 first the
# run of record on this build, and last the float32 sweep's per-instruction counts at trim 15
# (docs/perf-notes.md, "Fifty-fifth session: the barrier's polls a timed pause apart
# (prediction)").
NAME=v55a TRIMS="15 s1024t79" \
  SRC="src-t127h:19,33,8,16,tma5r10s1024t127h src-g8h:19,33,8,16,tma5r10g8s4096t63h" \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v54a.sh"
