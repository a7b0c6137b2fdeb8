#!/usr/bin/env bash
# Thirty-first session, call 1: colblock_probe: do the gathers of the DRAM-bound uniform graphs
# reuse L2 when all resident warps sweep the sources in step (target 2's time row)?
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31a
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
step colblock_probe timeout 400 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
echo "done at $SECONDS s"
