#!/usr/bin/env bash
# Fifteenth session, sixth call: run 7's header (the whole lab tuned in one call, call 5) in the
# library. prof_check, then the run of record (scripts/gpu-final.sh with SKIP_CHECK=1: the
# dispatch and library tests on the new header first) -> $OUT/final.tgz, then the rules that
# run 7 changed against run 6's, by id in one process, round-robin, cold GPU time ->
# $OUT/v15e.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
mkdir -p "${OUT:-.gpu/out}/p"
step prof_check timeout 120 "$BIN/prof_check" "${OUT:-.gpu/out}/p/prof_check.json" | tail -n 2
SKIP_CHECK=1 bash scripts/gpu-final.sh 2>&1 | grep -E "^=== |^--- exit|^\[ +(OK|FAILED|PASSED|SKIPPED) |done at"
out_dir v15e
w=csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online
for g in citeseer wiki-vote; do
  step "rules-$g" timeout 60 "$T" bench --graph "$G/$g.mtx.gz" --feat 64 \
    --impl "$w.split32.pf.i32.f32,$w.split64.lpt.pf.i32.f32,$w.split256.lpt.pf.i32.f32" \
    --rounds 10 --max-seconds 0.3 --max-samples 300 --json "$W/rules-$g.json" | tail -n 5
done
p=csrgat.tpr8.fl8.rpb16.vec4.t2
step rules-pubmed-h8 timeout 60 "$T" bench --graph "$G/pubmed.mtx.gz" --feat 64 --heads 8 \
  --impl "$p.g4.smem3.online.split512.lpt.i32.f32,$p.g2.smem3.online.split512.lpt.i32.f32" \
  --rounds 10 --max-seconds 0.3 --max-samples 300 --json "$W/rules-pubmed-h8.json" | tail -n 4
echo "done at $SECONDS s"
