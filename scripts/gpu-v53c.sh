#!/usr/bin/env bash
# Fifty-third session (full staging), on the build that ships trim 7. On an H200: the run of
# record (CHECK_PART=0 scripts/gpu-v47a.sh, ~215 s; END, default 330, bounds it), then
# colblock_probe's default list (trims 3 and 7 side by side, ~25 s) and the per-instruction
# counts of the float32 sweep (as gpu-v53b.sh, ~10 s). On any other GPU: the per-instruction
# counts of the bfloat16 sweep at trim 7 (an item-bound sweep: how much of its issue is the
# barrier's polling) and of the float32 one.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
if record_first_on_h200; then
  bash "$D/gpu-colblock.sh" v53c-probe 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done)"
fi
(
  out_dir v53c
  for c in 19,33,8,16,tma5r10s4096t7h 19,33,8,8,tma5r10s4096t7; do
    ncu_probe_source "src-$c" "$c"
  done
  echo "done at $SECONDS s"
)
