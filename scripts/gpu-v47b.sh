#!/usr/bin/env bash
# Forty-seventh session, after peers_pyg.py began reading its config through the tuner (`tuner
# list --graphs`, 4abd0d9): on an H200, the run of record (scripts/gpu-v34e.sh, whose PyG step
# runs the new reading on all twelve graphs); on any other GPU, that reading alone on the GPU
# machine's staged tuner and graphs (--list, then three graphs timed with 5 samples, ~30 s).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
first_gpu
[[ "$GPU_NAME" == *H200* ]] && exec bash "$ROOT/scripts/gpu-v34e.sh"
O="${OUT:-$ROOT/.gpu/out}"; mkdir -p "$O"
# (Call 6 ran this line inside `step`, whose header and exit lines then went into the JSON file too:
# the list itself came out whole, exit 0, and the check below failed to parse the file.)
python3 scripts/peers_pyg.py --config configs/h200.yaml --tuner "$T" --list > "$O/peers-list.json"; echo "list: exit $?"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d), "problems:", [p["name"] for p in d]); print(d[0])' "$O/peers-list.json"
step peers timeout 120 python3 scripts/peers_pyg.py --config configs/h200.yaml --tuner "$T" --graphs-dir "$G" \
  --only cora --only pubmed --only uniform_1m_d16 --samples 5 -o "$O/peers-check.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
for r in d["results"]: print(r["graph"], r.get("spec"), r.get("impl"), r.get("median_us"), r.get("rel_error"), r.get("error", ""))' "$O/peers-check.json"
echo "all done at $SECONDS s"
