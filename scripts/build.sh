#!/usr/bin/env bash
# Set up (scripts/setup.sh) and build into build/ (or $CSRGAT_BUILD_DIR). Extra arguments go to
# the CMake configure step, e.g. -DCSRGAT_TUNED_CONFIG=runs/h200/include/csrgat/tuned/sm_90.h.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CSRGAT_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh"
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
elif [ $# -gt 0 ]; then
  cmake -S "$ROOT" -B "$BUILD" "$@" >/dev/null
fi
cmake --build "$BUILD" -j "$(nproc)"
