#!/usr/bin/env bash
# Twenty-eighth session, call 1: the prepared call (csrgat::Call, csrgat_call_*) checked, and
# where a Python caller's ~15 us more than C++ went in the twenty-seventh session's peers_pyg.py
# (call 4: 21.7-29 us per call there, 13.3-13.6 in py_call_overhead.py's own process, call 5,
# another machine): both scripts in this one call, with the host time of each call recorded.
#   tests     the dispatch, production and C interface GPU tests (each now also checks a
#             prepared call launched twice)
#   bench     the small graphs, tuned (aggregate()) against tuned_call (Call::launch) and the
#             empty kernel, launch included, 5 rounds
#   overhead  scripts/py_call_overhead.py on citeseer and pubmed: csrgat_aggregate and the
#             prepared call, alone, after a PyG call, in blocks as peers_pyg.py times them
#   peers     scripts/peers_pyg.py on the eight small graphs, 2 rounds, csrgat and csrgat_call
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v28a
step tests timeout 120 "$BIN/gpu_tests" --gtest_filter='Dispatch.*:Production.*:CApi.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/tests.log" | head -30
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
step bench timeout 120 "$T" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 --impl tuned,tuned_call,empty \
  --events --rounds 5 --max-seconds 0.3 --max-samples 300 --json "$W/bench.json" > "$W/bench.txt" 2>&1
grep -E "tuned|empty" "$W/bench.txt" | awk '{print $1, $3, $6}' | head -30
for g in citeseer pubmed; do
  step "overhead-$g" timeout 90 python3 scripts/py_call_overhead.py --lib "$BIN/libcsrgat_c.so" --graph "$G/$g.mtx.gz" \
    -o "$W/overhead-$g.json" 2>&1 | grep -v "^graph\|^variant\|^samples"
done
small=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do small+=(--only "$g"); done
step peers timeout 200 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" "${small[@]}" --samples 30 --rounds 2 \
  --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers.json" 2>&1 | grep -E "csrgat|pyg|wrote"
echo "done at $SECONDS s"
