#!/usr/bin/env bash
# Twenty-fourth session, call 2: which half of the re-applied patch moved what (call 1: citeseer
# +4.0%, cora +2.1%, cit-hepph -2.5%, the rest -0.4..-1.1%). Four tuner builds' tuned dispatch
# side by side, four rounds: tuner (630310a: ex2.approx.ftz everywhere and the straight-line
# merge of two groups), tuner-head (28cbabc, the run of record's kernels), tuner-merge (the
# straight-line merge only: citeseer's kernel is byte-identical to tuner-head's, so its row is
# the noise control), tuner-d (as tuner, but rescale_to keeps exp2f, whose longer body ptxas
# leaves behind a branch instead of predicating it on every batch).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v24a
ab_tuned 4 tuner tuner-head tuner-merge tuner-d | tee "$W/ab-table.txt"
gzip -9 "$W"/*.json 2>/dev/null
echo "done at $SECONDS s"
