#!/usr/bin/env bash
# Fifteenth session, fourth call: the tuner's check against the reference on the GPU
# (tuner/device_compare.cu). Most important first:
#   1. every GPU test (DeviceCompare.*: the GPU check against the host's on crafted outputs);
#   2. the same tuning runs with HEAD's build (.gpu/bin/tuner-head, the host check) and this
#      tree's, side by side: pubmed H=8 (docs/data/v14/call7/probe-h8.yaml) and uniform 2M F=128
#      (docs/data/v15/call4/probe-u2m.yaml); each run's "Tuning time" section shows its phases.
# Logs, reports and stores are packed into $OUT/v15d.tgz.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v15d

step gpu_tests timeout -k 5 300 "$BIN/gpu_tests" > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure|^--- exit" "$W/gpu_tests.log" | head -40

probe() {  # probe BIN NAME CONFIG
  sed -e "s#OUTDIR#$W/$2#" "$3" > "configs/.probe-$2.yaml"
  step "$2" timeout -k 5 240 "$BIN/$1" run "configs/.probe-$2.yaml" > "$W/$2.log" 2>&1
  rm -f "configs/.probe-$2.yaml"
  grep -E "finished in|^(pubmed|uniform)" "$W/$2.log"
  [ -f "$W/$2/report/report.md" ] && sed -n '/^| problem | trials/,/^$/p' "$W/$2/report/report.md"
  [ -f "$W/$2/results.sqlite" ] && gzip -9 "$W/$2/results.sqlite"
  mv "$W/$2/report/report.md" "$W/$2-report.md" 2>/dev/null
  rm -rf "$W/$2/cache" "$W/$2/report"
}
probe tuner-head h8-head docs/data/v14/call7/probe-h8.yaml
probe tuner h8-tree docs/data/v14/call7/probe-h8.yaml
probe tuner-head u2m-head docs/data/v15/call4/probe-u2m.yaml
probe tuner u2m-tree docs/data/v15/call4/probe-u2m.yaml
echo "done at $SECONDS s"
