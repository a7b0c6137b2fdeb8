#!/usr/bin/env bash
# Twenty-seventh session, call 3: libcsrgat_c.so on the GPU before the run of record takes it.
#   capi    the GPU test through dlopen (CApi.*) and the production tests
#   peers   scripts/peers_pyg.py --csrgat-lib on the seed shape, cora and citeseer, two rounds:
#           the library through ctypes in PyTorch's process, checked against the reference
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v27c
step capi timeout 120 "$BIN/gpu_tests" --gtest_filter='CApi.*:Production.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/gpu_tests.log" | tail -12
step peers timeout 200 python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir "$G" --only seed_384 --only cora \
  --only citeseer --samples 30 --rounds 2 --csrgat-lib "$BIN/libcsrgat_c.so" -o "$W/peers.json" 2>&1 | grep -v Warning | grep -v sparse_csr_tensor
python3 -c "
import json; d = json.load(open('$W/peers.json'))
for r in d['results']: print(r['graph'], r['impl'], r.get('variant', ''), r.get('median_us'), r.get('rel_error'), r.get('error', ''))"
echo "done at $SECONDS s"
