#!/usr/bin/env bash
# Nineteenth session, call 6 (perf-notes, "What the measurements say to do next"): Nsight
# Compute's per-instruction sampling of run 11's citeseer rule (tpr32 g4 mb6 split32 .pf.bm),
# and of cora's run-10 rule with and without .bm (call 3: +8.2% with it), with each launch's
# duration and SM activity, cold, one launch each.
set -uo pipefail
NCU_TIMEOUT=45
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v19f
step sass_citeseer ncu_sass citeseer "$G/citeseer.mtx.gz" csrgat.tpr32.fl8.rpb4.vec4.t2.g4.mb6.smem0.online.split32.pf.bm.i32.f32
c=csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split32.pf
for v in "cora-bm:$c.bm.i32.f32" "cora-nobm:$c.i32.f32"; do
  name=${v%%:*} id=${v#*:}
  step "sass_$name" ncu_sass "$name" "$G/cora.mtx.gz" "$id"
  step "time_$name" timeout -k 5 45 ncu --clock-control none --csv --page raw \
    --metrics gpu__time_duration.sum,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    --nvtx --nvtx-include "csrgat\/$name\/$id\/profile/" --launch-skip 1 --launch-count 3 \
    "$T" profile --graph "$G/cora.mtx.gz" --name "$name" --variant "$id" --iters 5 > "$W/time-$name.csv" 2>&1
  grep -E "gpu__time|csrgat_fused" "$W/time-$name.csv" | cut -c1-400 | tail -4
done
gzip -9 "$W"/*sass.csv
echo "done at $SECONDS s"
