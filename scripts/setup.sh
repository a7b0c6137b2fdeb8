#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test csrgat-lab. Idempotent and quiet
# when everything is there. The CUDA toolkit (nvcc, NVRTC, CUPTI, cuSPARSE, NVTX3) is assumed
# at /usr/local/cuda (or $CUDA_HOME).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(cmake ninja-build g++ pkg-config libyaml-cpp-dev libcli11-dev nlohmann-json3-dev
          libsqlite3-dev zlib1g-dev libgtest-dev libgmock-dev python3-matplotlib python3-pip)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# NVML's header (the GPU machine's driver provides the library, loaded at run time). Optional:
# without it (no network for pip, say) the build leaves NVML out (no throttle detection, clocks
# or driver version in the timings) and says so; setup goes on.
if ! bash "$ROOT/scripts/setup-nvml.sh"; then
  echo "setup: warning: NVML's header (PyPI nvidia-nvml-dev) could not be installed: building" \
       "without NVML (no throttle detection); run scripts/setup-nvml.sh again when pip can reach" \
       "PyPI, then rebuild" >&2
fi

CUDA="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$CUDA/bin/nvcc" ] && ! command -v nvcc >/dev/null; then
  echo "setup: the CUDA toolkit (nvcc) is not at $CUDA; install CUDA 12.4+ or set CUDA_HOME" >&2
  exit 1
fi
