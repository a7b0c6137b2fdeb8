#!/usr/bin/env bash
# Fifty-fifth session, call 9 (full staging): on an H200 first the run of record; then Nsight
# Compute's per-instruction counts of the library's new bfloat16 sweep (127 in groups of 8, 1024
# ns) and of float32 79 at 2048 ns (docs/perf-notes.md, "Fifty-fifth session: where the new
# bfloat16 sweep's issue goes (prediction)").
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
(
  out_dir "${NAME:-v55g-src}"
  ncu_probe_source src-g8t127h "19,33,8,16,tma5r10g8s1024t127h"
  ncu_probe_source src-t79s2048 "19,33,8,8,tma5r10s2048t79"
)
