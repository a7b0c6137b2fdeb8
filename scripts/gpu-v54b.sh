#!/usr/bin/env bash
# Fifty-fourth session (full staging): gpu-v54a.sh with the probe's default list of call 4
# (float32 15 against 111, bfloat16 63 against 127: bit 6 reads the barrier's counters for the
# next chunk at a chunk's start), Nsight Compute's counts for float32 15 and 111, and the
# per-instruction counts of 111 and 127: does the stall at the chunk's top leave?
# (docs/perf-notes.md, "Fifty-fourth session: the barrier's counters a chunk ahead (prediction)")
# (Its trims 111-223 were bits the fifty-fifth session removed: run it on a checkout of 302240c.)
NAME=v54b TRIMS="15 111" SRC="src-t111:19,33,8,8,tma5r10s4096t111 src-t127h:19,33,8,16,tma5r10s4096t127h" \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v54a.sh"
