#!/usr/bin/env bash
# For the next H200 (full staging): leaves at once on any other GPU (a call for `nvidia-h200`
# without `needs_h200` may get an H100; the fifty-second session's ten calls all did), else the
# group loop's trims side by side (scripts/gpu-v52c.sh, ~25 s: float32 and bfloat16, trims 0 and
# 3, beside the seed), then the run of record on this tree (CHECK_PART=0 scripts/gpu-v47a.sh,
# ~215 s: prof_check with the read ceiling, tuner bench and PyG), whose sweep runs trim 3 since
# 369ec1f. About 250 s in all; END (default 280) bounds the record's part.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
if [[ "$GPU_NAME" != *H200* ]]; then
  echo "not an H200 ($GPU_NAME): leaving"
  exit 0
fi
bash "$D/gpu-v52c.sh" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |=== ncu|done)"
CHECK_PART=0 END=$((${END:-280} - SECONDS)) exec bash "$D/gpu-v47a.sh"
