# Sourced by the scripts/gpu-*.sh scripts on the GPU machine (repo root, .gpu/ staged by
# scripts/stage-gpu.sh): the repo root as the working folder, the staged binaries and graphs,
# the layout the configs expect (../shared/graphs beside the checkout), CUDA tools on PATH,
# and step NAME CMD... which runs CMD between a header and its exit status and time.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/.gpu/bin"; T="$BIN/tuner"; G="$ROOT/.gpu/graphs"
# Target 2's and 5's DRAM-bound graph (F = 128 in the issue's table): uniform 2M, degree 32.
G2M="uniform:n=2000000,deg=32,seed=1"
# Binaries may travel gzipped (BIN/NAME.gz, e.g. a second tuner for A/B runs, tuner-head): the
# device call carries at most 64 MiB, the tracked tree included.
for z in "$BIN"/*.gz; do [ -f "$z" ] && gunzip -f "$z" && chmod +x "${z%.gz}"; done
# Or xz-compressed (scripts/stage-gpu.sh), unpacked by Python's lzma where xz is missing.
for z in "$BIN"/*.xz; do
  [ -f "$z" ] || continue
  if command -v xz > /dev/null; then xz -df "$z"; else
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[1][:-3], "wb"))' "$z" && rm -f "$z"
  fi && chmod +x "${z%.xz}"
done
# Configs name ../../shared/graphs relative to configs/: give the checkout that layout.
[ -d "$ROOT/../shared/graphs" ] || { mkdir -p "$ROOT/../shared" && ln -sfn "$G" "$ROOT/../shared/graphs"; }
export CSRGAT_SOURCE_DIR="$ROOT" CSRGAT_GRAPHS_DIR="$G" PATH="/usr/local/cuda/bin:$PATH"
# The GPU tests compute-sanitizer runs over the column-blocked sweep (gpu-check.sh's colblock
# steps): memcheck over all of them but the one that makes its barrier give up, and the library's
# path through a Shape; racecheck over masked and half-empty graphs, the bf16 ring, and the rows
# summed again (tma_gather's walk through its ring, sixty-first session).
COLBLOCK_MEMCHECK_TESTS='Colblock.*:Dispatch.AColblock*:-Colblock.BarrierNeverGivesUp'
COLBLOCK_RACECHECK_TESTS='Colblock.MaskedEdgesAndRows:Colblock.EmptyRowsMixedInBatches:Colblock.Bfloat16Values:Colblock.MaskedEdgesFromInfiniteSourcesStayOut'
# first_gpu: the machine's first GPU's name into GPU_NAME, read once and printed ("GPU: NAME");
# a failing nvidia-smi ends the script.
first_gpu() {
  GPU_NAME="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" || { echo "nvidia-smi failed"; exit 1; }
  echo "GPU: $GPU_NAME"
}
# record_first_on_h200: on an H200 (first_gpu's GPU_NAME), the run of record before the caller's
# own steps (CHECK_PART=0 scripts/gpu-v47a.sh; END, default 330, bounds it), and returns 0; on any
# other GPU returns 1 at once (the issue's figures are the H200's, and H200s come seldom); also
# where NO_RECORD=1 (a call with too little device time left for the record's ~330 s).
record_first_on_h200() {
  [[ "$GPU_NAME" == *H200* && "${NO_RECORD:-0}" != 1 ]] || return 1
  CHECK_PART=0 END=${END:-330} bash "$ROOT/scripts/gpu-v47a.sh"
  return 0
}
# colblock_tests [GPU_TESTS] (after out_dir): the column-blocked sweep's GPU tests (Colblock.*;
# GPU_TESTS, default $BIN/gpu_tests, the binary) into $W/colblock_tests.log, their summary printed.
colblock_tests() {
  step colblock_tests timeout 300 "${1:-$BIN/gpu_tests}" --gtest_filter='Colblock.*' > "$W/colblock_tests.log" 2>&1
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" "$W/colblock_tests.log"
}
# ab_colblock_lib ROUNDS BUILD... (after out_dir; the sixty-first session): the library's three
# sweeps by id (float32 r19, bfloat16 r19 and the tensor-core r24) on uniform 2M d32 F128, cold,
# two rounds a process, from each tuner build ($BIN/BUILD) in turn, ROUNDS times, into
# $W/ab-BUILD-{f32,bf16}-i.json, each result line printed.
ab_colblock_lib() {
  local rounds=$1 i bin
  shift
  for bin in "$@"; do
    [ -x "$BIN/$bin" ] || { echo "ab_colblock_lib: no $BIN/$bin staged: no A/B"; return 1; }
  done
  for ((i = 1; i <= rounds; ++i)); do
    for bin in "$@"; do
      step "ab-$bin-f32-$i" timeout 120 "$BIN/$bin" bench --graph "$G2M" --feat 128 --value f32 \
        --rounds 2 --impl colblock.r19.ps16.lag8.i32.f32 --json "$W/ab-$bin-f32-$i.json" 2>&1 | grep "^uniform"
      step "ab-$bin-bf16-$i" timeout 120 "$BIN/$bin" bench --graph "$G2M" --feat 128 --value bf16 \
        --rounds 2 --impl colblock.r19.ps16.lag8.i32.bf16,colblock.r24.ps16.lag8.mma.i32.bf16 \
        --json "$W/ab-$bin-bf16-$i.json" 2>&1 | grep "^uniform"
    done
  done
}
# colblock_sanitizers DEADLINE (after out_dir; the sixty-first session): compute-sanitizer
# memcheck and racecheck over the Colblock GPU tests (gpu-check.sh's colblock steps and filters)
# into $W/colblock_TOOL.log, each while more than 40 s are left before DEADLINE seconds of the
# script, their summaries printed.
colblock_sanitizers() {
  local tool filter left
  for tool in memcheck racecheck; do
    left=$(($1 - SECONDS))
    [ "$left" -gt 40 ] || { echo "colblock_$tool: skipped, ${left} s left"; continue; }
    filter=$COLBLOCK_MEMCHECK_TESTS
    [ "$tool" = racecheck ] && filter=$COLBLOCK_RACECHECK_TESTS
    step "colblock_$tool" timeout -k 5 "$left" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$BIN/gpu_tests" --gtest_filter="$filter" > "$W/colblock_$tool.log" 2>&1
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) " "$W/colblock_$tool.log"
  done
}
# probe_configs CONFIG... (after out_dir; the sixtieth session): each colblock_probe --config
# CONFIG (uniform 2M d32 F128) into $W/probe<PROBE_TAG>-<its trim>.json, its sweep's line
# printed; PROBE (default $BIN/colblock_probe) runs another build's probe.
probe_configs() {
  local cfg
  for cfg in "$@"; do
    step "probe $cfg" timeout 120 "${PROBE:-$BIN/colblock_probe}" "$W/probe${PROBE_TAG:-}-${cfg##*t}.json" --config "$cfg" 2>&1 |
      grep -E "^tma"
  done
}
# probe_poisoned TIMEOUT CONFIG... (after out_dir; the fifty-ninth session): each colblock_probe
# --config CONFIG with --poison 64 (64 source rows holding a +Inf), its diff from the reference
# printed: finite where the sweep keeps a non-finite value to the rows that gather it.
probe_poisoned() {
  local limit=$1 cfg
  shift
  for cfg in "$@"; do
    step "poison $cfg" timeout "$limit" "$BIN/colblock_probe" "$W/poison-${cfg##*t}.json" --poison 64 \
      --config "$cfg" 2>&1 | grep -E "^(baseline U=4 |tma|[0-9]+ source rows)"
  done
}
# colblock_lib_bf16 IMPLS [GPU_TESTS] (after out_dir): colblock_tests GPU_TESTS, then `tuner bench` ($T: a trial's tuner where the caller sets it) of the
# bfloat16 IMPLS (a comma list, tuner bench's --impl) on uniform 2M d32 F128, two rounds, into
# $W/bench-bf16.json.
colblock_lib_bf16() {
  colblock_tests "${2:-}"
  bench_2m bf16 "$1" 14
}
# bench_2m VALUE IMPLS [LINES] (after out_dir): `tuner bench` ($T) of IMPLS (a comma list, tuner
# bench's --impl) with VALUE storage on uniform 2M d32 F128 ($G2M), cold, two rounds, into
# $W/bench-VALUE.json, the last LINES (default 6) lines of its output printed.
bench_2m() {
  step "bench_$1" timeout 200 "$T" bench --graph "$G2M" --feat 128 --value "$1" --rounds 2 \
    --impl "$2" --json "$W/bench-$1.json" 2>&1 | tail -n "${3:-6}"
}
# targets_2m (after out_dir): targets 2 and 5 on uniform 2M d32 F128 by bench_2m: float32, the
# tuned dispatch and the seed; bfloat16 (float32 out), the tuned dispatch and the library's two
# bfloat16 sweeps by id (tma_gather's and the tensor cores').
targets_2m() {
  bench_2m f32 tuned,seed
  bench_2m bf16 tuned,colblock.r19.ps16.lag8.i32.bf16,colblock.r24.ps16.lag8.mma.i32.bf16
}
# pack PARENT NAME: PARENT/NAME into PARENT/NAME.tgz, the folder removed once packed, also when
# a step still writing to it makes tar exit 1 (what tar read is packed); kept when tar fails.
# The device returns at most 8 files of at most 16 MiB: a larger pack is cut into NAME.tgz.aa,
# .ab, ... of 15 MiB, `cat NAME.tgz.* | tar xz` here (the twenty-first session lost run 12's
# first pack, 16+ MiB with the recorded store it had reused).
pack() {
  tar --warning=no-file-changed -C "$1" -czf "$1/$2.tgz" "$2"
  [ $? -le 1 ] && rm -rf "${1:?}/$2" || return 1
  if [ "$(stat -c %s "$1/$2.tgz")" -gt 15728640 ]; then
    split -b 15M "$1/$2.tgz" "$1/$2.tgz." && rm -f "$1/$2.tgz"
  fi
}
step() { local t0=$SECONDS; echo "=== $1 (at ${t0} s)"; shift; "$@"; echo "--- exit $? ($((SECONDS - t0)) s)"; }
# out_dir NAME: logs and JSON go to $W ($OUT/NAME, or .gpu/out/NAME off the device tool), packed
# into $O/NAME.tgz on exit (pack: cut in pieces when large; the folder stays when packing
# fails); prints the GPU and its clocks, and the host's CPU.
out_dir() {
  O="${OUT:-$ROOT/.gpu/out}"; W="$O/$1"; mkdir -p "$W"
  trap "pack '$O' '$1' 2>/dev/null" EXIT
  trap 'exit 143' TERM INT
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  # The host too: a Python caller's time per call depends on its CPU (twenty-eighth session).
  lscpu 2>/dev/null | grep -E "^Model name|^CPU\(s\)|^CPU max MHz" | tr -s " "
}
# gpu_check_until DEADLINE (after out_dir): the whole GPU check (scripts/gpu-check.sh, OUT
# $W/check) within DEADLINE seconds of the script, its last 30 lines printed.
gpu_check_until() {
  step gpu_check env OUT="$W/check" timeout -k 5 $(($1 - SECONDS)) bash scripts/gpu-check.sh 2>&1 | tail -n 30
}
# gpu_tests_until DEADLINE FILTER: the GPU tests FILTER selects (a --gtest_filter) into
# $W/gpu_tests.log, if more than a minute is left before DEADLINE seconds of the script.
gpu_tests_until() {
  local left=$(($1 - SECONDS))
  if [ "$left" -gt 60 ]; then
    step gpu_tests timeout -k 5 "$left" "$BIN/gpu_tests" --gtest_filter="$2" > "$W/gpu_tests.log" 2>&1
    grep -E "^\[ +(OK|FAILED|PASSED) |Failure|^--- exit" "$W/gpu_tests.log" | head -40
  else
    echo "gpu_tests: skipped, ${left} s left before the $1 s deadline"
  fi
}
# ncu_sass NAME GRAPH VARIANT: Nsight Compute's per-instruction warp sampling (SASS, CSV) of one
# tuner profile launch of VARIANT on GRAPH, cold (ncu flushes the caches before it), filtered by
# its NVTX range, into $W/ncu-NAME-sass.csv (scripts/sass_stalls.py sums it); at most
# NCU_TIMEOUT (150) seconds; NCU_EXTRA adds options (e.g. --warp-sampling-interval 0: a sample
# every 32 cycles per SM, for a launch of a few microseconds).
ncu_sass() {
  # shellcheck disable=SC2086
  timeout -k 5 "${NCU_TIMEOUT:-150}" ncu --clock-control none ${NCU_EXTRA:-} --section WarpStateStats \
      --section SourceCounters --section LaunchStats \
      --nvtx --nvtx-include "csrgat\/$1\/$3\/profile/" --launch-skip 1 --launch-count 1 \
      --page source --print-source sass --csv \
      "$T" profile --graph "$2" --name "$1" --variant "$3" --iters 3 > "$W/ncu-$1-sass.csv" 2> "$W/ncu-$1.err"
  echo "--- $1: exit $?, $(wc -l < "$W/ncu-$1-sass.csv") lines"; head -c 300 "$W/ncu-$1.err"
}
# ncu_probe_source NAME CONFIG: Nsight Compute's instructions executed and stall samples a SASS
# instruction (SourceCounters, WarpStateStats; CSV gzipped into $W/NAME.csv.gz, ncu's stderr in
# $W/NAME.err) on one launch of colblock_probe's sweep CONFIG (--config syntax), uniform 2M
# (fifty-third session: where the sweep's instructions and stalls go; scripts/sass_stalls.py
# sums it). NCU_KERNEL (default tma_gather) is the kernel's name pattern (mma_gather: the
# fifty-eighth session's). PROBE (default $BIN/colblock_probe) names another build's probe, as
# in probe_configs (there PROBE_TAG marks its JSON files).
ncu_probe_source() {
  step "ncu source $2" timeout -k 5 150 ncu --clock-control none -k "regex:${NCU_KERNEL:-tma_gather}" --launch-count 1 \
    --section WarpStateStats --section SourceCounters --page source --print-source sass --csv \
    "${PROBE:-$BIN/colblock_probe}" "$W/once.json" --config "$2" --once > "$W/$1.csv" 2> "$W/$1.err"
  echo "source page: $(wc -l < "$W/$1.csv") lines"; head -c 600 "$W/$1.err"
  gzip -9 "$W/$1.csv"
}
# ab_tuned ROUNDS NEW OLD [MORE...]: the tuned dispatch of tuner builds ($BIN/NEW, $BIN/OLD,
# $BIN/MORE...) side by side, cold GPU time, the seed shape and the seven real graphs: each
# round runs every build once in turn into $W/ab-BUILD-i.json; then scripts/ab_table.py's
# table of NEW and of each MORE against OLD (the A/B calls of the nineteenth to twenty-third
# sessions wrote this loop out each time).
ab_tuned() {
  local rounds=$1 old=$3 i bin real=()
  local builds=("${@:2}")
  for f in cora citeseer pubmed wiki-vote ca-astroph cit-hepph soc-slashdot0902; do real+=(--graph "$G/$f.mtx.gz"); done
  for ((i = 1; i <= rounds; ++i)); do
    for bin in "${builds[@]}"; do
      step "ab-$bin-$i" timeout 60 "$BIN/$bin" bench --graph "seed:n=384,deg=18,seed=1" "${real[@]}" --feat 64 \
        --impl tuned --max-seconds 0.2 --max-samples 200 --rounds 2 --json "$W/ab-$bin-$i.json" > "$W/ab-$bin-$i.txt" 2>&1
    done
  done
  for bin in "${builds[@]}"; do
    [ "$bin" = "$old" ] || python3 "$ROOT/scripts/ab_table.py" "$W" ab "$bin" "$old"
  done
}
# ab_timeline GRAPH VARIANT LINES BUILD...: `tuner timeline` of one variant, cold, every task
# recorded, from each tuner build in turn into $W/tl-BUILD.json and .txt, the first LINES lines
# of each summary printed (the twenty-fifth and twenty-sixth sessions' A/B calls).
ab_timeline() {
  local graph=$1 variant=$2 lines=$3 bin
  for bin in "${@:4}"; do
    step "tl-$bin" timeout 60 "$BIN/$bin" timeline --graph "$graph" --variant "$variant" \
      --cache cold --tasks --json "$W/tl-$bin.json" > "$W/tl-$bin.txt" 2>&1
    head -"$lines" "$W/tl-$bin.txt"
  done
}
# statuses STORE: a results store's trials per run and status, then every trial neither ok nor
# unsupported with the start of its detail (the fault runs' crashed and timeout records).
statuses() { python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute("select run_id, status, count(*) from trials group by run_id, status order by run_id, status"):
    print("  run %s %-14s %d" % row)
for row in db.execute("select graph, variant, status, substr(detail,1,110) from trials where status not in ('ok','unsupported')"):
    print("  %s %s %s: %s" % row)
PY
}
# ncu_probe_counters KERNELS CONFIG METRICS: Nsight Compute's METRICS (a comma list) on one launch
# each of colblock_probe's kernels matching the regex KERNELS, under --config CONFIG --once, into
# $W/ncu.csv, then printed kernel by kernel (every statistic of its lts__, l1tex__, dram__ and
# gpu__ metrics).
ncu_probe_counters() {
  step ncu timeout -k 5 400 ncu --clock-control none -k regex:"$1" --launch-count 2 --metrics "$3" \
    --csv --page raw "$BIN/colblock_probe" "$W/once.json" --config "$2" --once > "$W/ncu.csv" 2> "$W/ncu.err"
  tail -5 "$W/ncu.err"
  python3 - "$W/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
names = rows[hdr]
for r in [r for r in rows[hdr + 2:] if len(r) == len(names)]:
    d = dict(zip(names, r))
    print(d.get("Kernel Name", "")[:60])
    for k in names:
        if k.startswith(("lts__", "l1tex__", "dram__", "gpu__")):
            print(f"  {k:60s} {d[k]}")
PY
}
