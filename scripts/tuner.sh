#!/usr/bin/env bash
# The main job in one command: set up, build, then run the tuner with the given arguments,
#   scripts/tuner.sh run configs/h100.yaml
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/build.sh" >&2
exec "${CSRGAT_BUILD_DIR:-$ROOT/build}/tuner/tuner" "$@"
