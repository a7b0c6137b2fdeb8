#!/usr/bin/env bash
# Thirty-fourth session, call 8: colblock with its plan built on the device (CUB), after the
# review (an abandoned barrier stops waiting for the rest of its launch; the device plan checked
# item for item against the host's): scripts/gpu-v34g.sh's tests, sanitizers and 2M bench, as v34h.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v34g.sh" v34h
