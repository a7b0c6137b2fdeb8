#!/usr/bin/env bash
# Forty-first session, call 2: on run 24's header, the run of record (scripts/gpu-v34e.sh:
# prof_check, then the run of record, ~170 s) and then the whole GPU check (scripts/gpu-v28c.sh,
# ~300 s; its dispatch test reads the recorded runs as the folder tests/data/recorded/h200/, cut
# by scripts/device-tree.sh trim to run 24's file) in one call.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
bash "$D/gpu-v34e.sh"
echo "=== the whole GPU check at $SECONDS s"
bash "$D/gpu-v28c.sh"
