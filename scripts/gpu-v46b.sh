#!/usr/bin/env bash
# Forty-sixth session, the call after run 25's adoption: the whole GPU check
# (scripts/gpu-v28c.sh, ~265 s; on an H200 the tuned header's dispatch test runs, skipped on any
# other GPU) on run 25's header, then the run of record on it (scripts/gpu-v34e.sh, ~130 s) for
# the issue's table. The check first: it is what the adoption needs.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
nvidia-smi --query-gpu=name --format=csv,noheader
bash "$D/gpu-v28c.sh"
echo "=== run of record at $SECONDS s"
bash "$D/gpu-v34e.sh"
echo "all done at $SECONDS s"
