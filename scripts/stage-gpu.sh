#!/usr/bin/env bash
# Stages what a GPU-machine run needs into .gpu/ (git-ignored; name it in the device call's
# `carry`): the built binaries with their shared-library needs, and the shared graphs, which do
# not travel on their own. Build first (scripts/build.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CSRGAT_BUILD_DIR:-$ROOT/build}"
OUT="$ROOT/.gpu"
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/graphs"
for b in tuner/tuner tests/gpu_tests examples/production/production_example profiler/prof_check profiler/lat_ladder; do
  [ -x "$BUILD/$b" ] && cp "$BUILD/$b" "$OUT/bin/"
done
cp "${SHARED_GRAPHS:-$ROOT/../shared/graphs}"/*.mtx.gz "$OUT/graphs/"
# A device call carries at most 64 MiB, the tracked tree (~45 MiB with the recorded store of
# 13 runs) included: the binaries travel stripped and xz-compressed (7.5 MB against gzip's 10.7
# MB); gpu-env.sh unpacks them there (CSRGAT_STAGE_PACK=none keeps them as built).
if [ "${CSRGAT_STAGE_PACK:-xz}" = xz ]; then
  strip "$OUT"/bin/*
  xz -9 -T2 "$OUT"/bin/*
fi
du -sh "$OUT"
# What a device call carries: tracked and untracked-not-ignored files plus this folder (carry),
# at most 64 MiB by the device's count, which is larger than this one: the twenty-third
# session's call 6 was refused at 63.9 MiB counted here (the recorded store and docs/data are
# ~45 MB of the tracked files), so this warns above 60.
tree_bytes=$(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 du -cb 2> /dev/null | awk '$2 == "total" {t += $1} END {print t + 0}')
stage_bytes=$(du -sb "$OUT" | cut -f1)
total=$((tree_bytes + stage_bytes))
echo "a device call carries $((total / 1048576)) MiB: the tree $((tree_bytes / 1048576)), .gpu $((stage_bytes / 1048576)) (limit 64 MiB)"
if [ "$total" -gt $((60 * 1048576)) ]; then
  echo "stage-gpu: near or over the 64 MiB a device call carries: run 'scripts/device-tree.sh trim'" \
       "before the call (docs/data and docs/h200-report out of the working tree; 'restore' after)," \
       "or stage fewer binaries or graphs" >&2
fi
