#!/usr/bin/env bash
# GPU check of a GPU lost in the middle of a problem (run by scripts/gpu-check.sh, on the GPU
# machine, .gpu/ staged). configs/faults-lost-gpu.yaml crashes the worker on its last variant
# and then never builds the problem again (test_only.fail_reprepare), as an Xid would leave the
# GPU. Then:
#   1. the run must exit 1 and say that the problem could not be built again; its store must
#      hold every trial measured before the crash, none for the crashing variant (the crash may
#      have been the GPU's), and the problem and the run unfinished;
#   2. the same config without fail_reprepare (the same run: it is not part of the config's
#      identity) must resume that run, take the stored trials, measure the crashing variant
#      (now stored as crashed: its worker comes back), finish the problem and the run, exit 0.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
CFG="configs/faults-lost-gpu.yaml"
CFG2="configs/.lost-gpu-resume.yaml"   # beside it: its base and output are relative to configs/
OUTD="$ROOT/runs/faults-lost-gpu"
LOG="${OUT:-$ROOT/.gpu/logs}"; mkdir -p "$LOG"
trap 'rm -f "$CFG2"' EXIT
rm -rf "$OUTD"
set +e
"$T" run "$CFG" > "$LOG/lost-gpu-1.log" 2>&1
rc=$?
set -e
tail -n 6 "$LOG/lost-gpu-1.log"
fail() { echo "check-lost-gpu: FAILED: $*"; exit 1; }
[ "$rc" = 1 ] || fail "the run with a lost GPU exited $rc, not 1"
grep -q "could not build that problem again" "$LOG/lost-gpu-1.log" || fail "no message about the problem not built again"
python3 - "$OUTD/results.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
trials = db.execute("select variant, status from trials").fetchall()
fault = [t for t in trials if t[0].endswith(".fault1")]
ok = [t for t in trials if t[1] == "ok"]
finished = db.execute("select count(*) from problems where finished is not null").fetchone()[0]
run_done = db.execute("select finished from runs").fetchall()
print(f"after the lost GPU: {len(trials)} trials ({len(ok)} ok), fault variant rows {fault}, "
      f"finished problems {finished}, runs {run_done}")
assert not fault, "the crashing variant's trial was stored although its problem could not be built again"
assert len(ok) >= 9, "the trials before the crash were not all stored (8 fused and the seed)"
assert finished == 0, "the problem was marked finished"
assert all(r[0] is None for r in run_done), "the run was marked finished"
PY
sed 's/fail_reprepare: true/fail_reprepare: false/' "$CFG" > "$CFG2"
"$T" run "$CFG2" > "$LOG/lost-gpu-2.log" 2>&1 || fail "the resumed run exited $? ($LOG/lost-gpu-2.log)"
tail -n 6 "$LOG/lost-gpu-2.log"
# Only the crashing variant is measured; the trials before it are the stopped run's.
grep -qE "^1 trials measured now, (9|[1-9][0-9]+) taken from the store" "$LOG/lost-gpu-2.log" ||
  fail "the run without fail_reprepare did not resume the stopped run (one trial measured, the rest taken)"
python3 - "$OUTD/results.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
runs = db.execute("select id, finished from runs").fetchall()
fault = db.execute("select status from trials where variant like '%.fault1'").fetchall()
finished = db.execute("select count(*) from problems where finished is not null").fetchone()[0]
print(f"resumed: runs {runs}, fault variant {fault}, finished problems {finished}")
assert len(runs) == 1 and runs[0][1], "the stopped run was not resumed and finished"
assert fault == [("crashed",)], "the crashing variant was not measured once, as crashed"
assert finished == 1
PY
echo "check-lost-gpu: passed"
