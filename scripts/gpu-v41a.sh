#!/usr/bin/env bash
# Forty-first session, call 1: run 24, a fresh tune of configs/h200.yaml on the tree whose
# generator cleanup (one graph-file-extension predicate, generate_powerlaw's single check) moved
# the generator hash, so the recorded runs' generated graphs read as another source and nothing
# can be reused. scripts/gpu-multi.sh: multi.tgz, stopped at LIMIT (380) s. Then, here:
# scripts/adopt-run.sh (the run becomes tests/data/recorded/h200/run-0024.sqlite.gz, the first
# run kept in a file of its own), and call 2 (scripts/gpu-v41b.sh) on its header.
set -uo pipefail
CFG=configs/h200.yaml LIMIT="${LIMIT:-380}" bash "$(dirname "${BASH_SOURCE[0]}")/gpu-multi.sh"
