#!/usr/bin/env bash
# Adopts a fresh tune (a device call's results.sqlite, e.g. gpu-multi.sh's multi.tgz unpacked) as
# the recorded run and the committed header, in the order the sessions have done it by hand:
# append it to tests/data/recorded/h200/ (scripts/append_run.py: a file of its own, run-NNNN.sqlite.gz,
# with a new run id), emit the
# header of that run, promote it to include/csrgat/tuned/, regenerate the golden headers, rebuild
# and run the CPU tests, and record the build's graph code hashes beside the store
# (tests/data/recorded/h200.code-hashes). Stops at the first failure; commits nothing (review `git diff`, then
# commit before building binaries for the GPU: the tuner records the commit).
#
#   scripts/adopt-run.sh RESULTS_SQLITE [--build DIR]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$repo/build"
src="${1:-}"
[[ -n "$src" && "$src" != -* ]] || { sed -n '2,9p' "$0"; exit 2; }
shift
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "adopt-run: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -f "$src" ]] || { echo "adopt-run: no results store at $src" >&2; exit 1; }
tuner="$build/tuner/tuner"
[[ -x "$tuner" ]] || { echo "adopt-run: no tuner at $tuner; build first or pass --build" >&2; exit 1; }
store="$repo/tests/data/recorded/h200"
# The graph code hashes of this tree (the measuring binary's when the tree is the one it was
# built from): the recorded run's stored graph sources mix them in (graphs/source.h). Checked
# against what the run to adopt stored, before anything is appended: a tree whose graph code
# moved since the run was measured would record hashes that no stored source was made with.
cmake --build "$build" --target csrgat_graphs >/dev/null
hashes="$build/graphs/generated/graphs/generator_hash.h"
reader=$(grep -Eo 'CSRGAT_READER_SHA256 "[0-9a-f]{64}"' "$hashes" | grep -Eo '[0-9a-f]{64}')
generator=$(grep -Eo 'CSRGAT_GENERATOR_SHA256 "[0-9a-f]{64}"' "$hashes" | grep -Eo '[0-9a-f]{64}')
[[ -n "$reader" && -n "$generator" ]] || { echo "adopt-run: no graph code hashes in $hashes" >&2; exit 1; }
python3 - "$src" "$reader" "$generator" <<'PY'
import gzip, json, os, sqlite3, sys, tempfile
src, reader, generator = sys.argv[1], sys.argv[2], sys.argv[3]
def fnv(chunks):
    h = 0xcbf29ce484222325
    for b in chunks:
        for x in b:
            h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return '%016x' % h
with tempfile.NamedTemporaryFile(suffix='.sqlite') as t:
    with (gzip.open(src) if src.endswith('.gz') else open(src, 'rb')) as f:
        t.write(f.read())
    t.flush()
    db = sqlite3.connect(t.name)
    run = db.execute('select max(run_id) from graphs').fetchone()[0]
    rows = db.execute('select graph, spec, features_json from graphs where run_id = ?', (run,)).fetchall()
bad, checked = [], 0
for graph, spec, feats in rows:
    stored = json.loads(feats or '{}').get('source_hash', '')
    if stored.startswith('gen:'):
        mine = 'gen:' + fnv([(generator + '\n' + spec).encode()])
    elif stored.startswith('file:') and os.path.isfile(spec):
        mine = 'file:' + fnv([(reader + '\n').encode(), open(spec, 'rb').read()])
    else:
        continue  # a file not on this machine
    checked += 1
    if mine != stored:
        bad.append(f'{graph} ({spec}): stored {stored}, this tree {mine}')
if bad:
    sys.exit("adopt-run: this tree's graph code is not the code that measured run %d of %s (build "
             "at the run's commit): %s" % (run, src, '; '.join(bad)))
if checked == 0:
    sys.exit('adopt-run: no graph of run %d of %s could be checked against this tree (no generated '
             'graph, no graph file here)' % (run, src))
print('graph code hashes: %d of %d graphs of run %d match this tree' % (checked, len(rows), run))
PY
echo "== appending $src to $store"
ids=$(python3 "$repo/scripts/append_run.py" "$src" "$store")
echo "$ids"
run=$(echo "$ids" | grep -Eo -- '-> [0-9]+' | grep -Eo '[0-9]+' | tail -1)  # "appended runs 1 -> 24 to ..."
[[ -n "$run" ]] || { echo "adopt-run: append_run.py named no new run id" >&2; exit 1; }
cat > "$repo/tests/data/recorded/h200.code-hashes" <<EOF
# The graph code hashes (graphs::reader_code_hash, graphs::generator_code_hash) of the build
# that measured the latest run of h200/ (run $run): its graphs' stored source hashes mix them in
# (graphs/source.h). Config.H200ProblemsMatchTheRecordedRunsTheyCameFrom checks the stored
# hashes against them; scripts/adopt-run.sh rewrites this file when it adopts a run.
reader $reader
generator $generator
EOF
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== emitting run $run's header"
"$tuner" emit "$store" --run "$run" -o "$tmp/sm_90.h"
(cd "$repo" && "$tuner" promote "$tmp/sm_90.h")
echo "== regenerating the golden headers"
bash "$repo/scripts/regen-golden.sh" --build "$build"
echo "== rebuilding and testing (CPU)"
cmake --build "$build" -j"$(nproc)"
(cd "$build" && ctest -j"$(nproc)" -LE gpu -E EveryVariant --output-on-failure)
echo "adopted run $run: review git diff (tests/data/recorded, include/csrgat/tuned), then commit"
