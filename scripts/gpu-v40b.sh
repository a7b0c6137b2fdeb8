#!/usr/bin/env bash
# Run 23 (plan of the fortieth session, for the next session with a device; full staging): a fresh
# tune of configs/h200.yaml on a tree with docs/data/v40/graph-guards.patch applied and committed
# (the graph guards, which move the graph source hash, and the sweep list with the L1 policies
# 2 and 3, which the tuner then picks among on uniform_2m_d32). The kernels hash moved since run
# 22 (the L1 policies' instances), so nothing can be reused. scripts/gpu-multi.sh: multi.tgz,
# stopped at LIMIT (380) s. Then, here: scripts/append_run.py into tests/data/recorded/h200.sqlite.gz,
# tuner emit + promote, scripts/regen-golden.sh, and the run of record (scripts/gpu-v34e.sh).
set -uo pipefail
CFG=configs/h200.yaml LIMIT="${LIMIT:-380}" bash "$(dirname "${BASH_SOURCE[0]}")/gpu-multi.sh"
