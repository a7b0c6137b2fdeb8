#!/usr/bin/env bash
# Thirty-first session, call 8: colblock_probe with long lags (the window far looser than L2; 
# each warp's time split as in call 7).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31i
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
echo "done at $SECONDS s"
