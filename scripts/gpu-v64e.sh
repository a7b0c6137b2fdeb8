#!/usr/bin/env bash
# For a later session's H200 (written in the sixty-fourth): run 26, a fresh tune of
# configs/h200.yaml with the tensor-core sweep (`r24.ps16.lag8.mma`) added to uniform 2M's
# colblock list, the step the sixtieth session left for "the next fresh H200 tune". The sixty-fourth
# session's calls 6-7 ran the same path on an H100 (configs/h100-mma.yaml: the tuner attached the
# sweep to the bfloat16 rule at 0.933x its family kernel, and the library ran that rule correctly
# through its header); whether it wins on the H200 is this run's answer. Only on an H200 (the
# committed header is the H200's): elsewhere it exits at once. scripts/gpu-multi.sh with the edited
# config (LIMIT, default 420 s; run 25 took 230-260 s); then, here: unpack multi.tgz,
# `scripts/adopt-run.sh <run>/results.sqlite --build <build>`, and give configs/h200.yaml the same
# entry so that Config.H200ProblemsMatchTheRecordedRunsTheyCameFrom holds against run 26; then the
# run of record on the new header (scripts/gpu-v47a.sh) in the next H200 call.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
[[ "$GPU_NAME" == *H200* ]] || { echo "not an H200 ($GPU_NAME): no tune"; exit 0; }
if grep -q 'r24\.ps16\.lag8\.mma' configs/h200.yaml; then  # already there: the config as it is
  cp configs/h200.yaml configs/.h200-next.yaml
else
  sed 's/colblock: \[r19\.ps16\.lag8, /colblock: [r19.ps16.lag8, r24.ps16.lag8.mma, /' configs/h200.yaml > configs/.h200-next.yaml
  grep -q 'r24\.ps16\.lag8\.mma' configs/.h200-next.yaml || { echo "gpu-v64e: uniform 2M's colblock list not found in configs/h200.yaml"; exit 1; }
fi
CFG=configs/.h200-next.yaml LIMIT="${LIMIT:-420}" bash "$D/gpu-multi.sh"
