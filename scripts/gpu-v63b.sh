#!/usr/bin/env bash
# The sixty-third session's next step (docs/perf-notes.md, "Sixty-third session: the batch's
# index in int"): the A/B of branch exp/batch-index (WarpBatch takes b x total_warps + gw once,
# in int: the bfloat16 sweep's spills 10 -> 7 local accesses, float32 still none) against main
# ($BIN/tuner-base): the library's three sweeps by id, uniform 2M d32 F128, cold, alternating
# processes, AB_ROUNDS (default 4) times; then the Colblock GPU tests, the masked-edge test and the
# colblock memcheck and racecheck of the branch's build while DEADLINE (default 330 s) lasts. No
# run of record here: it would time the branch's build ($BIN/tuner); on an H200, stage main and
# run scripts/gpu-v47a.sh first. Staging: a worktree of exp/batch-index built as build-lead is
# (cmake -G Ninja -DCMAKE_BUILD_TYPE=Release), CSRGAT_BUILD_DIR=<that build> scripts/stage-gpu.sh,
# then main's tuner (build-lead's, as stage-gpu.sh compresses it: xz -9 of the stripped binary)
# as .gpu/bin/tuner-base.xz.
# The steps are gpu-v63a.sh's (the A/B, the Colblock GPU tests, the masked-edge test, the colblock
# sanitizers), run with NO_RECORD=1, AB_ROUNDS 4 and DEADLINE 330 unless set; the files land in
# its folder, v63a/.
export NO_RECORD=1 AB_ROUNDS="${AB_ROUNDS:-4}" DEADLINE="${DEADLINE:-330}"
exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/gpu-v63a.sh"
