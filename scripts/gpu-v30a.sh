#!/usr/bin/env bash
# Thirtieth session, call 1: row-only slices (`.fsr<T>`: the split rows' chunks in one launch
# over all F, then the row tasks in T slices). The GPU tests that run them, then power-law 1M
# and R-MAT scale 20 (f32, F = 64) cold, side by side in rounds (tuner bench --rounds 5): the
# tuned dispatch, its rule as an id, `.fsr2` twins of it (t1: 32 features a slice) at two
# gather depths and two chunk lengths, and the `.fs2` twin run 17 measured at +16%.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v30a
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv,noheader
step tests timeout 300 "$BIN/gpu_tests" \
  --gtest_filter='GpuCorrectness.FeatureSlices:OverlapVariants.*:Dispatch.*:Production.*:CApi.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|failed" "$W/tests.log" | head -40
R=csrgat.tpr8.fl8.rpb16.vec4.t2.g2.mb8.smem3.online.split1024.lpt.i32.f32
S=csrgat.tpr8.fl8.rpb16.vec4.t1
I="tuned,$R,$S.g2.mb8.smem3.online.split1024.lpt.fsr2.i32.f32,$S.g4.mb8.smem3.online.split1024.lpt.fsr2.i32.f32"
I="$I,$S.g2.mb8.smem3.online.split512.lpt.fsr2.i32.f32,$S.g2.mb8.smem3.online.split1024.lpt.fs2.i32.f32"
for g in "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1" "rmat:scale=20,ef=16,seed=1"; do
  n=${g%%:*}
  step "$n" timeout 200 "$T" bench --graph "$g" --feat 64 --impl "$I" --rounds 5 --max-seconds 3 \
    --counters --json "$W/$n.json" 2>&1 | tail -n 9
done
echo "done at $SECONDS s"
