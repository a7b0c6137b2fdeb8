#!/usr/bin/env bash
# Thirty-first session, call 9: colblock_probe with the partition order as a plan built once (
# untimed), against the bucketing in the kernel.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31j
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
echo "done at $SECONDS s"
