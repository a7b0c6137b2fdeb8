#!/usr/bin/env bash
# Fifteenth session, second call: the vector kernels without their scalar path, which is now a
# kernel of its own (the scalar twin) that the host launches for values rows the vector loads
# cannot take. Most important first:
#   1. every GPU test (the library's unaligned-values test, the smoke variants at F = 3 and 100,
#      the dispatch, overlap and late-producer tests), then memcheck and racecheck on the
#      sanitizer set (whose F = 3 problem runs the twins);
#   2. the A/B of this tree against HEAD's build (.gpu/bin/tuner-head, the kernels with the
#      scalar path inside): warm plain and overlapped, cold by rule.
# Logs and JSON are packed into $OUT/v15b.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v15b

step gpu_tests timeout -k 5 300 "$BIN/gpu_tests" > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|^--- exit" "$W/gpu_tests.log" | head -40
for ts in memcheck:7 racecheck:8; do  # the seeds of scripts/gpu-check.sh
  tool="${ts%:*}"
  step "$tool" timeout -k 5 240 compute-sanitizer --tool "$tool" --error-exitcode 9 "$T" check \
    configs/sanitizer.yaml --seed "${ts#*:}" > "$W/$tool.log" 2>&1
  tail -n 3 "$W/$tool.log"
done

source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl" seed cora pubmed
ab_cold seed cora pubmed
echo "done at $SECONDS s"
