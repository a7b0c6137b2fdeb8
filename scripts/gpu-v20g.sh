#!/usr/bin/env bash
# Twentieth session, call 7 (perf-notes, "a block's merge is an instruction chain"):
#  1. every GPU test but the million-edge row, memcheck and racecheck (configs/sanitizer.yaml has
#     a problem of .bm variants), the production example, on this tree;
#  2. this tree against 2322f73's knob-free build (.gpu/bin/tuner-head), the tuned dispatch and
#     two kernels outside the space, cold GPU time, two processes each;
#  3. tuner timeline of citeseer's rule and tpr16 fl8 split16, and cora's rule;
#  4. issue 7's small-graph row on this tree: tuned, seed, cuSPARSE and the empty kernel, launch
#     included, 10 rounds (gpu-final.sh's bench-small-events) and the tuned GPU time.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v20g
gpu_tests_until 120 '*-*OneRowOfAMillionEdges*'
step memcheck timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 7 > "$W/memcheck.log" 2>&1
tail -n 3 "$W/memcheck.log"
step racecheck timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 "$T" check configs/sanitizer.yaml --seed 8 > "$W/racecheck.log" 2>&1
tail -n 3 "$W/racecheck.log"
step production_example timeout 60 "$BIN/production_example"

B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
seed=(--graph "seed:n=384,deg=18,seed=1")
AB="tuned,csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32"
AB+=",csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32"
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "ab-$bin-$i" timeout 100 "$BIN/$bin" bench "${seed[@]}" "${real[@]}" --feat 64 --impl "$AB" "${B[@]}" \
      --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" ab tuner tuner-head tree 2322f73

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
step timeline timeout 60 "$T" timeline --graph "$G/citeseer.mtx.gz" \
  --variant "$w32.g4.mb6.smem0.online.split32.pf.bm.i32.f32,csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32" \
  --json "$W/timeline-citeseer.json" --tasks > "$W/timeline-citeseer.txt" 2>&1
step timeline-cora timeout 60 "$T" timeline --graph "$G/cora.mtx.gz" \
  --variant "$w32.g8.smem0.online.split64.pf.bm.i32.f32" --json "$W/timeline-cora.json" > "$W/timeline-cora.txt" 2>&1
grep -E " on |GPU time|span|chunk  |pad  |row 1-4" "$W"/timeline-*.txt

B=(--max-seconds 0.3 --max-samples 300)
step bench-small-events timeout 150 "$T" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned,seed,cusparse,empty --events --rounds 10 "${B[@]}" --json "$W/bench-events.json" > "$W/bench-events.txt" 2>&1
step bench-small-gpu timeout 120 "$T" bench "${seed[@]}" "${real[@]}" --feat 64 --impl tuned --counters "${B[@]}" --json "$W/bench-small-counters.json" > "$W/bench-small-counters.txt" 2>&1
python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
ev = {}
for r in json.load(open(f"{w}/bench-events.json"))["results"]:
    ev.setdefault(r["graph"].split("/")[-1].replace(".mtx.gz", ""), {})[r["impl"]] = r["event_median_us"]
gpu = {r["graph"].split("/")[-1].replace(".mtx.gz", ""): r["gpu_median_us"] for r in json.load(open(f"{w}/bench-small-counters.json"))["results"]}
for g, t in ev.items():
    base = min(t["seed"], t["cusparse"])
    print(f"{g[:26]:26s} tuned {t['tuned']:6.2f} seed {t['seed']:6.2f} cusparse {t['cusparse']:6.2f} empty {t['empty']:5.2f}  ratio {base / t['tuned']:.2f}x  gpu {gpu.get(g, 0):.2f}")
PY
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
