#!/usr/bin/env bash
# Thirty-eighth session, call 1 (full staging): L2 eviction-priority hints on the value gathers
# (profiler/l2_policy_probe: plain, streams evict_first, a kept range of the values
# evict_normal / evict_last with the rest evict_first, every gather evict_first) on uniform 2M
# F = 128 and F = 64 and uniform 1M F = 64, cold, with DRAM and L2 bytes (l2policy.tgz); then
# run 22, a fresh tune of configs/h200.yaml (the kernels hash moved with `.o16`, so the recorded
# store's runs cannot be reused; scripts/gpu-multi.sh: multi.tgz), stopped at LIMIT (380) s.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir l2policy
  step l2_policy_probe timeout -k 5 150 "$BIN/l2_policy_probe" "$W/l2_policy.json" 2>&1 | tee "$W/l2_policy.log"
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-380}" bash "$D/gpu-multi.sh"
