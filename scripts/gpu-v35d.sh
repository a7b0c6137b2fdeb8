#!/usr/bin/env bash
# Thirty-fifth session, call 4: the run of record on run 19's header (the sweep on f32 attached
# to the uniform 2M rule; on bf16 measured slower than the family and not attached):
# scripts/gpu-v34e.sh (prof_check, then SKIP_CHECK=1 WRITE_FLUSH=0 scripts/gpu-final.sh).
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v34e.sh"
