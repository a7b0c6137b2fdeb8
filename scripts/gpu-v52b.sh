#!/usr/bin/env bash
# Fifty-second session (full staging): the group loop's trims (scripts/gpu-v52a.sh, ~20 s; on an
# H100 its call 3 measured no difference in time), then the whole GPU check (scripts/gpu-v28c.sh
# through gpu-v47a.sh's deadline, RECORD_PART=0: ~450 s on an H200, whose last one, the
# fifty-first session's call 5, lost its last two steps to the deadline after the run of record).
# PROBE names another probe script to run first (gpu-v52d.sh: gpu-v52c.sh).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$D/${PROBE:-gpu-v52a.sh}" 2>&1 |
  grep -E "^(device|tma|seed|baseline U=4 |  a warp's time|=== ncu|done)"
RECORD_PART=0 END=$((585 - SECONDS)) exec bash "$D/gpu-v47a.sh"
