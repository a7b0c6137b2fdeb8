#!/usr/bin/env bash
# A probe config (CFG, default configs/h200-colblock.yaml: the column-blocked sweep's geometry
# experiments) in a fresh store, then each trial's time with its DRAM and L2 bytes (counters on in
# the config). NAME (default probe): the pack's name, $OUT/NAME.tgz. Stage `tuner`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir "${NAME:-probe}"
sed "s#^output:.*#output: $W/run#" "${CFG:-configs/h200-colblock.yaml}" > configs/.probe-out.yaml
step run timeout -s INT 150 "$T" run configs/.probe-out.yaml > "$W/run.log" 2>&1
grep -E "finished|tuned header|error|best" "$W/run.log" | head
python3 - "$W/run/results.sqlite" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for v, st, us, c in db.execute("select graph || ' ' || variant, status, median_us, counters_json from trials where stage = 1 or variant like 'colblock%' order by graph, variant"):
    vals = (json.loads(c or 'null') or {}).get('values', {})
    d = (vals.get('dram__bytes_read.sum', 0) + vals.get('dram__bytes_write.sum', 0)) / 1e9
    l2 = vals.get('lts__t_bytes.sum', 0) / 1e9
    print(f"{v:80s} {st:8s} {us or 0:10.1f} us  DRAM {d:6.2f} GB  L2 {l2:6.2f} GB")
PY
