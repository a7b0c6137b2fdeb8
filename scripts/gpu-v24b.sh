#!/usr/bin/env bash
# Twenty-fourth session, call 5: call 4's whole GPU check failed one test for a reason of the
# call, not of the tree: Dispatch.TunedHeaderRoutesEveryTunedGraphToItsRule reads the recorded
# store, which scripts/device-tree.sh had trimmed out of the carried tree. Here it runs again
# (with the store), with the dispatch and production tests around it.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v24b
step dispatch timeout 120 "$BIN/gpu_tests" --gtest_filter='Dispatch.*:Production.*' > "$W/dispatch.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|rule" "$W/dispatch.log" | head -40
echo "done at $SECONDS s"
