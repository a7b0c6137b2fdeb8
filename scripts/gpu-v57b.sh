#!/usr/bin/env bash
# Fifty-seventh session, call 5 onwards: scripts/gpu-v57a.sh's steps (the same probe list and
# trial) on the build whose bit 7 sums the early read and reads afresh only where it falls short
# (SoftBarrier::settle; docs/perf-notes.md, "Fifty-seventh session: the early read where it is
# enough (prediction)"), into v57b and v57b-lib.
# (Its bit 7 and the probe's 255 and 175 were removed after it ran (calls 4 and 7): run it on a
# checkout of b9e02e8.)
NAME="${NAME:-v57b}" exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v57a.sh"
