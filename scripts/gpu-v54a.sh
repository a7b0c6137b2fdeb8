#!/usr/bin/env bash
# Fifty-fourth session (full staging), on the build whose bfloat16 sweep is at trim 31:
# gpu-v53d.sh with the probe's default list (the library's trims, float32 15 and bfloat16 31,
# against 47 and 63: bit 5 fetches a chunk's items a chunk ahead) and Nsight Compute's counts for
# float32 trims 15 and 47 (on an H200 first the run of record, last the float32 sweep's
# per-instruction counts at trim 15); then, on any GPU, the per-instruction counts of float32
# trim 47 and bfloat16 trim 63: does the stall on the item fetch's move leave?
# (docs/perf-notes.md, "Fifty-fourth session: the items a chunk ahead (prediction)")
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NAME=v54a TRIMS="15 47" SRC_TRIM=15 bash "$D/gpu-v53d.sh"
source "$D/gpu-env.sh"
(
  out_dir v54a-src
  ncu_probe_source src-t47 19,33,8,8,tma5r10s4096t47
  ncu_probe_source src-t63h 19,33,8,16,tma5r10s4096t63h
)
