#!/usr/bin/env bash
# Fifty-fifth session, call 6 (full staging): the run of record on an H200 (record_first_on_h200:
# CHECK_PART=0 scripts/gpu-v47a.sh, END default 330), the first since the fifty-first session's
# (trim 0); on any other GPU nothing, at once (a look costs a machine's start only).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200 || echo "not an H200: the run of record is the H200's; nothing run"
