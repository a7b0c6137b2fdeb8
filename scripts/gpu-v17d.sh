#!/usr/bin/env bash
# Seventeenth session, call 4 (perf-notes, "Call 4"): tuner run configs/h200-chunks.yaml (chunk
# lengths between the powers of two, launch bounds for six to eight blocks per SM), then each
# graph's best id against the shipped header's dispatch, side by side, cold, round-robin.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v17d
step chunks_run timeout 400 "$T" run configs/h200-chunks.yaml > "$W/chunks_run.log" 2>&1
tail -n 12 "$W/chunks_run.log"
S=runs/h200-chunks/results.sqlite
[ -f "$S" ] || exit 1
gzip -9c "$S" > "$W/h200-chunks.sqlite.gz"
python3 - "$S" <<'PY' | tee "$W/best.txt"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
q = """select graph, variant, median_us from trials t where status = 'ok' and stage =
       (select max(stage) from trials u where u.graph = t.graph and u.status = 'ok') order by graph, median_us"""
seen = {}
for g, v, us in db.execute(q):
    seen.setdefault(g, []).append((us, v))
for g, l in seen.items():
    for us, v in l[:4]:
        print(f"{g:17s} {us:8.2f} us  {v}")
print("per chunk length, ca-astroph / cit-hepph / cora, best of stage 0:")
for g in ("ca-astroph", "cit-hepph", "cora"):
    row = db.execute("""select substr(variant, instr(variant, '.split'), 8), min(median_us) from trials
                        where graph = ? and stage = 0 and status = 'ok' group by 1 order by 2""", (g,)).fetchall()
    print(f"  {g:12s} " + "  ".join(f"{s.strip('.')}:{us:.2f}" for s, us in row))
PY
for g in ca-astroph cit-hepph soc-slashdot0902 pubmed wiki-vote cora citeseer; do
  best=$(awk -v g="$g" '$1 == g {print $4; exit}' "$W/best.txt")
  step "ab-$g" timeout 60 "$T" bench --graph "$G/$g.mtx.gz" --feat 64 --impl "tuned,$best" --rounds 10 \
    --max-seconds 0.4 --max-samples 400 --json "$W/ab-$g.json" > "$W/ab-$g.txt" 2>&1
  tail -n 3 "$W/ab-$g.txt"
done
echo "done at $SECONDS s"
