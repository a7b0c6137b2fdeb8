#!/usr/bin/env bash
# Fifty-fifth session, call 3 (full staging): colblock_probe's default list alone (the bfloat16
# sweep's gains of call 2 together: groups of 8 at lags 8-12, with and without bit 6's timed poll
# pause; float32 15 and 79 at lags 8 and 12; docs/perf-notes.md, "Fifty-fifth session, call 2").
# On an H200 first the run of record on this build (record_first_on_h200).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
bash "$D/gpu-colblock.sh" "${NAME:-v55b}" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done)"
