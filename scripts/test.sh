#!/usr/bin/env bash
# The tests in one command: set up, build, run every ctest test. GPU tests (label gpu) report
# "Skipped" on a machine without a CUDA device.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/build.sh"
cd "${CSRGAT_BUILD_DIR:-$ROOT/build}"
ctest --output-on-failure -j "$(nproc)" "$@"
