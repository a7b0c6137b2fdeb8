#!/usr/bin/env bash
# Fifty-fourth session (full staging), on the build whose bfloat16 sweep is at trim 31:
# gpu-v53d.sh with the probe's default list and Nsight Compute's counts for the float32 trims
# TRIMS (on an H200 first the run of record, last the float32 sweep's per-instruction counts at
# trim 15); then, on any GPU, the per-instruction counts of each NAME:CONFIG of SRC. As call 3
# ran it: the library's trims (float32 15, bfloat16 31) against 47 and 63 (bit 5 fetches a
# chunk's items a chunk ahead) and the per-instruction counts of 47 and 63: does the stall on the
# item fetch's move leave? (docs/perf-notes.md, "Fifty-fourth session: the items a chunk ahead
# (prediction)")
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NAME=${NAME:-v54a}
TRIMS=${TRIMS:-15 47} NAME=$NAME SRC_TRIM=15 bash "$D/gpu-v53d.sh"
source "$D/gpu-env.sh"
(
  out_dir "$NAME-src"
  for s in ${SRC:-src-t47:19,33,8,8,tma5r10s4096t47 src-t63h:19,33,8,16,tma5r10s4096t63h}; do
    ncu_probe_source "${s%%:*}" "${s#*:}"
  done
)
