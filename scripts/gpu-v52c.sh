#!/usr/bin/env bash
# Fifty-second session (stage colblock_probe): the group loop's trims on float32 values (as
# scripts/gpu-v52a.sh) and on bfloat16 values (the library's bf16 instance, a ring of 16 rows,
# trims 0 and 3), where the sweep is bound by its items rather than its bytes (thirty-sixth
# session), so that an H100 answers whether fewer instructions an item shorten an item-bound
# sweep; then Nsight Compute on the bf16 trims 0 and 3 (docs/perf-notes.md, "Fifty-second
# session: the trims on bfloat16 values (prediction)").
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v52c 19,33,8,16,tma5r10s4096h \
  19,33,8,16,tma5r10s4096t3h
