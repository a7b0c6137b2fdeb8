#!/usr/bin/env bash
# Thirty-third session, call 11: where tma_gather's instructions go. Nsight Compute's source
# counters (instructions executed, warp stalls a SASS instruction) on one launch of the best
# configuration (bulk copies, RG 10 of R 20, 20 warps an SM), printed as the SASS source page.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v33k
cfg=20,16,15,8,tma5r10g4
step "ncu source counters" timeout -k 5 300 ncu --clock-control none -k regex:tma_gather \
  --launch-count 1 --section SourceCounters --section WarpStateStats -f -o "$W/src" \
  "$BIN/colblock_probe" "$W/once.json" --config "$cfg" --once > "$W/ncu.log" 2>&1
tail -3 "$W/ncu.log"
step "source page" ncu --import "$W/src.ncu-rep" --page source --print-source sass --csv \
  > "$W/source.csv" 2> "$W/source.err"
tail -3 "$W/source.err"; wc -c < "$W/source.csv"
step "details page" ncu --import "$W/src.ncu-rep" --page details --csv > "$W/details.csv" 2>> "$W/source.err"
gzip -9 "$W/source.csv"
rm -f "$W/src.ncu-rep"
echo "done at $SECONDS s"
