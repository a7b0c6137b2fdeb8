#!/usr/bin/env bash
# Thirty-second session, call 6: stream_gather with lags up to 31 (a ring of 32 counter slots)
# and the row statistics from a pre-pass in the timed call (stream+stats).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v32f 12,16,23,4,stream7+stats
