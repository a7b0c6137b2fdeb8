#!/usr/bin/env bash
# Twenty-eighth session, call 4: does the legacy default stream cost a Python caller? The
# prepared call and PyG timed on PyTorch's default (legacy) stream and on a stream of its pool
# (scripts/py_call_overhead.py's side_stream modes), on the seed shape, cora and citeseer.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v28d
for g in "seed:n=384,deg=18,seed=1" "$G/cora.mtx.gz" "$G/citeseer.mtx.gz"; do
  n=$(basename "$g" .mtx.gz); n=${n%%:*}
  step "overhead-$n" timeout 90 python3 scripts/py_call_overhead.py --lib "$BIN/libcsrgat_c.so" --graph "$g" \
    -o "$W/overhead-$n.json" 2>&1 | grep -E "alone|side_stream|\.host"
done
echo "done at $SECONDS s"
