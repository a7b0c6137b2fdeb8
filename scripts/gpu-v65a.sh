#!/usr/bin/env bash
# Sixty-fifth session. On any GPU but an H200 (unless ELSEWHERE=0): the README's main job,
# `tuner run configs/h100.yaml` (through gpu-multi.sh, bounded by CALL_END), whose uniform 2M list
# now has the tensor-core sweep (`graph_space`): on an H100 its header should attach `.mma` to the
# bfloat16 rule, as configs/h100-mma.yaml's did (268 s for the lab before the sweep was added). On an H200, one call,
# since H200s come seldom (none in the fifty-ninth to sixty-fourth sessions):
#   1. the run of record at main's kernels on the committed header (record_first_on_h200,
#      scripts/gpu-v47a.sh's first part; 215 s on the fifty-first session's H200);
#   2. targets 2 and 5's figures on uniform 2M d32 F128 (gpu-env.sh's targets_2m, ~35 s): the
#      bfloat16 family kernel the committed header names against the tensor-core sweep on the
#      issue's GPU (the sixty-fourth session projected 5-15% for the sweep);
#   3. run 26 (scripts/gpu-v64e.sh: a fresh tune of configs/h200.yaml with the tensor-core sweep in
#      uniform 2M's colblock list, 230-260 s for run 25) with what is left of CALL_END (default
#      585 s; less where the session's device time is short of a whole call); a run stopped
#      at its limit keeps its trials, and a later H200 call finishes it (gpu-multi.sh's FROM).
# Adopt run 26 here after the call (scripts/adopt-run.sh); the run of record on its header is a
# later call.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
CALL_END="${CALL_END:-585}"
if [[ "$GPU_NAME" != *H200* ]]; then
  [ "${ELSEWHERE:-1}" = 1 ] || { echo "not an H200, and ELSEWHERE=0: nothing to run"; exit 0; }
  left=$((CALL_END - SECONDS))
  echo "=== the README's main job on $GPU_NAME (at most $left s)"
  CFG=configs/h100.yaml LIMIT="$left" bash "$D/gpu-multi.sh"
  tar -xzOf "${OUT:-$ROOT/.gpu/out}/multi.tgz" multi/run/include/csrgat/tuned/sm_90.h 2>/dev/null |
    grep "with a Shape from the graph's device arrays"
  exit 0
fi
END=$((CALL_END - 5 < 300 ? CALL_END - 5 : 300)) record_first_on_h200
if [ $((CALL_END - SECONDS)) -gt 45 ]; then
  echo "=== targets_2m at $SECONDS s"
  ( out_dir v65a; targets_2m )
fi
left=$((CALL_END - SECONDS))
echo "=== run 26 at $SECONDS s (at most $left s)"
[ "$left" -gt 60 ] && LIMIT="$left" bash "$D/gpu-v64e.sh"
echo "gpu-v65a done at $SECONDS s"
