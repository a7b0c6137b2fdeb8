#!/usr/bin/env bash
# Thirty-sixth session, call 1 (full staging): the sweep's barrier pause as part of its id
# (`.pp<N>`). First configs/h200-colblock.yaml on uniform 2M, f32 and bf16, with counters
# (scripts/gpu-config-probe.sh, v36a.tgz); then run 21, a fresh tune of configs/h200.yaml
# whose uniform 2M problem also times three `.pp` sweeps (scripts/gpu-multi.sh: multi.tgz).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
NAME=v36a bash "$D/gpu-config-probe.sh"
CFG=configs/h200.yaml LIMIT="${LIMIT:-420}" bash "$D/gpu-multi.sh"
