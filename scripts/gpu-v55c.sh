#!/usr/bin/env bash
# Fifty-fifth session, call 4 (full staging), on the build whose bfloat16 sweep is trim 127 in
# groups of 8 (bit 6: the barrier's polls a timed pause apart): colblock_probe's default list
# first (bit 6's pause, 512-4096 ns, at lags 8 and 10; float32 79 against 15; ~25 s), then
# gpu-v47a.sh as RECORD_ELSEWHERE=0 (on an H200 the run of record, then the whole GPU check;
# elsewhere the check alone), inside END (default 540) of its own clock (docs/perf-notes.md,
# "Fifty-fifth session: the timed polls' pause, and the check (prediction)").
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
bash "$D/gpu-colblock.sh" "${NAME:-v55c}" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done)"
RECORD_ELSEWHERE=0 END=${END:-540} bash "$D/gpu-v47a.sh"
