#!/usr/bin/env bash
# Twenty-sixth session, call 4: scripts/peers_pyg.py --rounds 3 on the eight small graphs and
# uniform 1M (which must keep one round: its inputs do not fit in L2).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v26d
only=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902 uniform_1m_d16; do only+=(--only "$g"); done
step peers-rounds timeout 300 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${only[@]}" --samples 30 --rounds 3 -o "$W/peers.json" 2>&1 | grep -v Warning | grep -v sparse_csr_tensor
echo "done at $SECONDS s"
