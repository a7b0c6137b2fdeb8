#!/usr/bin/env bash
# Twenty-fifth session, call 1: block merges of 16 groups across the merging group's lanes
# (8a7a682: merge_block_chunks_lanes for tpr8/tpr16 in blocks of 16) against the run of
# record's kernels (2525cb4, .gpu/bin/tuner-head) and against the same merge in every block
# (.gpu/bin/tuner-lanesall: kMergeLanesAbove = 0, docs/data/v25/call1/lanesall.patch):
# the tuned dispatch side by side, five rounds; citeseer's rule and tpr16 fl8 rpb16 split8 (the
# space's new member) through NVRTC in the new and old builds, alternating; the timeline of the
# split8 kernel on citeseer; then the checks of the new code: GpuCorrectness and Production (but
# the million-edge row), memcheck and racecheck on sanitizer.yaml's blocks of 16 groups.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v25a
ab_tuned 5 tuner tuner-head tuner-lanesall | tee "$W/ab-table.txt"
P=vec4.t2.g4.smem0.online
V="csrgat.tpr16.fl8.rpb8.$P.split16.lpt.pf.bm.i32.f32,csrgat.tpr16.fl8.rpb16.$P.split8.lpt.pf.bm.i32.f32"
for i in 1 2 3; do
  for bin in tuner tuner-head; do
    step "ids-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "$G/citeseer.mtx.gz" --feat 64 --impl "$V" \
      --max-seconds 0.3 --max-samples 300 --rounds 2 --json "$W/ids-$bin-$i.json" > "$W/ids-$bin-$i.txt" 2>&1
    grep -E "citeseer|csrgat" "$W/ids-$bin-$i.txt" | head -6
  done
done
ab_timeline "$G/citeseer.mtx.gz" "csrgat.tpr16.fl8.rpb16.$P.split8.lpt.pf.bm.i32.f32" 14 tuner tuner-head
gzip -9 "$W"/*.json 2>/dev/null
step gpu_tests timeout 120 "$BIN/gpu_tests" --gtest_filter='GpuCorrectness.*:Production.*-*OneRowOfAMillionEdges*' > "$W/gpu_tests.log" 2>&1
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" "$W/gpu_tests.log" | tail -8
# The sanitizer config's blocks of 16 groups only (the other variants' code did not change).
{ sed -n '/^name:/,/^graphs:/p' configs/sanitizer.yaml
  sed -n '/name: powerlaw_3k_bm16/,/constraints: \[.*\]}$/p' configs/sanitizer.yaml
  sed -n '/^space:/,$p' configs/sanitizer.yaml | sed 's/^baselines: .*/baselines: []/'
} | sed 's#^output: .*#output: /tmp/san16#' > "$W/san16.yaml"
for tool in memcheck racecheck; do
  step "$tool" timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 "$T" check "$W/san16.yaml" --seed 7 > "$W/$tool.log" 2>&1
  tail -3 "$W/$tool.log"
done
echo "done at $SECONDS s"
