#!/usr/bin/env bash
# Thirty-fifth session, call 3: the column-blocked sweep on bfloat16 values (256-byte rows in
# the ring, widened as they are added). The sweep's GPU tests (Colblock.*, Bfloat16Values among
# them), the library's and the C interface's; then run 19, a fresh re-tune of configs/h200.yaml
# whose uniform 2M problem now times the three colblock geometries on f32 and on bf16 values.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v35c
  gpu_tests_until 170 'Colblock.*:Production.*:CApi.*:Dispatch.AColblock*'
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-400}" bash "$D/gpu-multi.sh"
