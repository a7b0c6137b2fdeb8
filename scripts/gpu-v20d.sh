#!/usr/bin/env bash
# Twentieth session, call 4 (perf-notes, "test-only knobs compiled only where used"):
#  1. every GPU test but the million-edge row on this tree;
#  2. the knobs still work where they are compiled in: configs/faults.yaml (a crashing and a
#     hanging variant recorded, the run completes), regress.yaml twice and regress-slow.yaml
#     (test_only.slow_percent 10), compared (exit 0, then 1);
#  3. this tree against 97c3f09's build (.gpu/bin/tuner-head), the tuned dispatch on every
#     graph of issue 7's table but the 2M one, cold GPU time, two processes each;
#  4. tuner timeline of citeseer's and cora's rules (the rows' ends).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20d
gpu_tests_until 120 '*-*OneRowOfAMillionEdges*'
step faults timeout 180 "$T" run configs/faults.yaml > "$W/faults.log" 2>&1
tail -n 6 "$W/faults.log"; statuses runs/faults/results.sqlite
step regress-a timeout 120 "$T" run configs/regress.yaml > "$W/regress1.log" 2>&1
step regress-b timeout 120 "$T" run configs/regress.yaml > "$W/regress2.log" 2>&1
step regress-slow timeout 120 "$T" run configs/regress-slow.yaml > "$W/regress3.log" 2>&1
step compare-same "$T" compare runs/regress/results.sqlite:1 runs/regress/results.sqlite:2 -o runs/compare-same
step compare-slow "$T" compare runs/regress/results.sqlite:2 runs/regress-slow/results.sqlite -o runs/compare-slow
cp runs/compare-same/compare.md "$W/compare-same.md" 2>/dev/null; cp runs/compare-slow/compare.md "$W/compare-slow.md" 2>/dev/null
grep -iE "slower|faster|same" "$W/compare-slow.md" | head -8

B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
GR=(--graph "seed:n=384,deg=18,seed=1")
for g in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do GR+=(--graph "$G/$g.mtx.gz"); done
GR+=(--graph "uniform:n=1000000,deg=16,seed=1" --graph "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1")
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 120 "$BIN/$bin" bench "${GR[@]}" --feat 64 --impl tuned "${B[@]}" \
      --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" ab tuner tuner-head tree 97c3f09

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
step timeline timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" \
  --variant "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32" --json "$W/timeline-citeseer.json" \
  > "$W/timeline-citeseer.txt" 2>&1
step timeline-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" \
  --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32" --json "$W/timeline-cora.json" \
  > "$W/timeline-cora.txt" 2>&1
grep -E "GPU time|span|row 1-4|chunk  |pad  " "$W"/timeline-*.txt
echo "done at $SECONDS s"
