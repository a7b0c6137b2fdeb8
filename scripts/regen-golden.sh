#!/usr/bin/env bash
# Regenerates the golden tuned headers of tests/data/recorded: for every <name>.sqlite,
# <name>.sqlite.gz or folder of stores <name>/ (how the recorded H200 runs are kept) there,
# <name>.golden.h becomes what `tuner emit` writes for its latest run at the run's architecture
# (what the Golden.RecordedStoresReproduceTheirHeaders unit test compares). Run it only after
# an intended change of the header format or of selection, and review the diff.
#
#   scripts/regen-golden.sh [--build DIR] [--synthetic-store]
#
#   --build DIR          build folder holding tuner/tuner and tests/unit_tests (default: build)
#   --synthetic-store    first rewrite tests/data/recorded/synthetic.sqlite from the unit
#                        test's builder (after changing build_synthetic in test_select_emit.cpp)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$repo/build"
synthetic=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --synthetic-store) synthetic=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "regen-golden: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

tuner="$build/tuner/tuner"
[[ -x "$tuner" ]] || { echo "regen-golden: no tuner at $tuner; build it or pass --build" >&2; exit 1; }
recorded="$repo/tests/data/recorded"

if [[ $synthetic == 1 ]]; then
  unit="$build/tests/unit_tests"
  [[ -x "$unit" ]] || { echo "regen-golden: no unit tests at $unit" >&2; exit 1; }
  CSRGAT_REGEN_RECORDED=1 "$unit" --gtest_filter=Golden.SyntheticStoreIsCurrent
fi

# Emit from a copy: opening a store, even read-only, may leave -wal/-shm files beside it
# (a .sqlite.gz or a folder is read in memory, and copied only to keep the loop one shape).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
shopt -s nullglob
count=0
for store in "$recorded"/*.sqlite "$recorded"/*.sqlite.gz "$recorded"/*/; do
  store="${store%/}"
  file="$(basename "$store")"
  name="${file%.gz}"; name="${name%.sqlite}"
  if [[ -d "$store" ]]; then
    stores=("$store"/*.sqlite "$store"/*.sqlite.gz)
    [[ ${#stores[@]} -gt 0 ]] || continue  # a folder of something else
  fi
  cp -r "$store" "$tmp/$file"
  "$tuner" emit "$tmp/$file" -o "$recorded/$name.golden.h" >/dev/null
  echo "regenerated tests/data/recorded/$name.golden.h"
  count=$((count + 1))
done
[[ $count -gt 0 ]] || echo "regen-golden: no .sqlite, .sqlite.gz or folder of them in $recorded"
