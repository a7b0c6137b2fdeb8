#!/usr/bin/env bash
# Thirty-second session, call 5: stream_gather with the barrier's counter read a chunk ahead (a
# wait blocks only when the value read then fell short), R 10-16, S 16 and 32 MB.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32e 12,16,15,4,stream7
