#!/usr/bin/env bash
# Installs nvml.h (PyPI package nvidia-nvml-dev) under .deps/nvml, where profiler/CMakeLists.txt
# looks for it. Only the header is needed: libnvidia-ml is dlopen()ed at run time from the driver.
# Idempotent: does nothing when the header is already there. Re-run cmake afterwards.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/pip-dep.sh"
pip_dep_file nvidia-nvml-dev "$ROOT/.deps/nvml" nvml.h > /dev/null
