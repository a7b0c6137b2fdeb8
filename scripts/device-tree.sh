#!/usr/bin/env bash
# What a device call carries is the working tree (tracked and untracked-not-ignored files) plus
# its `carry` folders (.gpu, from scripts/stage-gpu.sh), at most 64 MiB by the device's count,
# which is larger than this one: the twenty-third session's call 6 was refused at 63.9 MiB
# counted here, so `size` warns above 60. The tracked tree is ~52 MB, half of it files no device
# script reads: the measurements under docs/data and the report under docs/h200-report. (The
# recorded store, tests/data/recorded, stays: the GPU test
# Dispatch.TunedHeaderRoutesEveryTunedGraphToItsRule reads it; the twenty-fourth session's call
# 4 ran without it and that test failed on the missing file.)
#   size     what a call would carry now (stage-gpu.sh prints it after staging)
#   trim     takes docs/data and docs/h200-report out of the working tree for a call (they stay
#            in git), and cuts the recorded store (the folder tests/data/recorded/h200/, a file a
#            run, ~3 MB each) down to its latest run, all that
#            the GPU's readers take from it (the dispatch test's header and winners, gpu-multi.sh's
#            REUSE, which then reuses the latest run's problems only: scripts/recorded_store.py
#            latest-only); then `size`
#   restore  brings them back (git checkout); run it right after the call: a commit in between
#            would record their removal
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PATHS=(docs/data docs/h200-report)
STORE=tests/data/recorded/h200
# The bytes of the working tree and .gpu, as a call carries them; files deleted from the
# working tree (trimmed) are listed by git and skipped by du.
size() {
  local tree stage total
  tree=$(git ls-files -z --cached --others --exclude-standard |
    { xargs -0 du -cb 2> /dev/null || true; } | awk '$2 == "total" {t += $1} END {print t + 0}')
  stage=$( [ -d .gpu ] && du -sb .gpu | cut -f1 || echo 0)
  total=$((tree + stage))
  echo "a device call carries $((total / 1048576)) MiB: the tree $((tree / 1048576)), .gpu $((stage / 1048576)) (limit 64 MiB)"
  if [ "$total" -gt $((60 * 1048576)) ]; then
    echo "device-tree: near or over the 64 MiB a device call carries: run '$0 trim' before the" \
         "call ('restore' after), or stage fewer binaries or graphs" >&2
  fi
}
case "${1:-}" in
  size)
    size
    ;;
  trim)
    if ! git diff --quiet --diff-filter=d HEAD -- "${PATHS[@]}"; then
      echo "device-tree: ${PATHS[*]} have uncommitted changes; commit them before trimming" >&2
      exit 1
    fi
    # Untracked files there would be deleted for good (restore checks out what git has): the
    # twenty-sixth session lost a call's unpacked data that way.
    untracked="$(git ls-files --others --exclude-standard -- "${PATHS[@]}" "$STORE")"
    if [ -n "$untracked" ]; then
      echo "device-tree: untracked files under ${PATHS[*]} $STORE; commit them before trimming:" >&2
      head -n 5 <<< "$untracked" >&2
      exit 1
    fi
    if ! git diff --quiet HEAD -- "$STORE"; then
      echo "device-tree: $STORE differs from the commit (a run appended, or trimmed already:" \
           "'$0 restore'); commit it before trimming" >&2
      exit 1
    fi
    rm -rf "${PATHS[@]}"
    python3 scripts/recorded_store.py latest-only "$STORE"
    echo "device-tree: trimmed"
    size
    ;;
  restore)
    git checkout -- "${PATHS[@]}" "$STORE"
    git status --short -- "${PATHS[@]}" "$STORE"
    echo "device-tree: restored"
    ;;
  *)
    echo "usage: $0 size|trim|restore" >&2
    exit 2
    ;;
esac
