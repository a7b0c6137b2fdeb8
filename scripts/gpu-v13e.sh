#!/usr/bin/env bash
# Thirteenth session, call 8, after the review: the library's tests (aggregate() now refuses
# (N + chunks) * H >= 2^31 tasks and, with 32-bit indices only, H * F >= 2^31), the production
# example, and lat_ladder with its parameter rungs relabelled (word[0] in a line of its own).
# Packed into $OUT/v13e.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13e
step gpu_tests timeout 200 "$BIN/gpu_tests" --gtest_filter='Production.*:Dispatch.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) " "$W/gpu_tests.log"
step production_example timeout 60 "$BIN/production_example"
step ladder timeout 60 "$BIN/lat_ladder" "$W/ladder.json"
echo "done at $SECONDS s"
