#!/usr/bin/env bash
# Fifteenth session, third call: the run of record on the scalar-twin kernels (the whole GPU
# check passed in call 2 on the same kernels): the profiler check first (its copy bandwidth is
# the table's DRAM reference, `scripts/issue7_table.py --copy-from`), then scripts/gpu-final.sh
# with SKIP_CHECK=1 (the dispatch and library tests, issue 7's benchmarks, the latency ladder,
# PyG) -> $OUT/final.tgz, prof_check's JSON -> $OUT/p/prof_check.json.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
mkdir -p "${OUT:-.gpu/out}/p"
step prof_check timeout 120 "$BIN/prof_check" "${OUT:-.gpu/out}/p/prof_check.json" | tail -n 4
SKIP_CHECK=1 bash scripts/gpu-final.sh 2>&1 | grep -E "^=== |^--- exit|^\[ +(OK|FAILED|PASSED) |done at"
