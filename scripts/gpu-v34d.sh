#!/usr/bin/env bash
# Thirty-fourth session, call 4: the whole GPU check on the session's tree (tma_gather moved into
# variants/colblock.cuh, tuner bench's colblock impl and its tests): scripts/gpu-v28c.sh (gpu_tests,
# memcheck and racecheck over configs/sanitizer.yaml and now over the Colblock tests, the
# production example, the million-edge row, memcheck over the library's tests).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v28c.sh"
