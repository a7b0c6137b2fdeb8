#!/usr/bin/env bash
# Seventeenth session, call 10 (perf-notes, "the zero line's address read while the task's
# bounds load"): the GPU tests on this tree (the million-edge row test left out for time; call 9
# ran it on the same kernel sources but this change), then the A/B of this tree's tuned dispatch
# against bbcec63's (.gpu/bin/tuner-head), cold GPU time, two processes each, then the small
# graphs' launch-included table (tuned, seed, cuSPARSE, empty; events, 10 rounds) as in
# gpu-final.sh's bench-small-events.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${AB_TAG:-v17f}"  # docs/gpu-scripts.md: the eighteenth session reran it as AB_TAG=v18b
B=(--max-seconds 0.3 --max-samples 300)
seed=(--graph "seed:n=384,deg=18,seed=1")
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
gpu_tests_until 150 '-GpuCorrectness.OneRowOfAMillionEdges'
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned --rounds 5 \
      "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 - "$W" <<'PY'
import json, sys, statistics as st
w = sys.argv[1]
def load(b):
    out = {}
    for i in (1, 2):
        for r in json.load(open(f"{w}/ab-{b}-{i}.json"))["results"]:
            out.setdefault(r["graph"].split("/")[-1].replace(".mtx.gz", ""), []).append(r["gpu_median_us"])
    return out
new, old = load("tuner"), load("tuner-head")
for g in new:
    print(f"{g:28s} this tree {new[g][0]:7.2f} {new[g][1]:7.2f}   bbcec63 {old[g][0]:7.2f} {old[g][1]:7.2f}   "
          f"{(st.mean(new[g]) / st.mean(old[g]) - 1) * 100:+5.1f}%")
PY
step bench-small-events timeout 150 "$T" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned,seed,cusparse,empty \
  --events --rounds 10 "${B[@]}" --json "$W/bench-events.json" > "$W/bench-events.txt" 2>&1
tail -n 34 "$W/bench-events.txt" | grep -E "tuned|seed|cusparse|empty" | awk '{print $1, $3, $5, $6}' | sed 's#.*/graphs/##'
echo "done at $SECONDS s"
