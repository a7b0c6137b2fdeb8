#!/usr/bin/env bash
# Thirty-first session, call 5: (1) colblock_probe with a step's counter spread over 128 lines
# in 16 ring slots (call 4: ~4.2 us a step whatever the lag, as if the additions to one line
# serialised), and Nsight Compute's warp-stall reasons on one launch of the barrier-free sweep
# and of a barrier sweep; (2) the tuner's run after its job queue (a failed preparation goes to
# the other GPUs), the info worker's early end and the interleaved stage's throttle and timer
# fields: the library and worker GPU tests, the smoke tuning run with --continue/--reuse, and
# the smoke run's stage-2 trials as stored.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v31f
step colblock_probe timeout 300 "$BIN/colblock_probe" "$W/colblock_probe.json" 2>&1 | tee "$W/colblock_probe.log"
for c in 16,16,-1,16 16,8,3,16; do
  step "ncu $c" timeout -k 5 150 ncu --clock-control none -k regex:sweep_gather --launch-count 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed' \
    --csv --page raw "$BIN/colblock_probe" "$W/once-$c.json" --config "$c" --once > "$W/ncu-$c.csv" 2> "$W/ncu-$c.err"
  tail -3 "$W/ncu-$c.err"; wc -l < "$W/ncu-$c.csv"
done
step tests timeout 240 "$BIN/gpu_tests" --gtest_filter='Production.*:CApi.*:Dispatch.*:WorkerOps.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/tests.log" | tail -12
step smoke timeout 300 "$T" run configs/smoke.yaml > "$W/smoke.log" 2>&1; tail -n 3 "$W/smoke.log"
python3 - runs/smoke/results.sqlite <<'PY' | tee "$W/stage2.txt"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute("SELECT graph, feat, heads, variant, timer, throttled, samples, median_us "
                      "FROM trials WHERE stage = 2 ORDER BY graph, feat, heads, median_us"):
    print(*row)
PY
step continue timeout 200 bash scripts/check-continue.sh runs/smoke > "$W/continue.log" 2>&1; grep -E "^PASS|^FAIL" "$W/continue.log"
pgrep -fa "tuner worker" || echo "no tuner worker left running"
echo "done at $SECONDS s"
