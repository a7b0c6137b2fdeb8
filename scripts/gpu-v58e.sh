#!/usr/bin/env bash
# Fifty-eighth session, call 11 onwards (full staging): scripts/gpu-v58b.sh with this build's list
# (mma_gather's trims 17 and 25, the plan's items prefetched into L2 five chunks ahead, beside 1, 9
# and the library's bfloat16 sweep 127) and Nsight Compute on trim 17; then its source counters;
# then trim 17 with the barrier's first pause at 1024, 2048 and 4096 ns (call 10: the poll loop was 31%
# of trim 1's instructions at 1024), each in its own run beside the plain kernel.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NAME=${NAME:-v58e} bash "$D/gpu-v58b.sh" "24,33,8,32,tma3r24g16s1024t17hm"
source "$D/gpu-env.sh"
out_dir v58e-src
NCU_KERNEL=mma_gather ncu_probe_source src-mma-t17 "24,33,8,32,tma3r24g16s1024t17hm"
for ns in 1024 2048 4096; do
  step "pause $ns" timeout 120 "$BIN/colblock_probe" "$W/pause-$ns.json" \
    --config "24,33,8,32,tma3r24g16s${ns}t17hm" 2>&1 | grep -E "^(baseline U=4 |tma)"
done
echo "done at $SECONDS s"
