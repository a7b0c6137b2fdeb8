#!/usr/bin/env bash
# Thirty-fifth session, call 1: the column-blocked sweep moved into the production library and
# the tuner. First the GPU tests of the sweep (Colblock.*: the launcher now csrgat/colblock.cu),
# of the library (Production, CApi, and Dispatch.AColblockRuleRunsTheSweepWhereAShapeHoldsItsPlan,
# which skips until the header attaches a sweep); then run 18, a fresh re-tune of
# configs/h200.yaml whose uniform 2M problem also times three colblock.* variants
# (scripts/gpu-multi.sh: store, header and report in multi.tgz).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v35a
  gpu_tests_until 170 'Colblock.*:Production.*:CApi.*:Dispatch.AColblock*'
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-400}" bash "$D/gpu-multi.sh"
