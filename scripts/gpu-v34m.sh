#!/usr/bin/env bash
# Thirty-fourth session, call 13: the run of record again on the session's final tree (colblock's
# new defaults, its device plan, the review's fixes): scripts/gpu-v34e.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v34e.sh"
