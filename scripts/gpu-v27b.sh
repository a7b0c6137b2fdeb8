#!/usr/bin/env bash
# Twenty-seventh session, call 2: the `.pf` prefetch from each first-wave block's last thread
# (this tree, `tuner`) against thread 0 (its parent, `tuner-head`).
#   caps    citeseer and its capped copies (scripts/cap_graph.py, as in gpu-v27a.sh), the rule
#           with and without `.pf`, both builds, cold then warm, five rounds
#   ab      the tuned dispatch of both builds side by side on the seed shape and the seven real
#           graphs, five rounds (ab_tuned)
# (The GPU checks of this build come with the run of record, gpu-v19e.sh, in the next call.)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27b
caps=(--graph "$G/citeseer.mtx.gz")
for ck in "8 0" "8 1" "16 0"; do
  set -- $ck
  python3 scripts/cap_graph.py "$G/citeseer.mtx.gz" "$W/citeseer-cap$1-keep$2.mtx.gz" --cap "$1" --keep "$2" > /dev/null
  caps+=(--graph "$W/citeseer-cap$1-keep$2.mtx.gz")
done
rule=csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.pf.bm.i32.f32
nopf=csrgat.tpr16.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.bm.i32.f32
for cache in cold warm; do
  for bin in tuner tuner-head; do
    step "caps-$cache-$bin" timeout 120 "$BIN/$bin" bench "${caps[@]}" --feat 64 --impl "$rule,$nopf" --cache "$cache" \
      --rounds 5 --max-seconds 0.3 --max-samples 300 --json "$W/caps-$cache-$bin.json" > "$W/caps-$cache-$bin.txt" 2>&1
    awk 'NR > 1 { printf "  %-45s %-8s %s\n", substr($1, length($1) - 40), ($3 ~ /\.pf\./ ? "pf" : "no-pf"), $5 }' "$W/caps-$cache-$bin.txt"
  done
done
ab_tuned 5 tuner tuner-head | tee "$W/ab-table.txt"
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
