#!/usr/bin/env bash
# Nineteenth session, call 1 (perf-notes, "Nineteenth session"):
#  1. every GPU test on this tree (af476e4's random_graph helper had not run on a GPU);
#  2. the one-tile fl16 kernels that run 10 measured up to 33% slower than run 9 (tuner
#     compare): this tree's build against a42c470's (.gpu/bin/tuner-head, the commit before the
#     first-gathers change), by id, cold GPU time, alternating builds twice; then Nsight
#     Compute's per-instruction sampling of the slashdot one from both builds;
#  3. citeseer taken apart: its rule and its one-wave and short-chunk alternatives by id, cold
#     and warm, beside a uniform graph of the same rows and about the same edges (no long rows).
set -uo pipefail
NCU_TIMEOUT=90
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v19a
B=(--max-seconds 0.3 --max-samples 300 --rounds 3)
gpu_tests_until 200 '*'

fl16=csrgat.tpr32.fl16.rpb4.vec4.t1.g2.smem0.online
AB="$fl16.split1024.pf.i32.f32,$fl16.split1024.i32.f32,csrgat.tpr16.fl16.rpb8.vec4.t1.g2.smem0.online.split512.lpt.i32.f32"
for i in 1 2; do
  for bin in tuner tuner-head; do
    step "fl16-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "$G/soc-slashdot0902.mtx.gz" \
      --graph "$G/cora.mtx.gz" --feat 64 --impl "$AB,tuned" "${B[@]}" \
      --json "$W/fl16-$bin-$i.json" > "$W/fl16-$bin-$i.txt" 2>&1
  done
done
python3 scripts/ab_table.py "$W" fl16 tuner tuner-head tree a42c470
step sass_fl16_tree ncu_sass slashdot-tree "$G/soc-slashdot0902.mtx.gz" "$fl16.split1024.i32.f32"
T="$BIN/tuner-head" step sass_fl16_head ncu_sass slashdot-head "$G/soc-slashdot0902.mtx.gz" "$fl16.split1024.i32.f32"

w32=csrgat.tpr32.fl8.rpb4.vec4.t2
s16=csrgat.tpr16.fl16.rpb8.vec4.t1.g4
s8=csrgat.tpr8.fl8.rpb16.vec4.t2.g4
CS="tuned,$w32.g8.smem0.online.split0.pf.i32.f32,$w32.g4.mb7.smem0.online.split0.pf.i32.f32"
CS+=",$w32.g4.mb8.smem0.online.split0.pf.i32.f32,$s16.smem0.online.split16.lpt.pf.i32.f32"
CS+=",$s16.smem0.online.split8.lpt.pf.i32.f32,$s16.smem0.online.split4.lpt.pf.i32.f32"
CS+=",$s16.mb8.smem0.online.split8.lpt.pf.i32.f32,$s8.smem0.online.split8.lpt.pf.i32.f32"
CS+=",$s8.smem0.online.split4.lpt.pf.i32.f32"
# two rows per warp with two edge slots each (tpr16 fl8, out of the space since run 7)
CS+=",csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split0.pf.i32.f32"
CS+=",csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.i32.f32"
CS+=",csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split8.lpt.pf.i32.f32,empty"
for cache in cold warm; do
  step "citeseer-$cache" timeout 120 "$T" bench --graph "$G/citeseer.mtx.gz" \
    --graph "uniform:n=3327,deg=3,seed=1" --feat 64 --impl "$CS" --cache "$cache" "${B[@]}" \
    --json "$W/citeseer-$cache.json" > "$W/citeseer-$cache.txt" 2>&1
done
python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
rows = {}
for cache in ("cold", "warm"):
    for r in json.load(open(f"{w}/citeseer-{cache}.json"))["results"]:
        g = r["graph"].split("/")[-1].replace(".mtx.gz", "")
        rows.setdefault((g, r["impl"]), {})[cache] = r["gpu_median_us"]
for (g, impl), t in rows.items():
    print(f"{g:24s} {impl[:72]:72s} cold {t.get('cold', 0):7.2f}  warm {t.get('warm', 0):7.2f}")
PY
gzip -9 "$W"/*.csv 2>/dev/null
echo "done at $SECONDS s"
