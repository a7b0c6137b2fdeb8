#!/usr/bin/env bash
# Twenty-sixth session, call 3: how much of target 6's median is PyG's host time moving. The
# session's two runs of record timed PyG's small-graph calls 1.0-2.6x apart (cora 148 against
# 379 us) while ours moved under 2%. Three rounds, each PyG and torch.sparse on the eight small
# graphs (scripts/peers_pyg.py, 30 samples) and then our tuned dispatch on them (tuner bench,
# cold, events, launch included); then PyG once more with 30 warm-up calls instead of 3; the
# host's load and clocks before each round.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v26c
only=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do only+=(--only "$g"); done
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
host() { { date -u +%T; uptime; grep -m1 "model name" /proc/cpuinfo; awk '/MHz/ {s += $4; n++} END {printf "mean core MHz %.0f over %d\n", s / n, n}' /proc/cpuinfo;
           ps -eo pcpu,comm --sort=-pcpu | head -n 4; } >> "$W/host.log" 2>&1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$W/gpu.csv" 2>&1
for r in 1 2 3; do
  host
  step "peers-$r" timeout 150 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${only[@]}" --samples 30 -o "$W/peers-$r.json"
  step "tuned-$r" timeout 90 "$T" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 --impl tuned,seed,cusparse --events --rounds 3 --max-seconds 0.3 --max-samples 300 --json "$W/bench-$r.json"
done
host
step peers-warm30 timeout 150 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${only[@]}" --samples 30 --warmup 30 -o "$W/peers-w30.json"
echo "done at $SECONDS s"
