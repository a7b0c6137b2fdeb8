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
  c=19,33,8,8,tma5r10s4096t7
  step "ncu source $c" timeout -k 5 150 ncu --clock-control none -k regex:tma_gather --launch-count 1 \
    --section WarpStateStats --section SourceCounters --page source --print-source sass --csv \
    "$BIN/colblock_probe" "$W/once.json" --config "$c" --once > "$W/src-t7.csv" 2> "$W/src-t7.err"
  echo "source page: $(wc -l < "$W/src-t7.csv") lines"; head -c 600 "$W/src-t7.err"
  gzip -9 "$W/src-t7.csv"
  echo "done at $SECONDS s"
)
RECORD_ELSEWHERE=0 END=$((585 - SECONDS)) exec bash "$D/gpu-v47a.sh"
