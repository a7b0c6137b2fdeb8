#!/usr/bin/env bash
# Forty-sixth session, the call after run 25's adoption: the whole GPU check
# (scripts/gpu-v28c.sh, 263-347 s; the tuned header's dispatch test runs wherever the built header
# is the recorded run's emission, on any GPU) on run 25's header, then the run of record on it
# (scripts/gpu-v34e.sh, ~130 s) for the issue's table. The check first: it is what the adoption
# needs. Call 5 (an H100) ran out of device time in the run of record's PyG step.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
nvidia-smi --query-gpu=name --format=csv,noheader
bash "$D/gpu-v28c.sh"
echo "=== run of record at $SECONDS s"
bash "$D/gpu-v34e.sh"
echo "all done at $SECONDS s"
