#!/usr/bin/env bash
# Twenty-first session, call 2 (perf-notes, "block merges that issue their loads at once"):
#  1. every GPU test but the million-edge row, memcheck and racecheck of configs/sanitizer.yaml
#     (a problem of .bm variants), on this tree;
#  2. this tree against 206133c's build (.gpu/bin/tuner-head), two processes each, cold GPU
#     time: the tuned dispatch, tpr16 fl8 split16 and tpr32 rpb8 split32 (out of the space), on
#     the seed shape and the seven real graphs;
#  3. tuner timeline of citeseer's rule and tpr16 fl8 split16, cora's and slashdot's rules.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v21b
gpu_tests_until 150 '*-*OneRowOfAMillionEdges*'
step memcheck timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
tail -n 3 "$W/memcheck.log"
step racecheck timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 8 > "$W/racecheck.log" 2>&1
tail -n 3 "$W/racecheck.log"

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
fl8=csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
r8=csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32
B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 100 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
      --impl "tuned,$fl8,$r8" "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" ab tuner tuner-head tree 206133c
awk '$NF ~ /e-/ {print $NF}' "$W"/ab-tuner-1.txt | sort -g | tail -1 | sed 's/^/largest rel_err, this tree: /'

step tl-citeseer timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" \
  --variant "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32,$fl8" --json "$W/tl-citeseer.json" --tasks > "$W/tl-citeseer.txt" 2>&1
step tl-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" \
  --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32,$r8" --json "$W/tl-cora.json" --tasks > "$W/tl-cora.txt" 2>&1
step tl-slashdot timeout 60 "$T" timeline --graph "$G/soc-slashdot0902.mtx.gz" \
  --variant "csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split64.lpt.pf.bm.i32.f32" \
  --json "$W/tl-slashdot.json" > "$W/tl-slashdot.txt" 2>&1
for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E " on |GPU time|span|chunk  |pad  |row 1-4" "$f" | head -14; done
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
