#!/usr/bin/env bash
# Thirteenth session, call 7: Nsight Compute's per-instruction warp sampling of the seed shape's
# tuned kernel with this session's kernels (plain launch, L2 warm), as the twelfth session's
# call 1 took it (docs/data/v12/call1/v12/ncu-seed-sass.csv.gz), to compare instruction counts and
# where the warps wait. Packed into $OUT/v13d.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13d
id=csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.pf.i32.f32
step ncu-seed timeout 150 ncu --cache-control none --clock-control none --section WarpStateStats \
  --section SourceCounters --section LaunchStats --section Occupancy -k regex:csrgat_fused --launch-skip 3 \
  --launch-count 1 --page source --print-source sass --csv \
  "$T" profile --graph "seed:n=384,deg=18,seed=1" --name seed --variant "$id" --feat 64 --iters 5 > "$W/ncu-seed-sass.csv" 2> "$W/ncu-seed.err"
head -c 600 "$W/ncu-seed.err"; wc -l "$W/ncu-seed-sass.csv"
echo "done at $SECONDS s"
