#!/usr/bin/env bash
# Twenty-seventh session, call 5: where a Python caller's ~22 us per csrgat call goes (call 4:
# tuner bench times the same call at ~10 us from C++): scripts/py_call_overhead.py on citeseer
# and the seed shape.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27e
for g in "$G/citeseer.mtx.gz" "seed:n=384,deg=18,seed=1"; do
  name=$(basename "$g" .mtx.gz | tr ':=,' '___')
  step "overhead-$name" timeout 120 python3 scripts/py_call_overhead.py --lib "$BIN/libcsrgat_c.so" --graph "$g" \
    -o "$W/overhead-$name.json" 2>&1 | grep -v Warning
done
echo "done at $SECONDS s"
