#!/usr/bin/env bash
# The installed package as a user's project meets it: `cmake --install` of this build into a
# fresh prefix, then examples/production configured on its own against that prefix alone
# (find_package(csrgat CONFIG): no target, header or library of the build or source tree), built,
# and both programs run (without a GPU they do the checks that need none and say so).
# Usage: consumer.sh BUILD_DIR SOURCE_DIR WORK_DIR CUDA_TOOLKIT_ROOT GENERATOR
set -euo pipefail
build=$1 src=$2 work=$3 cuda_root=$4 generator=$5
rm -rf "$work"
mkdir -p "$work"
step() {
  echo "== $*"
  "$@"
}
echo "== cmake --install $build --prefix $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
for f in include/csrgat/aggregate.h include/csrgat/c_api.h include/csrgat/tuned_types.h \
  share/csrgat/tuned-rules.h lib/cmake/csrgat/csrgatConfig.cmake lib/libcsrgat.a lib/libcsrgat_c.so; do
  [[ -f "$work/prefix/$f" ]] || { echo "the install lacks $f"; exit 1; }
done
step cmake -S "$src/examples/production" -B "$work/build" -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" -DCUDAToolkit_ROOT="$cuda_root"
step cmake --build "$work/build"
step "$work/build/production_example"
step "$work/build/production_c_example"
echo "the installed package builds and runs a user's project"
