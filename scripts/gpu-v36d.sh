#!/usr/bin/env bash
# Thirty-sixth session, call 4 (full staging): the whole GPU check on the session's final tree
# (scripts/gpu-v28c.sh: gpu_tests, memcheck and racecheck over configs/sanitizer.yaml and over the
# sweep, the production example, the million-edge row, memcheck over the library's tests). The
# last full pass was the thirty-fourth session's call 4, before the sweep moved into the library.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v28c.sh"
