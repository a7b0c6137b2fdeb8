#!/usr/bin/env bash
# Twenty-seventh session, call 6: target 6 in one process again, with peers_pyg.py passing the
# stream to record() (call 5: the lookup put 2.3-3.4 us of the timer inside each sample): every
# graph of configs/h200.yaml, three rounds, the library through --csrgat-lib.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27f
step peers timeout 300 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" --samples 30 --rounds 3 \
  --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers.json" 2>&1 | grep -E "round medians|wrote"
echo "done at $SECONDS s"
