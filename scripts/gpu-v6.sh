#!/usr/bin/env bash
# Sixth session, after tuning run 5 (the first with `.lpt` in the h200 space), in one device call
# (repo root, .gpu/ staged by scripts/stage-gpu.sh from a build against the promoted header):
#   dispatch  the dispatch and production tests: every tuned problem of the recorded store is
#             routed to its rule's variant by a Shape and computed correctly through it, so the
#             library's own `.lpt` path (the Shape's row order) runs on every rule that has one
#   ncu       Nsight Compute (full set, warm L2: --cache-control none, the 10th of 10 launches)
#             on the seed shape with the tuned variant, cora's tpr128 variant and the seed
#             kernel: where the 3.2 us of target 3's warm kernel go
# Logs are packed into $OUT/v6.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v6

step dispatch timeout 300 "$BIN/gpu_tests" --gtest_filter='Dispatch.*:Production.*' > "$W/dispatch.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|via " "$W/dispatch.log" | head -30

seed="seed:n=384,deg=18,seed=1"
for v in csrgat.tpr32.fl8.rpb4.vec4.t2.g2.smem0.online.split0.i32.f32 \
         csrgat.tpr128.fl8.rpb1.vec4.t2.mb8.smem0.online.split0.i32.f32 seed.i32.f32; do
  step "ncu-$v" timeout 150 ncu --clock-control none --cache-control none --set full \
    --nvtx --nvtx-include "csrgat\/seed_384\/$v\/profile/" --launch-skip 9 --launch-count 1 \
    "$T" profile --graph "$seed" --name seed_384 --feat 64 --variant "$v" --iters 10 > "$W/ncu-$v.txt" 2>&1
  grep -E " Duration|Elapsed Cycles|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Executed Instructions  |L2 Hit Rate|L1/TEX Hit|Block Size|Grid Size|Waves Per SM|No Eligible" "$W/ncu-$v.txt" | head -16
done
echo "done at $SECONDS s"
