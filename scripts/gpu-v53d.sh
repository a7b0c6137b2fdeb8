#!/usr/bin/env bash
# Fifty-third session (full staging), on the build that ships trim 7. On an H200: the run of
# record (CHECK_PART=0 scripts/gpu-v47a.sh, ~215 s; END, default 330, bounds it) first. On any
# GPU: colblock_probe's default list (trim 7 and trim 15, the copies' sources read before the
# copies, float32 and bfloat16, ~25 s) and Nsight Compute's counts for float32 trims 7 and 15
# (docs/perf-notes.md, "Fifty-third session: the sources before the copies (prediction)"); on an
# H200 last, the float32 sweep's per-instruction counts (as gpu-v53b.sh: how much of its issue is
# the barrier's polling there).
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
record_first_on_h200
# NAME and TRIMS: the output folder and the float32 trims Nsight Compute counts (gpu-v53e.sh); a
# trim may carry its pause, sNNNtT (the default pause 4096 ns).
trims=()
for t in ${TRIMS:-7 15}; do
  [[ "$t" == s* ]] || t="s4096t$t"
  trims+=("19,33,8,8,tma5r10$t")
done
bash "$D/gpu-colblock.sh" "${NAME:-v53d}" "${trims[@]}" 2>&1 |
  grep -E "^(device|tma|seed|baseline U=4 |done)"
if [[ "$GPU_NAME" == *H200* ]]; then  # where the float32 sweep's issue goes on the H200
  (
    out_dir "${NAME:-v53d}-src"
    ncu_probe_source src "19,33,8,8,tma5r10s4096t${SRC_TRIM:-7}"
  )
fi
