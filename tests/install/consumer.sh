#!/usr/bin/env bash
# The installed package as a user's project meets it: `cmake --install` of this build into a
# staging folder that is then moved (a path of the install baked into the package would break),
# then examples/production configured on its own against that prefix alone (find_package(csrgat
# CONFIG) from the prefix's package folder, no package registry, no inherited LD_LIBRARY_PATH;
# the package files may name neither the build nor the source tree), built, and both programs
# run (without a GPU they do the checks that need none and say so).
# Usage: consumer.sh BUILD_DIR SOURCE_DIR WORK_DIR CUDA_TOOLKIT_ROOT GENERATOR LIBDIR
set -euo pipefail
build=$1 src=$2 work=$3 cuda_root=$4 generator=$5 libdir=$6
rm -rf "$work"
mkdir -p "$work"
step() {
  echo "== $*"
  "$@"
}
echo "== cmake --install $build --prefix $work/stage"
cmake --install "$build" --prefix "$work/stage" > "$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
mv "$work/stage" "$work/prefix"
prefix="$work/prefix"
for f in include/csrgat/aggregate.h include/csrgat/c_api.h include/csrgat/tuned_types.h \
  share/csrgat/tuned-rules.h "$libdir/cmake/csrgat/csrgatConfig.cmake" "$libdir/libcsrgat.a" \
  "$libdir/libcsrgat_c.so"; do
  [[ -f "$prefix/$f" ]] || { echo "the install lacks $f"; exit 1; }
done
if grep -rlF -e "$build" -e "$src" "$prefix/$libdir/cmake/csrgat"; then
  echo "the package above names the build or source tree"
  exit 1
fi
step env -u LD_LIBRARY_PATH cmake -S "$src/examples/production" -B "$work/build" -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -Dcsrgat_DIR="$prefix/$libdir/cmake/csrgat" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCUDAToolkit_ROOT="$cuda_root"
grep -qE "^csrgat_DIR:[A-Z]+=$prefix/$libdir/cmake/csrgat\$" "$work/build/CMakeCache.txt" ||
  { echo "the consumer did not take the package from $prefix"; exit 1; }
step cmake --build "$work/build"
step env -u LD_LIBRARY_PATH "$work/build/production_example"
step env -u LD_LIBRARY_PATH "$work/build/production_c_example"
echo "the installed package builds and runs a user's project"
