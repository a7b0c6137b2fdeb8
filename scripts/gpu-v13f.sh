#!/usr/bin/env bash
# Thirteenth session, call 9: the overlapped-launch check against a previous kernel that writes
# the inputs late (verify_after_late_producer): its GPU test over the kernel forms (with the
# control that a launch not waiting fails it), the library's tests, `tuner run
# configs/h200-overlapped.yaml` (every trial now checked that way before it is timed) and
# `tuner bench ... :pdl` (the same check). Packed into $OUT/v13f.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13f
step gpu_tests timeout 300 "$BIN/gpu_tests" --gtest_filter='OverlapVariants.*:Production.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|detail|Expected|Which is" "$W/gpu_tests.log" | head -40
step run timeout 300 "$T" run configs/h200-overlapped.yaml > "$W/run.log" 2>&1
tail -n 12 "$W/run.log"
step bench timeout 90 "$T" bench --graph "seed:n=384,deg=18,seed=1" --graph "$G/cora.mtx.gz" --feat 64 \
  --impl "tuned:pdl,csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split64.pf.i32.f32:pdl,empty:pdl" \
  --cache warm --graph-replay --max-seconds 0.2 --rounds 5 --json "$W/bench.json" | grep -E 'pdl|wrong|error'
echo "done at $SECONDS s"
