#!/usr/bin/env bash
# Thirtieth session, call 4: the whole GPU check on the final tree, now with the smoke tuning
# run and its --continue/--reuse checks (the worker changed: close-on-exec pipes, death with
# the tuner, a one-sample trial's null noise, a counter failure timed again without counters,
# a lost context after counters): scripts/gpu-v28c.sh with SKIP_BENCH=0 (gpu_tests without the
# million-edge row, memcheck and racecheck over configs/sanitizer.yaml, the production example,
# smoke_run, continue_run; then the million-edge row and memcheck over the library's tests).
set -uo pipefail
SKIP_BENCH=0 bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v28c.sh"
# No orphaned worker may outlive the tuner runs above.
pgrep -fa "tuner worker" || echo "no tuner worker left running"
