#!/usr/bin/env bash
# Target 3 of issue 7 side by side: the seed shape's tuned call against an empty kernel timed
# the same way, cold (L2 flushed, CUDA events, launch included; three runs to show the spread)
# and warm (CUDA Graph replay). JSON to $OUT (or .gpu/out).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
S=(--graph "seed:n=384,deg=18,seed=1" --feat 64 --max-seconds 0.5 --max-samples 500)
for i in 1 2 3; do
  "$T" bench "${S[@]}" --impl empty,tuned,seed,cusparse --events --json "$O/launch-floor-cold-$i.json"
done
"$T" bench "${S[@]}" --impl empty,tuned,seed --cache warm --graph-replay --json "$O/launch-floor-warm.json"
