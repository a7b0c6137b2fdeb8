#!/usr/bin/env bash
# Twelfth session, call 3: which part of the second kernel step moved the seed shape's
# overlapped warm time. Three builds, warm (CUDA Graph replay), plain and ':pdl', two
# alternating processes each: .gpu/bin/tuner-head (call 1's kernels), .gpu/bin/tuner-nbw (the
# early gathers only: every kernel waits at its task's start) and .gpu/bin/tuner (the early
# gathers and col before the wait). Logs and JSON are packed into $OUT/v12c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v12c
[ -f "$BIN/tuner-nbw.gz" ] && gunzip -f "$BIN/tuner-nbw.gz" && chmod +x "$BIN/tuner-nbw"
B=(--max-seconds 0.3 --max-samples 300 --rounds 10)
for i in 1 2; do
  for bin in tuner tuner-nbw tuner-head; do
    for g in seed cora; do
      spec="$G/$g.mtx.gz"; [ "$g" = seed ] && spec="seed:n=384,deg=18,seed=1"
      step "warm-$bin-$g-$i" timeout 60 "$BIN/$bin" bench --graph "$spec" --feat 64 --impl "tuned,tuned:pdl" \
        --cache warm --graph-replay "${B[@]}" --json "$W/warm-$bin-$g-$i.json" | grep tuned
    done
  done
done
echo "done at $SECONDS s"
