#!/usr/bin/env bash
# Forty-first session: on the header the library is built with, the run of record
# (scripts/gpu-v34e.sh: prof_check, then the run of record, ~170 s) and then the whole GPU check
# (scripts/gpu-v28c.sh, ~300 s; its dispatch test reads the recorded runs as the folder
# tests/data/recorded/h200/, cut by scripts/device-tree.sh trim to the latest run) in one call.
# Run first on run 23's header (three failed starts left the session ~24 minutes of device time:
# this checks the store folder on the GPU before the fresh tune, gpu-v41a.sh, whose header is
# predicted to keep run 23's rules).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
bash "$D/gpu-v34e.sh"
echo "=== the whole GPU check at $SECONDS s"
bash "$D/gpu-v28c.sh"
