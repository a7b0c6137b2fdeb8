#!/usr/bin/env bash
# Fifty-second session (full staging), on the tree whose library runs the trimmed group loop
# (tma_gather's kTrim 3): the trims side by side in colblock_probe, float32 and bfloat16
# (scripts/gpu-v52c.sh, ~25 s), then the whole GPU check (scripts/gpu-v28c.sh through
# gpu-v47a.sh's deadline, RECORD_PART=0: ~350 s on an H100).
# (scripts/gpu-v52b.sh with gpu-v52c.sh as its probe; its output also prints a warp's time).
PROBE=gpu-v52c.sh exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v52b.sh"
