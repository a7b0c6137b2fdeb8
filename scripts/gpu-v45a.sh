#!/usr/bin/env bash
# Forty-fifth session's plan for the next device call, whichever GPU the `nvidia-h200` kind
# hands out (it handed H100s to every call that started this session):
# - on an H200: scripts/gpu-v44a.sh, run 25 (a fresh tune of configs/h200.yaml, LIMIT 355 s)
#   and then the run of record on the committed header (~560 s in all);
# - on any other GPU (an H100): configs/h100.yaml, the README's main job, now h200.yaml's space
#   (`base:`) with the reviewed screening cutoff and its probes-first order (predicted 330-430 s
#   on an H100, every winner within ~3% of the H200 header's kernel there: perf-notes), then the
#   worker's tests, the cutoff's among them. H100_LIMIT (default 520) stops the tune; a stopped
#   run goes on in the next call with FROM=<its run folder> scripts/gpu-multi.sh.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
echo "GPU: $gpu"
if [[ "$gpu" == *H200* ]]; then
  bash "$D/gpu-v44a.sh"
  exit $?
fi
echo "not an H200: configs/h100.yaml with the screening cutoff"
CFG=configs/h100.yaml LIMIT="${H100_LIMIT:-520}" bash "$D/gpu-multi.sh"
(
  source "$D/gpu-env.sh"
  CSRGAT_SOURCE_DIR="$ROOT" timeout 60 "$BIN/gpu_tests" --gtest_filter='WorkerOps.*' > "${OUT:-$ROOT/.gpu/out}/worker_ops.log" 2>&1
  echo "worker_ops: exit $?"
  grep -E "^\[ +(OK|FAILED|PASSED) " "${OUT:-$ROOT/.gpu/out}/worker_ops.log"
)
echo "all done at $SECONDS s"
