#!/usr/bin/env bash
# Thirty-fifth session, call 7 (stage `tuner` only): configs/h200-colblock.yaml (as it was then:
# the sweep's lags, partition sizes and register rows) on uniform 2M, f32 and bf16, with
# counters: is the bf16 sweep paced by its soft barrier? Store and report in $OUT/v35g.tgz.
NAME=v35g exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-config-probe.sh"
