#!/usr/bin/env bash
# Thirty-fourth session, call 5: the run of record on the session's tree (scripts/gpu-v15c.sh:
# prof_check, then SKIP_CHECK=1 scripts/gpu-final.sh), its bench-2m step now with tuner bench's
# colblock beside the dispatch, the seed and cuSPARSE; the write-flush PyG pass skipped
# (WRITE_FLUSH=0: no target reads it, and the call must fit in 600 s).
WRITE_FLUSH=0 exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v15c.sh"
