#!/usr/bin/env bash
# Thirtieth session, call 3: the library after its review fixes, on the GPU once more (the
# Shape's upload stream is now made only when there is something to upload), and what the
# fixes cost a Python caller: the library's GPU tests and memcheck over them, then
# scripts/py_call_overhead.py on citeseer and pubmed with the library before the fixes
# (.gpu/bin/old/libcsrgat_c.so, built from f0690bd) and after, alternated twice (old, new, old,
# new), so that drift hits both: the prepared call's host time (csrgat_call.alone.host: one
# cudaGetDevice more per launch) and the whole call.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v30c
# The old library travels xz-compressed beside the staged binaries (gpu-env.sh unpacks $BIN/*.xz).
z="$BIN/old/libcsrgat_c.so.xz"
if [ -f "$z" ]; then
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[1][:-3], "wb"))' "$z" && rm -f "$z"
fi
ls -la "$BIN/old"
step tests timeout 200 "$BIN/gpu_tests" --gtest_filter='Production.*:CApi.*:Dispatch.*' > "$W/tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" "$W/tests.log" | head -30
step memcheck timeout -k 5 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu_tests" \
  --gtest_filter='Production.*:CApi.*:-Production.OverlappedLaunchWaitsForThePreviousKernel' > "$W/memcheck.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |ERROR SUMMARY" "$W/memcheck.log"
for g in citeseer pubmed; do
  for r in 1 2; do
    for lib in old new; do
      L="$BIN/libcsrgat_c.so"; [ $lib = old ] && L="$BIN/old/libcsrgat_c.so"
      step "overhead-$g-$lib-$r" timeout 100 python3 scripts/py_call_overhead.py --lib "$L" --graph "$G/$g.mtx.gz" \
        -o "$W/overhead-$g-$lib-$r.json" 2>&1 | grep -E "csrgat_call.alone|csrgat.alone|host_one_arg" | head -6
    done
  done
done
echo "done at $SECONDS s"
