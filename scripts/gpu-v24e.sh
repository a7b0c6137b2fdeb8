#!/usr/bin/env bash
# Twenty-fourth session, call 8: the library's kernels against the tuner's. The production library
# compiles the header's kernels with nvcc; the tuner timed them compiled by NVRTC. The same source
# gives different SASS (scheduling and registers: 1970-2388 of ~4400-5900 lines differ for the
# seed's and cora's rules, 850 for citeseer's; checked here without a GPU), and call 7 timed
# citeseer's rule 4.45 us through the library against 4.35 us through NVRTC. Here every tuned
# small graph's rule both ways, side by side, cold GPU time, five rounds.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v24e
while read -r g v; do
  spec="$G/$g.mtx.gz"; [ "$g" = seed ] && spec="seed:n=384,deg=18,seed=1"
  step "lib-vs-rtc-$g" timeout 60 "$T" bench --graph "$spec" --feat 64 --impl "tuned,$v" \
    --max-seconds 0.4 --max-samples 300 --rounds 5 --json "$W/$g.json" > "$W/$g.txt" 2>&1
  awk '$2 == 64 {printf "%-18s %-10s %8s\n", g, ($3 == "tuned" ? "library" : "nvrtc"), $5}' g="$g" "$W/$g.txt"
done <<'LIST'
seed csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.pf.i32.f32
cora csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split24.pf.bm.i32.f32
citeseer csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32
pubmed csrgat.tpr8.fl8.rpb16.vec4.t2.g2.smem0.online.split16.lpt.pf.bm.i32.f32
wiki-vote csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split128.lpt.pf.bm.i32.f32
ca-astroph csrgat.tpr8.fl8.rpb16.vec4.t2.g4.mb6.smem0.online.split48.lpt.pf.bm.i32.f32
cit-hepph csrgat.tpr8.fl8.rpb16.vec4.t2.g4.mb6.smem0.online.split64.lpt.pf.bm.i32.f32
soc-slashdot0902 csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem0.online.split48.lpt.pf.bm.i32.f32
LIST
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
