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
for b in tuner/tuner tests/gpu_tests examples/production/production_example examples/production/production_c_example profiler/prof_check profiler/lat_ladder profiler/slice_probe profiler/colblock_probe profiler/l2_policy_probe \
         include/csrgat/libcsrgat_c.so; do
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
# What a device call carries (the tree and this folder), with a warning near the limit.
bash "$ROOT/scripts/device-tree.sh" size
