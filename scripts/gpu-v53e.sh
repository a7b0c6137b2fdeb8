#!/usr/bin/env bash
# For the next session (full staging), on the build that ships trim 15: gpu-v53d.sh with the
# probe's list of trims 15 and 31 (31: a group's refill sources read before its wait) and trim 15
# on rings twice as deep (float32 K 16 in groups of 4 and 8, bfloat16 K 32 in groups of 8), Nsight
# Compute's counts for float32 trims 15 and 31; on an H200 first the run of record on this tree
# and last the float32 sweep's per-instruction counts at trim 15 (docs/perf-notes.md,
# "Fifty-third session: the sources before the wait (prediction)").
NAME=v53e TRIMS="15 31" SRC_TRIM=15 exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v53d.sh"
