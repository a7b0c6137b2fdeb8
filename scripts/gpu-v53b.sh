#!/usr/bin/env bash
# Fifty-third session (full staging), on the build that ships trim 7: Nsight Compute's
# instructions executed and stall samples a SASS instruction (SourceCounters) for the float32
# sweep at trim 7 on the shipped geometry, the next trims' map (~30 s); then gpu-v47a.sh with
# RECORD_ELSEWHERE=0: on an H200 the run of record and the whole GPU check in what is left, on
# any other GPU the whole GPU check alone (~360 s on an H100).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
(
  source "$D/gpu-env.sh"
  out_dir v53b
  ncu_probe_source src-t7 19,33,8,8,tma5r10s4096t7
  echo "done at $SECONDS s"
)
RECORD_ELSEWHERE=0 END=$((585 - SECONDS)) exec bash "$D/gpu-v47a.sh"
