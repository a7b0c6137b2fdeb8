#!/usr/bin/env bash
# Forty-fourth session, one H200 call for the forty-third session's first and third pending
# steps: run 25, a fresh tune of configs/h200.yaml with no --reuse (scripts/gpu-v41a.sh,
# stopped at LIMIT s, default 355, so the call fits its 600 s; the first run of tuner run's
# per-type finalists and the first store whose graph features carry csr_hash), then the run of
# record on the committed header (run 24's, re-promoted after the select review;
# scripts/gpu-v34e.sh, ~200 s). The whole GPU check (scripts/gpu-v28c.sh) goes in the next
# call, on the header run 25 leaves if it is adopted.
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
nvidia-smi --query-gpu=name --format=csv,noheader
# The tune first: where the device time left cuts the call short, the run of record (its
# header measured in the forty-third session's call 6 but for three rules) is what is lost.
LIMIT="${LIMIT:-355}" bash "$D/gpu-v41a.sh"
echo "=== run of record at $SECONDS s"
bash "$D/gpu-v34e.sh"
echo "all done at $SECONDS s"
