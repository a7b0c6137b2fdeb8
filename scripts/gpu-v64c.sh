#!/usr/bin/env bash
# Sixty-fourth session: `tuner run configs/h100-mma.yaml` (h200.yaml's lab on uniform 2M d32 F128
# alone, the tensor-core sweep in its colblock list), its store, header and report into
# $OUT/v64c/run; the header's rules printed. Run on an H100 (nvidia-h100-x1): the config's name
# says so, and the emitted header is built here into a production library (CSRGAT_TUNED_CONFIG)
# for scripts/gpu-v64d.sh.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
out_dir v64c
sed "s#^output:.*#output: $W/run#" configs/h100-mma.yaml > configs/.v64c.yaml
step tune timeout -k 5 "${TUNE_LIMIT:-420}" "$T" run configs/.v64c.yaml > "$W/tune.log" 2>&1
tail -n 25 "$W/tune.log"
ls -la "$W/run" 2>&1 | head -20
h=$(find "$W/run" -name 'sm_*.h' | head -n 1)
[ -n "$h" ] && grep -n "colblock\|variant_id" "$h" | head -20
echo "done at $SECONDS s"
