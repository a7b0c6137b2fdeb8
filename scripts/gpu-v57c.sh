#!/usr/bin/env bash
# Fifty-seventh session, call 8 onwards (full staging, f8ebdab's build: the library's instances
# byte-identical in SASS to 299a95a's, whose whole GPU check passed in call 1): on an H200 the run
# of record (record_first_on_h200, END 330), then colblock_probe's default list there (float32
# 15 against 79 at 2048 ns, bfloat16 127 against 63: the fifty-fifth session's question whether
# bit 6 gains on the H200, where the float32 sweep is not DRAM-bound); on any other GPU the
# column-blocked sweep's GPU tests and `tuner bench` of the library's bfloat16 sweep beside the
# tuned dispatch and the seed (colblock_lib_bf16), ~30 s.
set -uo pipefail
D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$D/gpu-env.sh"
first_gpu
if record_first_on_h200; then
  bash "$D/gpu-colblock.sh" "${NAME:-v57c}-probe" 2>&1 | grep -E "^(device|tma|seed|baseline U=4 |done|===|---)"
else
  out_dir "${NAME:-v57c}-lib"
  colblock_lib_bf16 colblock,tuned,seed
fi
echo "done at $SECONDS s"
