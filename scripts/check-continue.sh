#!/usr/bin/env bash
# GPU check of `tuner run --continue` (run by scripts/gpu-check.sh after the smoke run, on the
# GPU machine). A device call is one machine, so a run stopped on "another GPU" is made from
# the smoke run's store: a copy whose run names another GPU, is unfinished, and has its last
# problem part-done (finish mark and full trials removed). Then:
#   1. a plain `tuner run` there must not touch it: it starts a new run and says --continue
#      would carry the finished problems over (it is stopped at once, before compiling);
#   2. `tuner run --continue` must carry every finished problem (no worker builds them), measure
#      the part-done one again on this GPU, finish, and write the header;
#   3. the stopped run must keep every trial it had;
#   4. `tuner run --reuse` of the config with cora searching its own space must take every
#      other problem from the finished continuation (no worker builds them), measure cora here,
#      finish, and name the runs it took from in the header.
# Usage: check-continue.sh [SMOKE_OUTPUT_DIR]   (default runs/smoke)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
SRC="${1:-$ROOT/runs/smoke}"
[ -f "$SRC/results.sqlite" ] || { echo "no smoke store at $SRC/results.sqlite (run the smoke run first)"; exit 2; }
D="$(mktemp -d "${TMPDIR:-/tmp}/csrgat-continue.XXXXXX")"
# The config beside the smoke config (its graph paths are relative to its folder), writing
# into $D.
CFGC="configs/.continue-check.yaml"
pid=""
CFGR="configs/.reuse-check.yaml"
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$D" "$CFGC" "$CFGR"' EXIT
python3 - "$SRC/results.sqlite" "$D/results.sqlite" <<'PY'
import sqlite3, sys
src, dst = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
src.backup(dst)
run = dst.execute("select max(id) from runs").fetchone()[0]
probs = dst.execute("select graph, feat, heads from problems where run_id=? order by graph, feat, heads", (run,)).fetchall()
assert len(probs) >= 2, "the smoke run marked %d problems finished" % len(probs)
g, f, h = probs[0]  # cora F=64 in the smoke config: the part-done one
# Every trace of this GPU in the copy becomes the other machine's.
real = dst.execute("select gpu_uuid from runs where id=?", (run,)).fetchone()[0]
dst.execute("update runs set gpu_uuid='GPU-another-machine', finished=NULL where id=?", (run,))
dst.execute("update problems set gpu_uuid='GPU-another-machine' where run_id=?", (run,))
dst.execute("update trials set raw_json=replace(raw_json, ?, 'GPU-another-machine') where run_id=?", (real, run))
dst.execute("delete from problems where run_id=? and graph=? and feat=? and heads=?", (run, g, f, h))
dst.execute("delete from trials where run_id=? and graph=? and feat=? and heads=? and stage>0", (run, g, f, h))
dst.commit()
left = dst.execute("select count(*) from trials where run_id=?", (run,)).fetchone()[0]
open(sys.argv[2] + ".expect", "w").write("%d %s %d %d %d %d\n" % (run, g, f, h, len(probs) - 1, left))
PY
read -r RUN G F H CARRIED LEFT < "$D/results.sqlite.expect"
echo "stopped run $RUN: $CARRIED finished problems, $G F=$F H=$H part-done, $LEFT trials"
sed "s#^output:.*#output: $D#" configs/smoke.yaml > "$CFGC"
fail() { echo "FAIL: $*"; exit 1; }

# 1. Without --continue: a new run, and the hint. Stopped (SIGTERM: a background job of a
#    script ignores SIGINT) as soon as it starts compiling, which without the cache takes
#    longer than that, so it measures nothing and --continue may drop that empty run.
"$T" run "$CFGC" > "$D/plain.log" 2>&1 &
pid=$!
for _ in $(seq 1200); do grep -q "^compiling" "$D/plain.log" && break; sleep 0.1; done
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || true
pid=""
grep -q "tuner run --continue would carry" "$D/plain.log" || { cat "$D/plain.log"; fail "no hint to continue"; }
mkdir -p "$D/cache" && cp -r "$SRC/cache/." "$D/cache/" 2>/dev/null || true

# 2. --continue.
"$T" run "$CFGC" --continue > "$D/cont.log" 2>&1 || { tail -30 "$D/cont.log"; fail "tuner run --continue failed"; }
grep -E "continues run|finished before|on GPU [0-9]|trials measured|finished in|tuned header" "$D/cont.log" | head -20 || true
grep -q "continues run $RUN of GPU GPU-another-machine.*: $CARRIED finished problems carried over" "$D/cont.log" ||
  fail "the continuation did not say it carried $CARRIED problems of run $RUN"
[ "$(grep -c "finished before, on GPU GPU-another-machine" "$D/cont.log")" = "$CARRIED" ] ||
  fail "not every finished problem was taken from the store"
grep -qE "\] $G F=$F H=$H on GPU 0" "$D/cont.log" || fail "$G F=$F H=$H was not measured again here"
[ "$(grep -cE "\] .* on GPU 0: " "$D/cont.log")" = 1 ] || fail "a finished problem was measured again"
python3 - "$D/results.sqlite" "$RUN" "$LEFT" "$G" "$F" "$H" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
old, left, g, f, h = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
new, cont, fin = db.execute("select id, continued_from, finished from runs order by id desc limit 1").fetchone()
assert cont == old and fin, (new, cont, fin)
assert db.execute("select count(*) from trials where run_id=?", (old,)).fetchone()[0] == left, "the stopped run lost trials"
gpus = {}
for gg, ff, hh, raw in db.execute("select graph, feat, heads, raw_json from trials where run_id=? and status='ok'", (new,)):
    gpus.setdefault((gg, ff, hh), set()).add((json.loads(raw or "null") or {}).get("gpu_uuid"))
for k, v in sorted(gpus.items()):
    assert len(v) == 1, "%s measured on %s" % (k, v)
    want_other = k != (g, f, h)
    assert (next(iter(v)) == "GPU-another-machine") == want_other, (k, v)
n = db.execute("select count(*) from problems where run_id=?", (new,)).fetchone()[0]
print("continued run %d: %d problems finished, each on one GPU; the stopped run kept its %d trials" % (new, n, left))
PY
[ -f "$D/include/csrgat/tuned/sm_90.h" ] || fail "no header written"
echo "PASS: tuner run --continue"

# 4. --reuse: cora searches its own space (no chunks); the rest keep their fingerprints.
sed -e "s#^output:.*#output: $D#" \
    -e 's#^\(  - {name: cora, .*feat: \[64\]\)}#\1, space: {split: [0]}}#' configs/smoke.yaml > "$CFGR"
grep -q "name: cora.*space: {split: \[0\]}" "$CFGR" || fail "could not give cora its own space"
"$T" run "$CFGR" --reuse > "$D/reuse.log" 2>&1 || { tail -30 "$D/reuse.log"; fail "tuner run --reuse failed"; }
grep -E -- "--reuse|from run|on GPU [0-9]|finished in|tuned header" "$D/reuse.log" | head -20 || true
TOTAL=$((CARRIED + 1))
grep -q -- "--reuse: $CARRIED of $TOTAL problems taken" "$D/reuse.log" || fail "--reuse did not take the $CARRIED unchanged problems"
[ "$(grep -cE "\] .* on GPU 0: " "$D/reuse.log")" = 1 ] || fail "--reuse measured more than the changed problem"
grep -qE "\] cora F=64 H=1 on GPU 0" "$D/reuse.log" || fail "cora, whose space changed, was not measured"
python3 - "$D/results.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
new, fin = db.execute("select id, finished from runs order by id desc limit 1").fetchone()
assert fin, "the --reuse run is not finished"
rows = db.execute("select graph, feat, heads, from_run from problems where run_id=?", (new,)).fetchall()
measured = [r for r in rows if r[3] is None]
assert [r[0] for r in measured] == ["cora"], rows
assert all(r[3] and r[3] < new for r in rows if r[0] != "cora"), rows
print("--reuse run %d: %d problems, %d taken from runs %s, cora measured here"
      % (new, len(rows), len(rows) - 1, sorted({r[3] for r in rows if r[3]})))
PY
grep -q "took finished problems of run" "$D/include/csrgat/tuned/sm_90.h" || fail "the header does not name the runs it took from"
echo "PASS: tuner run --reuse"
