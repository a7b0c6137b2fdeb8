# Sourced after gpu-env.sh and out_dir by the per-call A/B scripts (gpu-v13.sh on): this tree's
# build (.gpu/bin/tuner) against another commit's (.gpu/bin/tuner-head), alternating processes.
#   rule[GRAPH]    the header's variant for the graph (run 6's rules, ids without .i32.f32)
#   spec GRAPH     the graph's tuner spec
#   ab_warm IMPLS GRAPH...   graph replay, round-robin in 10 rounds, two processes per build
#   ab_cold GRAPH...         the header's rule, plain launches, cold GPU time, two per build
#   ab_large GRAPH...        the same for large graphs: this tree, HEAD's, this tree again
w=csrgat.tpr32.fl8.rpb4.vec4.t2 t=.smem0.online
declare -A rule=(
  [seed]="$w.g8$t.split0.pf" [cora]="$w.g4$t.split32.pf" [citeseer]="$w.g4$t.split32.pf"
  [wiki-vote]="$w.g4$t.split64.lpt.pf" [pubmed]="$w.mb8$t.split64.lpt.pf"
  [soc-slashdot0902]="$w.mb8$t.split256.lpt.pf"
  [uniform1m]="csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split0")
spec() { case "$1" in seed) echo "seed:n=384,deg=18,seed=1";; uniform1m) echo "uniform:n=1000000,deg=16,seed=1";;
         *) echo "$G/$1.mtx.gz";; esac; }
ab_warm() {
  local impls="$1"; shift
  for bin in tuner tuner-head tuner tuner-head; do
    for g in "$@"; do
      step "warm-$bin-$g" timeout 60 "$BIN/$bin" bench --graph "$(spec "$g")" --feat 64 --impl "$impls" \
        --cache warm --graph-replay --max-seconds 0.3 --max-samples 300 --rounds 10 \
        --json "$W/warm-$bin-$g-$SECONDS.json" | grep -E 'tuned|wrong|error'
    done
  done
}
ab_cold() {
  for i in 1 2; do
    for bin in tuner tuner-head; do
      for g in "$@"; do
        step "head-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$(spec "$g")" --feat 64 --impl "${rule[$g]}.i32.f32" \
          --max-seconds 0.3 --max-samples 300 --json "$W/head-$bin-$g-$i.json" | tail -n 2
      done
    done
  done
}
ab_large() {
  for bin in tuner tuner-head tuner; do
    for g in "$@"; do
      step "head-$bin-$g" timeout 90 "$BIN/$bin" bench --graph "$(spec "$g")" --feat 64 --impl "${rule[$g]}.i32.f32" \
        --max-seconds 0.3 --max-samples 100 --json "$W/head-$bin-$g-$SECONDS.json" | tail -n 2
    done
  done
}
