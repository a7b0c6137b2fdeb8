#!/usr/bin/env bash
# Forty-seventh session, last call, on whichever GPU the `nvidia-h200` kind hands out:
# - on an H200: the run of record on run 25's header (scripts/gpu-v34e.sh, ~130 s), whose
#   prof_check now measures the DRAM read ceiling: the issue's table with each kernel's share of
#   the H200's read roof (PEERS=0 passes on to it: no PyG step, ~50 s);
# - on any other GPU: every GPU test on the session's last tree (~110 s: the ceilings, the
#   worker, the dispatch, the library), then a small tuning run (configs/regress.yaml, counters
#   off) and its report, end to end: the run's stored ceilings carry dram_read_gbs, so the
#   report lists the DRAM read ceiling and takes the higher of it and the copy's as its roof.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
first_gpu
[[ "$GPU_NAME" == *H200* ]] && exec bash "$ROOT/scripts/gpu-v34e.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
# GPU_TESTS=0 leaves the GPU tests out (when little device time is left).
if [ "${GPU_TESTS:-1}" != 0 ]; then
  step gpu_tests timeout -k 5 200 "$BIN/gpu_tests" > "$O/gpu_tests.log" 2>&1
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) |tests? ran|^ceilings on" "$O/gpu_tests.log" | head -20
fi
rm -rf runs/regress
step regress timeout -k 5 150 "$T" run configs/regress.yaml > "$O/regress.log" 2>&1
tail -n 5 "$O/regress.log"
step report "$T" report runs/regress -o "$O/report" 2>&1 | tail -n 2
grep -E "^\| DRAM (copy|read) |compulsory bytes at the DRAM" "$O/report/report.md" | cut -c1-160 | head -4
python3 -c 'import json, sys; print("report.json ceilings:", json.load(open(sys.argv[1]))["ceilings"])' "$O/report/report.json"
# The device returns at most 8 files: the report's Markdown and JSON are what the notes need.
find "$O/report" -type f ! -name report.md ! -name report.json -delete
echo "all done at $SECONDS s"
