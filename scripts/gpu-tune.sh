#!/usr/bin/env bash
# Tuner acceptance on the GPU machine (repo root, .gpu/ staged by scripts/stage-gpu.sh):
#   faults   a variant that crashes and one that hangs are recorded, and the run completes
#   regress  two runs of one config compare as "no slower"; a run slowed by 10% compares slower
#   h200     tuner run configs/h200.yaml, killed part-way (PART=1) and resumed to the end (PART=2)
# Copies the stores, the header and the report back under $OUT.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
OUTDIR="${OUT:-$ROOT/.gpu/out}"
mkdir -p "$OUTDIR"
PART="${PART:-all}"
if [ "$PART" = 1 ] || [ "$PART" = all ]; then
  echo "=== faults"; t0=$SECONDS
  "$T" run configs/faults.yaml > "$OUTDIR/faults.log" 2>&1; echo "faults run exit $? in $((SECONDS-t0)) s"
  tail -n 12 "$OUTDIR/faults.log"; statuses runs/faults/results.sqlite
  echo "=== regress"; t0=$SECONDS
  "$T" run configs/regress.yaml > "$OUTDIR/regress1.log" 2>&1; echo "regress run A exit $?"
  "$T" run configs/regress.yaml > "$OUTDIR/regress2.log" 2>&1; echo "regress run B exit $?"
  "$T" run configs/regress-slow.yaml > "$OUTDIR/regress3.log" 2>&1; echo "regress-slow run exit $? ($((SECONDS-t0)) s)"
  "$T" compare runs/regress/results.sqlite:1 runs/regress/results.sqlite:2 -o runs/compare-same; echo "compare same-config: exit $?"
  "$T" compare runs/regress/results.sqlite:2 runs/regress-slow/results.sqlite -o runs/compare-slow; echo "compare slowed: exit $?"
  cp runs/compare-same/compare.md "$OUTDIR/compare-same.md" 2>/dev/null; cp runs/compare-slow/compare.md "$OUTDIR/compare-slow.md" 2>/dev/null
  echo "=== h200 part 1 (killed after ${KILL_AFTER:-150} s)"; t0=$SECONDS
  timeout -s KILL "${KILL_AFTER:-150}" "$T" run configs/h200.yaml > "$OUTDIR/h200-part1.log" 2>&1; echo "exit $? after $((SECONDS-t0)) s"
  tail -n 5 "$OUTDIR/h200-part1.log"; statuses runs/h200/results.sqlite | head -20
fi
if [ "$PART" = 2 ] || [ "$PART" = all ]; then
  echo "=== h200 resumed"; t0=$SECONDS
  "$T" run configs/h200.yaml > "$OUTDIR/h200-part2.log" 2>&1; echo "exit $? after $((SECONDS-t0)) s"
  grep -E "resuming|taken from the store|finished in|tuned header" "$OUTDIR/h200-part2.log"
  sed -n '/^graph /,$p' "$OUTDIR/h200-part2.log" | head -30
  statuses runs/h200/results.sqlite | head -20
  python3 -c "import sqlite3; d=sqlite3.connect('runs/h200/results.sqlite'); d.execute('pragma journal_mode=delete'); d.execute('vacuum')"
  cp runs/h200/results.sqlite "$OUTDIR/h200.sqlite"; cp runs/h200/include/csrgat/tuned/sm_90.h "$OUTDIR/sm_90.h" 2>/dev/null
fi
