#!/usr/bin/env bash
# Seventeenth session, call 1: the locality experiment (perf-notes, "Seventeenth session: does
# the order of the rows matter?"). Needs .gpu/graphs/*-bfs.mtx.gz (scripts/relabel_graph.py)
# and the experiment build .gpu/bin/tuner-exp (CSRGAT_EXP_ORDER, not committed).
# 1. Nsight Compute's L1/L2 counters on run 8's ca-astroph kernel: as given, relabelled, and
#    with the rows taken breadth-first.
# 2. configs/h200-locality.yaml tuned as given (graphs as given and relabelled), then on the
#    graphs as given with CSRGAT_EXP_ORDER=bfs and =bfslpt; the best time per graph and family.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
out_dir v17
X="$BIN/tuner-exp"
V=csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split32.lpt.pf.i32.f32
M=gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active
nc() {  # nc LABEL GRAPH [ENV]: one launch of $V under ncu (caches flushed before it)
  local name="$1" graph="$2"; shift 2
  env "$@" ncu --clock-control none --nvtx --nvtx-include "csrgat/$name/$V/profile/" --launch-count 1 \
      --metrics "$M" "$X" profile --graph "$graph" --name "$name" --variant "$V" --iters 3 \
      > "$W/ncu-$name.txt" 2>&1
  echo "--- $name $*"; grep -E "^ +(gpu__|l1tex__|lts__|dram__|sm__)" "$W/ncu-$name.txt"
}
step ncu_astroph nc ca-astroph "$G/ca-astroph.mtx.gz" CSRGAT_EXP_ORDER=
nc ca-astroph-bfs "$G/ca-astroph-bfs.mtx.gz" CSRGAT_EXP_ORDER=
nc ca-astroph-order "$G/ca-astroph.mtx.gz" CSRGAT_EXP_ORDER=bfs
nc cit-hepph "$G/cit-hepph.mtx.gz" CSRGAT_EXP_ORDER=

best() {  # best STORE: best GPU time per graph and family of a run's trials
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = db.execute("select max(run_id) from trials").fetchone()[0]
for g, v, us in db.execute("""select graph, variant, min(median_us) from trials
                              where status = 'ok' and run_id = ? group by graph
                              order by graph""", (run,)):
    print(f"{g:16s} best {us:8.2f} us  {v}")
for g, fam, us, n in db.execute("""select graph, substr(variant, 1, instr(substr(variant, 8), '.') + 6) fam,
                                   min(median_us), count(*) from trials where status = 'ok' and run_id = ?
                                   group by graph, fam order by graph, 3""", (run,)):
    print(f"  {g:16s} {fam:14s} {us:9.2f} us  ({n} trials)")
PY
}
step run_given timeout 300 "$X" run configs/h200-locality.yaml > "$W/run_given.log" 2>&1
tail -n 4 "$W/run_given.log"; best runs/h200-locality/results.sqlite | tee "$W/best_given.txt"
for mode in bfs bfslpt; do
  grep -v -- "-bfs.mtx.gz" configs/h200-locality.yaml | sed "s#runs/h200-locality#runs/h200-locality-$mode#" \
    > configs/h200-locality-$mode.yaml
  step "run_$mode" env CSRGAT_EXP_ORDER=$mode timeout 300 "$X" run configs/h200-locality-$mode.yaml \
    > "$W/run_$mode.log" 2>&1
  tail -n 4 "$W/run_$mode.log"
  best runs/h200-locality-$mode/results.sqlite | tee "$W/best_$mode.txt"
done
for d in h200-locality h200-locality-bfs h200-locality-bfslpt; do
  [ -f runs/$d/results.sqlite ] && gzip -9c runs/$d/results.sqlite > "$W/$d.sqlite.gz"
done
echo "done at $SECONDS s"
