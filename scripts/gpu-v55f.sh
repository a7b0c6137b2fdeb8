#!/usr/bin/env bash
# Fifty-fifth session, call 8 (full staging): on an H200 first the run of record; then
# colblock_probe's default list (the library's new bfloat16 sweep, 127 in groups of 8 at 1024
# ns, against lags 6 and 7, R 17 and 21, 16.8 MB partitions; float32 79 at 2048 ns against 15;
# docs/perf-notes.md, "Fifty-fifth session: the new bfloat16 sweep's geometry (prediction)").
# (gpu-v55b.sh's steps: the probe's default list, after the run of record on an H200.)
NAME=${NAME:-v55f} exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v55b.sh"
