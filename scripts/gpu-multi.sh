#!/usr/bin/env bash
# The tuner on every GPU of the machine (run it on the device kind nvidia-h200-x2): `tuner run`
# starts one worker per GPU and hands each the next problem. Checks, before a full tuning run
# is spread over two GPUs, that both take problems, the run finishes and emits its header.
# Each device call lands on a different machine. A run stopped at LIMIT keeps its stored
# trials (no header or report yet); bring back multi.tgz and give its run/ folder as FROM to
# the next call, on any machine with the same GPU model, driver and kernels: `tuner run
# --continue` carries the problems the first machine finished and measures the rest.
# FROM=DIR: DIR/results.sqlite (a stopped run's store) is copied in and the run continues it.
# REUSE=STORE: STORE (a results.sqlite, a .sqlite.gz, or a folder of stores such as
# tests/data/recorded/h200/, merged by scripts/recorded_store.py) is copied in and the run takes
# the problems whose fingerprint its runs share (tuner run --reuse): a config that changed a few
# graphs' search measures only those.
# KILL_AFTER=N: the run is first killed (SIGKILL) after N s and then resumed in the same call
# on the same GPUs: every problem the first part had started must finish on the GPU that began
# it (the report then says "each (graph, F, H) on one", and names any problem that was not).
# Logs, the store, the header and the report are packed into $OUT/multi.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir multi
nvidia-smi -L
CFG="${CFG:-configs/smoke.yaml}"
sed "s#^output:.*#output: $W/run#" "$CFG" > configs/.multi-out.yaml
# gpus_of_trials LABEL: the latest run's measured trials per GPU (raw.gpu_uuid), and the GPUs that
# measured each (graph, F, H) (one each, unless pinning failed).
gpus_of_trials() {
  python3 - "$W/run/results.sqlite" "$1" <<'PY'
import collections, json, sqlite3, sys
per_gpu, per_problem = collections.Counter(), collections.defaultdict(set)
for g, f, h, r in sqlite3.connect(sys.argv[1]).execute(
        "select graph, feat, heads, raw_json from trials where status != 'pruned' "
        "and run_id = (select max(id) from runs)"):
    u = (json.loads(r or 'null') or {}).get('gpu_uuid', 'none')
    per_gpu[u] += 1
    per_problem['%s F=%d H=%d' % (g, f, h)].add(u[:12])
print(sys.argv[2] + ': trials per GPU:', dict(per_gpu))
print(sys.argv[2] + ': GPUs per problem:', {k: sorted(v) for k, v in per_problem.items()})
PY
}
# With --continue on both parts: the second resumes the continuation the first began here.
CONT=()
if [ -n "${FROM:-}" ]; then  # before any run here, so no WAL of this machine's is left beside it
  mkdir -p "$W/run" && rm -f "$W"/run/results.sqlite* && cp "$FROM"/results.sqlite* "$W/run/" && CONT=(--continue)
fi
if [ -n "${REUSE:-}" ]; then
  [ -z "${FROM:-}" ] || { echo "gpu-multi: give FROM (continue a stopped run) or REUSE (take an earlier run's problems), not both"; exit 2; }
  mkdir -p "$W/run" && rm -f "$W"/run/results.sqlite*
  if [ -d "$REUSE" ]; then
    python3 scripts/recorded_store.py merge "$REUSE" "$W/run/results.sqlite"
  else
    case "$REUSE" in
      *.gz) gunzip -c "$REUSE" > "$W/run/results.sqlite" ;;
      *) cp "$REUSE" "$W/run/results.sqlite" && { [ ! -f "$REUSE-wal" ] || cp "$REUSE-wal" "$W/run/results.sqlite-wal"; } ;;
    esac
  fi || { echo "gpu-multi: cannot copy the store $REUSE"; exit 2; }
  CONT+=(--reuse)
fi
if [ -n "${KILL_AFTER:-}" ]; then
  step run-part1 timeout -s KILL "$KILL_AFTER" "$T" run configs/.multi-out.yaml "${CONT[@]}" > "$W/run-part1.log" 2>&1
  grep -E "on GPU [0-9]" "$W/run-part1.log"
  gpus_of_trials "started before the kill"
fi
step run timeout -s INT "${LIMIT:-300}" "$T" run configs/.multi-out.yaml "${CONT[@]}" > "$W/run.log" 2>&1
grep -E -- "GPU\(s\)|estimate|continues|--reuse|from run|on GPU [0-9]|finished in|trials measured|tuned header|error" "$W/run.log" | head -60
# One file to bring back, whether the run finished or was stopped: its WAL folded in.
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('pragma wal_checkpoint(truncate)'); c.execute('pragma journal_mode=delete'); c.close()" "$W/run/results.sqlite"
# Every trial names the GPU that measured it; the report lists the GPUs with their problems.
gpus_of_trials "finished"
grep -o "Measured on [0-9]* GPUs.*" "$W/run/report/report.md" 2>/dev/null | cut -c1-600
rm -rf "$W/run/cache"
# The library test that needs two GPUs (a Shape and a Call stay on the device they were made
# on): skipped on the one-GPU checks, so run here, where there are two.
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
  step two_gpu_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='Production.AShapeAndACallStayOnTheirDevice' > "$W/two_gpu_tests.log" 2>&1
  grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure" "$W/two_gpu_tests.log" | head -10
fi
echo "done at $SECONDS s"
