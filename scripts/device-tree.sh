#!/usr/bin/env bash
# What a device call carries is the working tree (tracked and untracked-not-ignored files) plus
# its `carry` folders, at most 64 MiB by the device's count. The tracked tree is ~52 MB, half of
# it files no device script reads: the measurements under docs/data and the report under
# docs/h200-report. (The recorded store, tests/data/recorded, stays: the GPU test
# Dispatch.TunedHeaderRoutesEveryTunedGraphToItsRule reads it; the twenty-fourth session's call
# 4 ran without it and that test failed on the missing file.) `trim` takes them out of the working tree for a call (they stay in
# git) and prints what the call then carries; `restore` brings them back (git checkout).
# Run `restore` right after the call: a commit in between would record their removal.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PATHS=(docs/data docs/h200-report)
case "${1:-}" in
  trim)
    if ! git diff --quiet --diff-filter=d HEAD -- "${PATHS[@]}"; then
      echo "device-tree: ${PATHS[*]} have uncommitted changes; commit them before trimming" >&2
      exit 1
    fi
    rm -rf "${PATHS[@]}"
    tree=$(git ls-files -z --cached --others --exclude-standard |
      { xargs -0 du -cb 2> /dev/null || true; } | awk '$2 == "total" {t += $1} END {print t + 0}')
    stage=$( [ -d .gpu ] && du -sb .gpu | cut -f1 || echo 0)
    echo "device-tree: trimmed; a call carries $(((tree + stage) / 1048576)) MiB" \
         "(tree $((tree / 1048576)), .gpu $((stage / 1048576)); limit 64)"
    ;;
  restore)
    git checkout -- "${PATHS[@]}"
    git status --short -- "${PATHS[@]}"
    echo "device-tree: restored"
    ;;
  *)
    echo "usage: $0 trim|restore" >&2
    exit 2
    ;;
esac
