#!/usr/bin/env bash
# GPU check of the commands beside `tuner run` (run by scripts/gpu-check.sh on the GPU machine,
# ~1 minute):
#   1. bench checks each row against the values it reads: a bfloat16 fused id under the default
#      --value f32 is correct at the 16-bit tolerance and its row says bf16; cuSPARSE under
#      --value bf16 reads float32 and says so;
#   2. bench keeps the rows before a graph that fails as a whole (a .mtx that does not parse):
#      an error row for it, the JSON written, exit 1;
#   3. profile runs an `.o16` id (its 16-bit out) in its NVTX range;
#   4. timeline keeps a graph's entry when a later graph fails, says why, exits 1;
#   5. check prints the seed its inputs came from, and stops naming a variant that hangs.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
D="$(mktemp -d "${TMPDIR:-/tmp}/csrgat-commands.XXXXXX")"
trap 'rm -rf "$D"' EXIT
SEED="seed:n=384,deg=18,seed=1"
ID="csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32"
# A banner and size line that pass the commands' up-front check, an entry that does not parse.
printf '%s\n' '%%MatrixMarket matrix coordinate pattern general' '3 3 2' '1 2' 'x y' >"$D/bad.mtx"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
quick=(--max-seconds 0.05 --max-samples 20)

"$T" bench --graph "$SEED" --feat 64 --impl "$ID.bf16,tuned" "${quick[@]}" --json "$D/b1.json" >"$D/b1.log" 2>&1
rc=$?; cat "$D/b1.log"
[ "$rc" = 0 ] || bad "bench of a bf16 id under --value f32: exit $rc"
python3 - "$D/b1.json" "$ID.bf16" <<'PY' || bad "bench rows' value types"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
r = next(r for r in rows if r["impl"] == sys.argv[2])
assert r["status"] == "ok" and r["value"] == "bf16", r
t = next(r for r in rows if r["impl"] == "tuned")
assert t["value"] == "f32", t
print("bench value types: ok (", r["rel_error"], ")")
PY
"$T" bench --graph "$SEED" --feat 64 --value bf16 --impl cusparse "${quick[@]}" --json "$D/b2.json" >"$D/b2.log" 2>&1
rc=$?; cat "$D/b2.log"
[ "$rc" = 0 ] || bad "bench cusparse under --value bf16: exit $rc"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; assert r["value"]=="f32" and r["status"]=="ok", r' "$D/b2.json" ||
  bad "cusparse's row under --value bf16 is not float32"

"$T" bench --graph "$SEED" --graph "$D/bad.mtx" --feat 64 --impl seed "${quick[@]}" --json "$D/b3.json" >"$D/b3.log" 2>&1
rc=$?; cat "$D/b3.log"
[ "$rc" = 1 ] || bad "bench with a graph that does not parse: exit $rc, not 1"
python3 - "$D/b3.json" <<'PY' || bad "bench lost rows or said nothing of the bad graph"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
assert any(r["status"] == "ok" and r["graph"].startswith("seed:") for r in rows), rows
e = [r for r in rows if r["status"] == "error"]
assert len(e) == 1 and e[0]["graph"].endswith("bad.mtx") and e[0]["detail"], e
print("bench error row:", e[0]["detail"][:120])
PY

"$T" profile --graph "$SEED" --variant "$ID.bf16.o16" --iters 3 >"$D/p.log" 2>&1
rc=$?; cat "$D/p.log"
[ "$rc" = 0 ] || bad "profile of an .o16 id: exit $rc"

"$T" timeline --graph "$SEED" --graph "$D/bad.mtx" --variant "$ID.f32" --json "$D/t.json" >"$D/t.log" 2>&1
rc=$?; tail -n 5 "$D/t.log"
[ "$rc" = 1 ] || bad "timeline with a graph that does not parse: exit $rc, not 1"
python3 - "$D/t.json" <<'PY' || bad "timeline lost the good graph's entry or said nothing"
import json, sys
out = json.load(open(sys.argv[1]))
assert len(out) == 2 and "summary" in out[0] and "error" in out[1], out
print("timeline error entry:", out[1]["error"][:120])
PY

"$T" check configs/sanitizer.yaml --seed 11 >"$D/c.log" 2>&1
rc=$?; grep -E "^check:" "$D/c.log"
[ "$rc" = 0 ] || bad "check configs/sanitizer.yaml: exit $rc"
grep -q "check: inputs from seed 11 (--seed 11 repeats them)" "$D/c.log" || bad "check did not print its seed"

# A kernel that runs past timing.timeout_seconds (a 2 s spin in each task against a 1 s limit):
# check stops, naming it, with exit 1, instead of waiting on it.
HANG="csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32.delay2000000000"
trap 'rm -rf "$D" configs/.hang-check.yaml' EXIT
cat >configs/.hang-check.yaml <<YAML
name: hang-check
arch: sm_90
output: $D/hang
graphs:
  - {name: seed_384, spec: "seed:n=384,deg=18,seed=1", feat: [64]}
space: {tpr: [32], fl: [8], rpb: [4], vec: [4], tiles: [2]}
baselines: []
strategy: {kind: exhaustive}
timing: {timeout_seconds: 1}
test_only: {delay_variants: [$HANG]}
YAML
timeout 120 "$T" check configs/.hang-check.yaml --seed 3 >"$D/h.log" 2>&1
rc=$?; grep -E "^check:" "$D/h.log"
[ "$rc" = 1 ] || bad "check of a hanging variant: exit $rc, not 1"
grep -q "check: stopped: $HANG on seed_384 F=64 H=1 still runs after 1 s" "$D/h.log" ||
  bad "check did not name the hanging variant"

[ "$fail" = 0 ] && echo "check-gpu-commands: PASS"
exit "$fail"
