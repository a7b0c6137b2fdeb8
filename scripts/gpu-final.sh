#!/usr/bin/env bash
# Final GPU call of a session (repo root, .gpu/ staged by scripts/stage-gpu.sh from a build
# against the promoted tuned header), in order of what matters most if time runs short:
#   check   the whole GPU check: gpu_tests, memcheck, racecheck, production example, prof_check
#           (SKIP_SMOKE=0: also the smoke tuning run and scripts/check-continue.sh)
#           (SKIP_CHECK=1: only the dispatch, production and C interface tests, when only the
#           header or the host side changed)
#   bench   issue 7's table in one run: tuned dispatch, seed and softmax + cuSPARSE, cold L2,
#           launch included (events, round-robin in ROUNDS=10 rounds) on the small graphs (and
#           their GPU time with counters: L2 traffic), GPU time plus DRAM counters on the
#           large ones, bf16 storage, the seed shape warm (CUDA Graph replay; plain and
#           overlapped launches), and beside it the latency floors of a kernel of the seed
#           shape's grid (profiler/lat_ladder: parameter lines, dependent L2 loads, overlapped
#           launches, shuffles)
#   peers   PyTorch Geometric and torch.sparse on the same graphs (scripts/peers_pyg.py), with
#           this lab's library in the same process (--csrgat-lib)
# Logs and JSON are packed into $OUT/final.tgz (the device returns at most 8 files).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir final

if [ "${SKIP_CHECK:-0}" = 1 ]; then  # kernels unchanged since the last full check: dispatch only
  step dispatch timeout 120 "$ROOT/.gpu/bin/gpu_tests" --gtest_filter='Dispatch.*:Production.*:CApi.*' > "$W/dispatch.log" 2>&1
  grep -E "^\[ +(OK|FAILED|PASSED) " "$W/dispatch.log"
  step production_example timeout 60 "$ROOT/.gpu/bin/production_example"
else
  # SKIP_SMOKE=0: the check's smoke tuning run and its continuation too (~110 s more).
  OUT="$W" SKIP_BENCH="${SKIP_SMOKE:-1}" bash scripts/gpu-check.sh 2>&1 | tail -n 11
fi

B=(--max-seconds 0.3 --max-samples 300)
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
seed=(--graph "seed:n=384,deg=18,seed=1")
large=(--graph "uniform:n=1000000,deg=16,seed=1" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" --graph "rmat:scale=20,ef=16,seed=1")
# Round-robin (--rounds): a launch-included cold call drifts by ~5% between processes, which
# moves the ratios to the empty kernel and the baselines unless all are timed alike.
step bench-small-events timeout 150 "$T" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned,seed,cusparse,empty --events --rounds "${ROUNDS:-10}" "${B[@]}" --json "$W/bench-events.json"
# The same graphs' tuned dispatch, GPU time with counters: its L2 traffic against the L2 gather
# ceiling (issue7_table.py's last table).
step bench-small-counters timeout 120 "$T" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned --counters "${B[@]}" --json "$W/bench-small-counters.json"
step bench-large timeout 150 "$T" bench "${large[@]}" --feat 64 --impl tuned,seed,cusparse --counters "${B[@]}" --json "$W/bench-large.json"
# bf16 values, the dispatch writing float32 out and (its `.o16` twin) bf16 out, round-robin
# (thirty-seventh session on; issue7_table.py's bf16-out table and second target-5 line).
step bench-bf16 timeout 150 "$T" bench "${large[@]}" --feat 64 --value bf16 --impl tuned --out f32,bf16 --rounds 3 --counters "${B[@]}" --json "$W/bench-bf16.json"
# colblock: the column-blocked sweep (tuner/colblock.h), measured beside the dispatch.
step bench-2m timeout 180 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --impl tuned,seed,cusparse,colblock --counters "${B[@]}" --json "$W/bench-2m.json"
step bench-2m-bf16 timeout 120 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --value bf16 --impl tuned --out f32,bf16 --rounds 3 --counters "${B[@]}" --json "$W/bench-2m-bf16.json"
# Warm: plain launches, and launches that overlap the previous one (':pdl', programmatic
# dependent launch), each beside the empty kernel launched the same way.
step bench-warm-seed timeout 90 "$T" bench "${seed[@]}" --feat 64 --impl tuned,tuned:pdl,seed,empty,empty:pdl --cache warm --graph-replay --rounds "${ROUNDS:-10}" "${B[@]}" --json "$W/bench-warm.json"
step ladder timeout 60 "$BIN/lat_ladder" "$W/ladder.json"
# --rounds 3: the small graphs' PyG calls move ~2x between rounds (twenty-sixth session, call 3);
# issue7_table.py gives target 6's median with each round's.
# --csrgat-lib: the library through its C interface in the same process, rounds and harness as
# PyG (issue7_table.py's in-process table and target 6 lines).
# PEERS=0 skips it (~90 s), when a call's device time is short: the table's target 6 lines then
# need a peers.json from elsewhere, named as such.
if [ "${PEERS:-1}" = 1 ]; then
  step peers timeout 300 python3 scripts/peers_pyg.py --config configs/h200.yaml --tuner "$T" --graphs-dir "$G" --samples 30 --rounds 3 \
    --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers.json"
fi
# The flush of the runs before the twenty-eighth session (--flush-op write: it wrote its buffer,
# whose dirty lines the timed call's misses then wrote back), once over the graphs whose calls
# are host-bound: what that cost each implementation, side by side with the read flush above.
# WRITE_FLUSH=0 skips it (the run of record's targets do not read it).
if [ "${WRITE_FLUSH:-1}" = 1 ]; then
  small=(); for g in seed_384 cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do small+=(--only "$g"); done
  step peers-write-flush timeout 150 python3 scripts/peers_pyg.py --config configs/h200.yaml --tuner "$T" --graphs-dir "$G" "${small[@]}" \
    --samples 30 --flush-op write --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers-write-flush.json"
fi
cp "$W"/bench-events.json "$W"/bench-large.json "$W"/peers.json "$O/" 2>/dev/null
echo "done at $SECONDS s"
