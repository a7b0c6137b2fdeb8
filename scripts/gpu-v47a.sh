#!/usr/bin/env bash
# Forty-seventh session, call 1, on whichever GPU the `nvidia-h200` kind hands out: the run of
# record on run 25's header (scripts/gpu-v34e.sh, ~130 s on an H200: tuner bench and PyG side
# by side, the issue's table; never measured on an H200 yet) and the whole GPU check
# (scripts/gpu-v28c.sh, 263-347 s: gpu_tests with WorkerOps, whose worker now reads a trial's
# cutoff once (9297690, not yet run on a GPU), the sanitizers, the library's memcheck). On an
# H200 the run of record goes first (H200s come seldom; the issue's figures are the H200's); on
# any other GPU the check goes first. Each part gets a deadline inside 575 s, so that the KILL
# 10 s after a part's deadline and the packing after it (part below) stay inside the 600 s call.
# (Forty-eighth session: the check now has the lost-GPU step, ~30-60 s more. Forty-ninth:
# RECORD_ELSEWHERE=0 leaves the run of record out on a GPU that is not an H200, CHECK_PART=0
# the check out on an H200. Fifty-second: RECORD_PART=0 leaves the run of record out on any GPU.)
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
O="${OUT:-$ROOT/.gpu/out}"
first_gpu
END="${END:-575}"
part() {  # part NAME SCRIPT: SCRIPT with what is left of END, less a margin for the other's packing
  local left=$((END - SECONDS - 5))
  [ "$left" -gt 60 ] || { echo "=== $1: skipped, ${left} s left"; return; }
  echo "=== $1 at $SECONDS s (at most $left s)"
  timeout -k 10 "$left" bash "$D/$2"
  local rc=$?
  echo "--- $1: exit $rc at $SECONDS s"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    # A step's own timeout is a process group of its own, which the deadline's TERM does not
    # reach, and its script's EXIT trap waits for it (or dies with the KILL): end what is left
    # of the staged binaries, then pack what the part left unpacked (at most 8 files come back).
    pkill -KILL -f "$BIN/"; sleep 1
    for d in check final; do [ -d "$O/$d" ] && pack "$O" "$d"; done
  fi
}
# part_unless VAR NAME SCRIPT: part NAME SCRIPT, unless VAR is 0 (CHECK_PART=0: the record alone
# on an H200, when the check has passed on the same build elsewhere and little device time is
# left; RECORD_ELSEWHERE=0: the run of record on an H200 only, four H100 boards having run it).
part_unless() {
  if [ "${!1:-1}" = 1 ]; then part "$2" "$3"; else echo "=== $2: skipped on $GPU_NAME ($1=0)"; fi
}
[ "${RECORD_PART:-1}" = 1 ] || RECORD_ELSEWHERE=0
if [[ "$GPU_NAME" == *H200* ]]; then
  part_unless RECORD_PART "run of record" gpu-v34e.sh
  part_unless CHECK_PART "whole GPU check" gpu-v28c.sh
else
  part "whole GPU check" gpu-v28c.sh
  part_unless RECORD_ELSEWHERE "run of record" gpu-v34e.sh
fi
echo "all done at $SECONDS s"
