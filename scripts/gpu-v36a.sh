#!/usr/bin/env bash
# Thirty-sixth session, call 1 (stage `tuner`; full staging for the tune): the sweep's barrier
# pause as part of its id (`.pp<N>`). First configs/h200-colblock.yaml on uniform 2M, f32 and bf16,
# with counters (`v36a.tgz`); then run 21, a fresh tune of configs/h200.yaml whose uniform 2M
# problem also times three `.pp` sweeps (scripts/gpu-multi.sh: store, header, report in multi.tgz).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
(
  source "$D/gpu-env.sh"
  out_dir v36a
  sed "s#^output:.*#output: $W/run#" configs/h200-colblock.yaml > configs/.colblock-out.yaml
  step run timeout -s INT 120 "$T" run configs/.colblock-out.yaml > "$W/run.log" 2>&1
  grep -E "finished|tuned header|error|best" "$W/run.log" | head
  python3 - "$W/run/results.sqlite" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for v, st, us, c in db.execute("select variant, status, median_us, counters_json from trials where stage = 1 or variant like 'colblock%' order by variant"):
    vals = (json.loads(c or 'null') or {}).get('values', {})
    d = (vals.get('dram__bytes_read.sum', 0) + vals.get('dram__bytes_write.sum', 0)) / 1e9
    l2 = vals.get('lts__t_bytes.sum', 0) / 1e9
    print(f"{v:60s} {st:8s} {us or 0:10.1f} us  DRAM {d:6.2f} GB  L2 {l2:6.2f} GB")
PY
)
CFG=configs/h200.yaml LIMIT="${LIMIT:-420}" bash "$D/gpu-multi.sh"
