#!/usr/bin/env bash
# Thirteenth session, call 1: the whole GPU check on the new KernelArgs layout (the row path's
# parameters in two constant-bank lines instead of four; the code otherwise the same:
# scripts/sass-diff.sh --mask-params), then the prediction of perf-notes' thirteenth-session
# section:
#   ladder  profiler/lat_ladder: what a parameter line, a dependent L2 load and an overlapped
#           launch cost a kernel of the seed shape's grid (graph replay)
#   head    the header's rules built from HEAD (.gpu/bin/tuner-head: the old layout) and from
#           this tree, same ids, plain launches, cold GPU time, alternating processes
#   warm    CUDA Graph replay, plain and overlapped (':pdl'), both builds, round-robin,
#           alternating processes
# Logs and JSON are packed into $OUT/v13.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13

[ "${SKIP_CHECK:-0}" = 1 ] || { OUT="$W/check" SKIP_PROF=1 bash scripts/gpu-check.sh 2>&1 | tail -n 14; }

step ladder timeout 60 "$BIN/lat_ladder" "$W/ladder.json"

source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl,empty,empty:pdl" seed cora pubmed
ab_cold seed cora citeseer wiki-vote pubmed soc-slashdot0902
ab_large uniform1m
echo "done at $SECONDS s"
