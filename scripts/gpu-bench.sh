#!/usr/bin/env bash
# Performance table and remaining acceptance checks on the GPU machine, in one call (repo root,
# .gpu/ staged with a tuner built against the promoted tuned header):
#   bench    tuned dispatch vs seed vs cuSPARSE, cold L2, launch included (event) and GPU time
#   peers    PyTorch Geometric and torch.sparse CSR on the same graphs (scripts/peers_pyg.py)
#   regress  two runs compared (no slower) and a 10%-slowed run compared (slower, exit 1)
#   resume   a run killed part-way, then run again: finished trials are not re-measured
#   dispatch the production dispatch picks the tuned rule's variant for every tuned graph
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
B=(--max-seconds 0.4 --max-samples 300)
small=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do small+=(--graph "$G/$f.mtx.gz"); done
step bench-real-f32 timeout 200 "$T" bench "${small[@]}" --graph "seed:n=384,deg=18,seed=1" --feat 64 --impl tuned,seed,cusparse "${B[@]}" --json "$O/bench-small.json"
step bench-large-f32 timeout 200 "$T" bench --graph "uniform:n=1000000,deg=16,seed=1" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1" --feat 64 --impl tuned,seed,cusparse --counters "${B[@]}" --json "$O/bench-large.json"
step bench-2m-f128 timeout 120 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --impl tuned,seed,cusparse --counters "${B[@]}" --json "$O/bench-2m.json"
step bench-bf16 timeout 150 "$T" bench --graph "uniform:n=1000000,deg=16,seed=1" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1" --feat 64 --value bf16 --impl tuned --counters "${B[@]}" --json "$O/bench-bf16.json"
step bench-warm-seed timeout 60 "$T" bench --graph "seed:n=384,deg=18,seed=1" --feat 64 --impl tuned,seed --cache warm --graph-replay "${B[@]}" --json "$O/bench-warm.json"
step peers timeout 240 python3 scripts/peers_pyg.py --config configs/h200.yaml --tuner "$T" --graphs-dir "$G" -o "$O/peers.json"
step regress bash -c "'$T' run configs/regress.yaml >runs-regressA.log 2>&1; '$T' run configs/regress.yaml >runs-regressB.log 2>&1; '$T' run configs/regress-slow.yaml >runs-regressS.log 2>&1; echo runs done"
step compare-same "$T" compare runs/regress/results.sqlite:1 runs/regress/results.sqlite:2 -o runs/compare-same
step compare-slow "$T" compare runs/regress/results.sqlite:2 runs/regress-slow/results.sqlite -o runs/compare-slow
cp runs/compare-same/compare.md "$O/compare-same.md"; cp runs/compare-slow/compare.md "$O/compare-slow.md"
step resume-part1 timeout -s KILL 25 "$T" run configs/smoke.yaml
step resume-part2 bash -c "'$T' run configs/smoke.yaml | grep -E 'resuming|taken from the store|finished in'"
step dispatch timeout 120 "$ROOT/.gpu/bin/gpu_tests" --gtest_filter='Dispatch.*:Production.*'
