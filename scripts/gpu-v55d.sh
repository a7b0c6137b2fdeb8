#!/usr/bin/env bash
# Fifty-fifth session, call 5 (full staging), on the build whose library runs the bfloat16 sweep
# at trim 127 in groups of 8 and, where a geometry names no pause, at 1024 ns (float32 4096): on
# an H200 first the run of record; then the column-blocked sweep's GPU tests (Colblock.*) and, on
# uniform 2M d32 F128, the library's sweeps side by side through `tuner bench` (bfloat16 at its
# default pause, at .pp4096 and .pp2048; float32 at its default; the seed and the tuned dispatch
# beside them), two rounds (docs/perf-notes.md, "Fifty-fifth session, call 4").
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
out_dir "${NAME:-v55d}"
colblock_lib_bf16 colblock,colblock.r19.ps16.lag8.pp4096.i32.bf16,colblock.r19.ps16.lag8.pp2048.i32.bf16,tuned,seed
step bench_f32 timeout 200 "$T" bench --graph "uniform:n=2000000,deg=32,seed=1" --feat 128 --value f32 --rounds 2 \
  --impl colblock,tuned,seed --json "$W/bench-f32.json" 2>&1 | tail -n 10
echo "done at $SECONDS s"
