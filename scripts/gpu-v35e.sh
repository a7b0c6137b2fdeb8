#!/usr/bin/env bash
# Thirty-fifth session, call 5: the bf16 sweep with a ring of 16 rows (colblock::ring_slots): the
# sweep's GPU tests, then run 20, a fresh re-tune of configs/h200.yaml (the launcher is now in the
# kernels hash, so nothing is reused).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v35e
  gpu_tests_until 120 'Colblock.*:Dispatch.AColblock*'
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-380}" bash "$D/gpu-multi.sh"
