#!/usr/bin/env bash
# Thirteenth session, call 10: the gathers as coherent loads (__ldca, not the read-only __ldg
# that ptxas hoisted above griddepcontrol.wait in a bf16 kernel): the late-producer test over
# the kernel forms, the library's tests, then this tree against HEAD's build (.gpu/bin/tuner-head),
# same ids: warm plain and overlapped, cold by rule (scripts/gpu-ab.sh). Packed into $OUT/v13g.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v13g
step gpu_tests timeout 200 "$BIN/gpu_tests" --gtest_filter='OverlapVariants.*:Production.*:Dispatch.*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|FAIL:|trace:|test_overlap_variants.cpp:[0-9]+: [sp]" "$W/gpu_tests.log" | head -40
source "$(dirname "${BASH_SOURCE[0]}")/gpu-ab.sh"
ab_warm "tuned,tuned:pdl" seed cora citeseer
ab_cold seed cora citeseer wiki-vote pubmed soc-slashdot0902
ab_large uniform1m
echo "done at $SECONDS s"
