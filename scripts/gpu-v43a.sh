#!/usr/bin/env bash
# Forty-third session, one H200 call for what gpu-v41b.sh and gpu-v41a.sh did in two (two failed
# starts had cost ~3 minutes of device time, and the whole GPU check ran on an H100 in the
# session's call 3, docs/data/v43/call3-h100): the run of record on run 23's header
# (scripts/gpu-v34e.sh, ~170 s), then run 24, a fresh tune of configs/h200.yaml
# (scripts/gpu-v41a.sh: nothing reusable, the readers' and generators' hashes moved; stopped at
# LIMIT s, default 370, so that the call fits its 600 s).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
nvidia-smi --query-gpu=name --format=csv,noheader
# e111185 changed the timer (records of work started before a sample's discard are dropped) and
# the ceilings cache check: the profiler's GPU tests first (~15 s), CUPTI timing asserted there.
source "$D/gpu-env.sh"
timeout -k 5 120 "$BIN/gpu_tests" --gtest_filter='ProfilerGpu.*:WorkerOps.*' 2>&1 |
  grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|ceilings on|timer|: cupti|events"
bash "$D/gpu-v34e.sh"
echo "=== run 24 at $SECONDS s"
LIMIT="${LIMIT:-355}" bash "$D/gpu-v41a.sh"
echo "all done at $SECONDS s"
