#!/usr/bin/env bash
# Twenty-ninth session, call 3: the run of record on run 17's header (its uniform-like f32
# rules launch in feature slices, `.fs2`): scripts/gpu-v15c.sh (prof_check, then
# SKIP_CHECK=1 gpu-final.sh -> $OUT/final.tgz); then the whole GPU check, scripts/gpu-v28c.sh
# (gpu_tests, the million-edge row, memcheck and racecheck over configs/sanitizer.yaml, now with
# `.fs` problems, memcheck over the library's tests).
set -uo pipefail
D="$(dirname "${BASH_SOURCE[0]}")"
bash "$D/gpu-v15c.sh"
bash "$D/gpu-v28c.sh"
