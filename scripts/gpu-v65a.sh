#!/usr/bin/env bash
# Sixty-fifth session, for an H200 only (elsewhere it exits at once: an H100 has nothing left to
# measure for issue 7 that the sixty-fourth session's calls did not). One call, since H200s come
# seldom (none in the fifty-ninth to sixty-fourth sessions):
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
[[ "$GPU_NAME" == *H200* ]] || { echo "not an H200 ($GPU_NAME): nothing to run"; exit 0; }
END=300 record_first_on_h200
echo "=== targets_2m at $SECONDS s"
( out_dir v65a; targets_2m )
left=$((${CALL_END:-585} - SECONDS))
echo "=== run 26 at $SECONDS s (at most $left s)"
[ "$left" -gt 60 ] && LIMIT="$left" bash "$D/gpu-v64e.sh"
echo "gpu-v65a done at $SECONDS s"
