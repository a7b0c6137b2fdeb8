#!/usr/bin/env bash
# Sixtieth session, after call 9 (bit 6 moved nothing; call 10's source counters: the chunk head's
# 26% of stall samples wait on scoreboard 5, still in flight there: the barrier's counters, read at
# the previous chunk's end): mma_gather's bit 7 reads them at the chunk's top. The probe's sweeps
# side by side (127, trims 33, 161, 225, 33 at lags 12 and 16 (the fifty-seventh session found
# the barrier's window binding tma_gather), then 127, 33 and 225 again), Nsight Compute's source
# counters on 225, then 225 poisoned and the Colblock GPU tests. On an H200 the run of record first
# (NO_RECORD=1 skips it).
# (Ran as call 9 / 16 of the sixtieth session; trims 65, 97, 161 and 225 were removed after: bits
# 6 and 7 of mma_gather, measured and dropped, docs/perf-notes.md.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "no run of record (not an H200, or NO_RECORD=1)"
out_dir v60b
L127="19,33,8,16,tma5r10g8s1024t127h"
M="24,33,8,32,tma3r24g16s1024t"
probe_configs "$L127" "${M}33hm" "${M}161hm" "${M}225hm" "24,33,12,32,tma3r24g16s1024t33hm" \
  "24,33,16,32,tma3r24g16s1024t33hm" "$L127" "${M}33hm" "${M}225hm"
NCU_KERNEL=mma_gather ncu_probe_source src-mma-t225 "${M}225hm"
probe_poisoned 120 "${M}225hm"
colblock_tests
echo "done at $SECONDS s"
