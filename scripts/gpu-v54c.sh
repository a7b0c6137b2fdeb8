#!/usr/bin/env bash
# For the next session (full staging), on the build that ships float32 trim 15 and bfloat16 trim
# 63: gpu-v54a.sh with the probe's default list (float32 15, 47 and 111 in both orders; bfloat16
# 31, then 63 and 127 in both orders), Nsight Compute's counts for float32 15 and 47, and the
# per-instruction counts of the library's bfloat16 sweep (63). On an H200 first the run of record
# on this build (the first since the fifty-first session's, at trim 0) and the float32 sweep's
# per-instruction counts at trim 15 (docs/perf-notes.md, "What the measurements say to do next").
NAME=v54c TRIMS="15 47" SRC="src-t63h:19,33,8,16,tma5r10s4096t63h" \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v54a.sh"
