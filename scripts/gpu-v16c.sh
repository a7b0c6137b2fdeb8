#!/usr/bin/env bash
# Sixteenth session's experiment, for the next session: tuner run configs/h200-subwarp.yaml
# (sub-warp groups with chunks of 16-64 edges beside run 7's warp shapes on the skewed small
# graphs; predictions in perf-notes), then the report's summary and per-family bests.
# Logs, the store (gzipped) and the report are packed into $OUT/v16c.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v16c

step subwarp_run timeout 400 "$T" run configs/h200-subwarp.yaml > "$W/subwarp_run.log" 2>&1
tail -n 8 "$W/subwarp_run.log"
if [ -f runs/h200-subwarp/results.sqlite ]; then
  python3 - runs/h200-subwarp/results.sqlite <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select graph, substr(variant, 1, instr(substr(variant, 8), '.') + 6) fam,
                            min(median_us), count(*) from trials where status = 'ok'
                     group by graph, fam order by graph, 3""").fetchall()
for g, fam, us, n in rows:
    print(f"{g:18s} {fam:14s} {us:9.2f} us  ({n} trials)")
PY
  cp -r runs/h200-subwarp/report "$W/report" 2>/dev/null
  gzip -9c runs/h200-subwarp/results.sqlite > "$W/results.sqlite.gz"
fi
echo "done at $SECONDS s"
