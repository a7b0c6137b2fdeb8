#!/usr/bin/env bash
# For the next session (full staging), on the build that ships float32 trim 15 and bfloat16 trim
# 63: gpu-v54a.sh with the probe's default list (float32 15, 47, 111, 143 and 207; bfloat16 31,
# then 63, 127, 159 and 223; each list in both orders: bit 7 prefetches a chunk's items into L1
# in place of bit 5's register fetch), Nsight Compute's counts for float32 15 and 143, and the
# per-instruction counts of bfloat16 63 (the library's) and 223 (bits 6 and 7). On an H200 first
# the run of record on this build (the first since the fifty-first session's, at trim 0) and last
# the float32 sweep's per-instruction counts at trim 15 (docs/perf-notes.md, "Fifty-fourth
# session: the items through L1 (prediction)").
# (Its trims 111-223 were bits the fifty-fifth session removed: run it on a checkout of 302240c.)
NAME=v54c TRIMS="15 143" \
  SRC="src-t63h:19,33,8,16,tma5r10s4096t63h src-t223h:19,33,8,16,tma5r10s4096t223h" \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v54a.sh"
