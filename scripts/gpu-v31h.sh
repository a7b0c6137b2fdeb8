#!/usr/bin/env bash
# Thirty-first session, call 7: colblock_probe with each warp's time split into bucketing, waits and rounds (
# one extra launch a configuration).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31h
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
echo "done at $SECONDS s"
