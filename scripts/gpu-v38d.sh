#!/usr/bin/env bash
# Thirty-eighth session, call 4 (stage gpu_tests, the library and l2_policy_probe): the dispatch,
# production and C-interface GPU tests on the header kept as emitted (f0a81f4: the routing test
# must run, not skip), then l2_policy_probe with its SM-subset part (where the L2's missing
# capacity goes), into $OUT/v38d.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v38d
gpu_tests_until 200 'Dispatch.*:Production.*:CApi.*'
step l2_policy_probe timeout -k 5 150 "$BIN/l2_policy_probe" "$W/l2_policy.json" > "$W/l2_policy.log" 2>&1
grep -E "^(uniform|policy|plain|sm:)" "$W/l2_policy.log"
