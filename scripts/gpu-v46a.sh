#!/usr/bin/env bash
# Forty-sixth session's H200 call, whichever GPU the `nvidia-h200` kind hands out:
# - on an H200: scripts/gpu-v44a.sh, run 25 (a fresh tune of configs/h200.yaml, now with the
#   screening cutoff, LIMIT 355 s) and then the run of record on the committed header (~480 s in
#   all); run 25 is adopted here afterwards (scripts/adopt-run.sh) if it finished;
# - on any other GPU (an H100): the run of record alone (scripts/gpu-v34e.sh: tuner bench on
#   the committed header's kernels, the baselines and PyG side by side, ~200 s), the issue's
#   table measured on the README's main-job GPU (not the issue's H200 figures).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
# (Call 4 ran it with `nvidia-smi ... | tee /dev/stderr | grep -q H200`: a stderr that is a file
# reopened and truncated by tee, a socket it cannot open, or grep closing the pipe early would
# each have sent an H200 down the other branch; the name is now read once, and a failure said.)
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" || { echo "nvidia-smi failed"; exit 1; }
echo "GPU: $gpu"
[[ "$gpu" == *H200* ]] && exec bash "$D/gpu-v44a.sh"
echo "not an H200: the run of record alone"
bash "$D/gpu-v34e.sh"
echo "all done at $SECONDS s"
