#!/usr/bin/env bash
# Thirteenth session, call 5: tuning for overlapped launches. `tuner run configs/h200-overlapped.yaml`
# (the one-wave small graphs, warm L2, CUDA Graph replays, each launch overlapping the previous
# kernel: timing.overlap_previous), then each graph's overlapped winner against the shipped
# header's rule (run 4, tuned for cold single launches) side by side, warm and overlapped and
# plain, round-robin in 10 rounds, and cold (GPU time, single launches).
# Logs, JSON, the run's header and report are packed into $OUT/v13c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13c

step run timeout 450 "$T" run configs/h200-overlapped.yaml > "$W/run.log" 2>&1
tail -n 15 "$W/run.log"
R="$ROOT/runs/h200-overlapped"
H="$R/include/csrgat/tuned/sm_90.h"
cp "$H" "$W/sm_90.h" 2>/dev/null; cp -r "$R/report" "$W/report" 2>/dev/null
# Each graph's winner, meant to be read from the header's kernel lines. As run in call 5 this
# was wrong: a kernel line names every graph whose rules use that kernel, not each graph's
# winner, so cora and citeseer came out twice (their second JSON replaced the first) and the
# seed shape got a rule's kernel. The per-graph winners are in run.log's summary table
# (perf-notes, thirteenth session, call 5).
python3 - "$H" > "$W/winners.txt" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"\s*X\(k\d+,.*\) /\* (\S+?): .*graphs ([^*]+?) \*/", line)
    if m:
        for g in m.group(2).split(", "):
            print(g.strip(), m.group(1))
PY
cat "$W/winners.txt"
spec() { case "$1" in seed_384) echo "seed:n=384,deg=18,seed=1";; *) echo "$G/$1.mtx.gz";; esac; }
while read -r g id; do
  step "warm-$g" timeout 90 "$T" bench --graph "$(spec "$g")" --feat 64 \
    --impl "tuned,tuned:pdl,$id,$id:pdl" --cache warm --graph-replay \
    --max-seconds 0.3 --max-samples 300 --rounds 10 --json "$W/warm-$g.json" | grep -E 'tuned|csrgat|wrong|error'
  step "cold-$g" timeout 90 "$T" bench --graph "$(spec "$g")" --feat 64 --impl "tuned,$id" \
    --max-seconds 0.3 --max-samples 300 --rounds 10 --json "$W/cold-$g.json" | grep -E 'tuned|csrgat|wrong|error'
done < "$W/winners.txt"
echo "done at $SECONDS s"
