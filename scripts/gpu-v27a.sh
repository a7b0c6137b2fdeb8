#!/usr/bin/env bash
# Twenty-seventh session, call 1.
#   peers   scripts/peers_pyg.py as edited after its last device run (e845ab0: --samples and
#           --rounds checked after parsing, rows whose later rounds all failed), three rounds
#           on the eight small graphs and uniform 1M (gpu-v26d.sh's step)
#   caps    what citeseer's split rows cost its rule, uninstrumented: the rule (tpr16 fl8 rpb16
#           split8 .lpt.pf.bm) and the same kernel without splitting (split0) on citeseer and
#           on copies with rows capped (scripts/cap_graph.py): at 8 edges (no chunk at all), at
#           8 but the longest row (99 edges: its 13 chunks and their merge alone), at 8 but the
#           23 rows of over 16 edges, at 16; beside them citeseer's uniform twin and the empty
#           kernel; cold GPU time (CUPTI), round-robin in 5 rounds; then the same warm.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27a
only=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902 uniform_1m_d16; do only+=(--only "$g"); done
step peers-rounds timeout 300 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${only[@]}" --samples 30 --rounds 3 -o "$W/peers.json" 2>&1 | grep -v Warning | grep -v sparse_csr_tensor

caps=(--graph "$G/citeseer.mtx.gz")
for ck in "8 0" "8 1" "8 23" "16 0"; do
  set -- $ck
  python3 scripts/cap_graph.py "$G/citeseer.mtx.gz" "$W/citeseer-cap$1-keep$2.mtx.gz" --cap "$1" --keep "$2"
  caps+=(--graph "$W/citeseer-cap$1-keep$2.mtx.gz")
done
caps+=(--graph "uniform:n=3327,deg=3,seed=1")
rule=csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.pf.bm.i32.f32
whole=csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split0.lpt.pf.i32.f32
step caps timeout 240 "$T" bench "${caps[@]}" --feat 64 --impl "tuned,$rule,$whole,empty" --rounds 5 \
  --max-seconds 0.3 --max-samples 300 --json "$W/caps.json" > "$W/caps.txt" 2>&1
tail -40 "$W/caps.txt"
# The same warm (inputs and code left in L2 by the previous launch): how much of the split rows'
# cost is what a cold L2 adds.
step caps-warm timeout 240 "$T" bench "${caps[@]}" --feat 64 --impl "$rule,$whole,empty" --cache warm --rounds 5 \
  --max-seconds 0.3 --max-samples 300 --json "$W/caps-warm.json" > "$W/caps-warm.txt" 2>&1
tail -30 "$W/caps-warm.txt"
echo "done at $SECONDS s"
