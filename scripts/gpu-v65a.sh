#!/usr/bin/env bash
# Sixty-fifth session, for an H200 only (elsewhere it exits at once: an H100 has nothing left to
# measure for issue 7 that the sixty-fourth session's calls did not): first targets 2 and 5's
# figures on uniform 2M d32 F128 (gpu-env.sh's targets_2m, ~35 s: the bfloat16 family kernel the
# committed header names against the tensor-core sweep on the issue's GPU, the sixty-fourth
# session's projection of 5-15% for the sweep), then run 26 (scripts/gpu-v64e.sh: a fresh tune of
# configs/h200.yaml with the tensor-core sweep in uniform 2M's colblock list; LIMIT, default 480 s,
# bounds it). Adopt run 26 here after the call; the run of record on its header is a later call.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
[[ "$GPU_NAME" == *H200* ]] || { echo "not an H200 ($GPU_NAME): nothing to run"; exit 0; }
( out_dir v65a; targets_2m )
LIMIT="${LIMIT:-480}" bash "$D/gpu-v64e.sh"
echo "gpu-v65a done at $SECONDS s"
