#!/usr/bin/env bash
# Thirty-first session, call 6: colblock_probe with a step's counter over 32 lines (one a lane
# for a poll) and no counters without a barrier.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31g
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
echo "done at $SECONDS s"
