#!/usr/bin/env bash
# Twenty-seventh session, call 6: target 6 in one process again, with peers_pyg.py passing the
# stream to record() (call 5: the lookup put 2.3-3.4 us of the timer inside each sample): the
# eight small graphs (host-bound calls; the large ones' ratios do not depend on the timer's few
# microseconds), two rounds, the library through --csrgat-lib.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27f
small=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do small+=(--only "$g"); done
step peers timeout 200 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${small[@]}" --samples 30 --rounds 2 \
  --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers.json" 2>&1 | grep -E "round medians|wrote"
echo "done at $SECONDS s"
