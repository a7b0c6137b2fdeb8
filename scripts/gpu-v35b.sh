#!/usr/bin/env bash
# Thirty-fifth session, call 2: the run of record on run 18's header, whose uniform 2M rule runs
# the column-blocked sweep through a Shape made from the device graph (tuner bench's `tuned` and
# peers_pyg.py's in-process library now make theirs so): scripts/gpu-v34e.sh (prof_check, then
# SKIP_CHECK=1 WRITE_FLUSH=0 scripts/gpu-final.sh, whose dispatch step runs Dispatch.*, among them
# AColblockRuleRunsTheSweepWhereAShapeHoldsItsPlan).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v34e.sh"
