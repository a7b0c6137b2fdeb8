#!/usr/bin/env bash
# Installs nvml.h (PyPI package nvidia-nvml-dev) under .deps/nvml, where profiler/CMakeLists.txt
# looks for it. Only the header is needed: libnvidia-ml is dlopen()ed at run time from the driver.
# Idempotent: does nothing when the header is already there. Re-run cmake afterwards.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.deps/nvml"
header="$(find "$DEST" -name nvml.h -print -quit 2>/dev/null || true)"
if [ -z "$header" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target "$DEST" nvidia-nvml-dev
  header="$(find "$DEST" -name nvml.h -print -quit)"
  [ -n "$header" ] || { echo "setup-nvml: nvml.h not found under $DEST after install" >&2; exit 1; }
  echo "setup-nvml: installed $header"
fi
