#!/usr/bin/env bash
# Twenty-third session, call 6: exponentials as one ex2.approx.ftz and block merges of 5-8 chunks
# as straight-line code (1aebb5b), on run 14's header:
#  1. this tree against the run of record's build (ced9b9f's kernels, .gpu/bin/tuner-head), the
#     tuned dispatch, two processes each, cold GPU time, seed shape and the seven real graphs,
#     and timelines of the one-row-per-SM block merge (call 5) from both;
#  2. the run of record (gpu-v19e.sh: prof_check, benchmarks, peers, then every GPU test,
#     memcheck, racecheck, the production example and the million-edge row).
# Not run: the device refused the call twice (the tree over 64 MiB, then no machine), and the
# 480 s left could not hold it; gpu-v23e.sh is the same without the million-edge row.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
(
  out_dir v23d
  B=(--max-seconds 0.2 --max-samples 200 --rounds 2)
  real=(); for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
  for i in 1 2; do
    for bin in tuner tuner-head; do
      step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
        --impl tuned "${B[@]}" --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
    done
  done
  python3 scripts/ab_table.py "$W" ab tuner tuner-head new head
  K8=csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32
  for bin in tuner tuner-head; do
    step "tl-$bin-u132" timeout 60 "$BIN/$bin" timeline --graph "uniform:n=132,deg=99,seed=1" \
      --variant "$K8" --json "$W/tl-$bin-u132.json" > "$W/tl-$bin-u132.txt" 2>&1
  done
  for f in "$W"/tl-*.txt; do echo "## $(basename "$f")"; grep -E "GPU time|span|chunk  " "$f" | head -4; done
  gzip -9 "$W"/*.json 2>/dev/null
  echo "A/B done at $SECONDS s"
)
bash "$ROOT/scripts/gpu-v19e.sh"
