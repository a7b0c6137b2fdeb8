#!/usr/bin/env bash
# Forty-seventh session, call 1, on whichever GPU the `nvidia-h200` kind hands out: the run of
# record on run 25's header (scripts/gpu-v34e.sh, ~130 s on an H200: tuner bench and PyG side
# by side, the issue's table; never measured on an H200 yet) and the whole GPU check
# (scripts/gpu-v28c.sh, 263-347 s: gpu_tests with WorkerOps, whose worker now reads a trial's
# cutoff once (9297690, not yet run on a GPU), the sanitizers, the library's memcheck). On an
# H200 the run of record goes first (H200s come seldom; the issue's figures are the H200's); on
# any other GPU the check goes first. Each part gets a deadline so that the call ends inside
# 590 s and both parts pack what they measured (their EXIT traps run on the timeout's TERM).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" || { echo "nvidia-smi failed"; exit 1; }
echo "GPU: $gpu"
END="${END:-590}"
part() {  # part NAME SCRIPT: SCRIPT with what is left of END, less a margin for the other's packing
  local left=$((END - SECONDS - 5))
  [ "$left" -gt 60 ] || { echo "=== $1: skipped, ${left} s left"; return; }
  echo "=== $1 at $SECONDS s (at most $left s)"
  timeout -k 10 "$left" bash "$D/$2"
  echo "--- $1: exit $? at $SECONDS s"
}
if [[ "$gpu" == *H200* ]]; then
  part "run of record" gpu-v34e.sh
  part "whole GPU check" gpu-v28c.sh
else
  part "whole GPU check" gpu-v28c.sh
  part "run of record" gpu-v34e.sh
fi
echo "all done at $SECONDS s"
