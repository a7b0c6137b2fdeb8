#!/usr/bin/env python3
"""Issue 7's tables from one GPU call's output folder (scripts/gpu-final.sh: `tuner bench`
JSON, scripts/peers_pyg.py's peers.json, prof_check.json), as Markdown on stdout.

    scripts/issue7_table.py docs/data/v4/call5
    scripts/issue7_table.py FOLDER [--copy-from PROF_CHECK_JSON] [--variants DIR]

With bench-small-counters.json in FOLDER (gpu-final.sh from the sixteenth session on), a last
table sets each graph of target 1 against the L2 gather ceiling (prof_check's l2_gather_gbs).

--copy-from: the ceilings (copy bandwidth, L2 gather, and since the forty-seventh session the DRAM read
ceiling, which adds each DRAM-bound kernel's share of it) from a prof_check.json outside FOLDER, for a run of
record that did not run the profiler check itself (named in the table); with --same-call, that file came from
the same device call (scripts/gpu-v15c.sh runs prof_check before gpu-final.sh), else from another. --variants DIR: a second table from DIR's
smem3-*.json (`tuner bench` of variant ids beside `tuned` in the same call, scripts/gpu-v8c.sh):
the best variant per DRAM-bound graph and value type, with targets 2 and 5 recomputed on it.

Every ratio is computed here from the recorded medians; nothing is typed in by hand. Cold =
L2 flushed before each sample; "launch included" = CUDA events around one call (small graphs,
bench-events.json); the large graphs are timed by CUPTI (GPU time, bench-large/2m/bf16 JSON)
with DRAM counters, and their events figure (launch included) is reported beside it.
"""
import gzip
import json
import os
import statistics
import sys

# The graphs of configs/h200.yaml and ../shared/graphs, in table order: (label, bench graph
# suffix or spec, peers name, feat).
SMALL = [
    ("seed shape, F=64", "seed:n=384,deg=18,seed=1", "seed_384"),
    ("cora", "cora.mtx.gz", "cora"),
    ("citeseer", "citeseer.mtx.gz", "citeseer"),
    ("pubmed", "pubmed.mtx.gz", "pubmed"),
    ("wiki-vote", "wiki-vote.mtx.gz", "wiki-vote"),
    ("ca-astroph", "ca-astroph.mtx.gz", "ca-astroph"),
    ("cit-hepph", "cit-hepph.mtx.gz", "cit-hepph"),
    ("soc-slashdot0902", "soc-slashdot0902.mtx.gz", "soc-slashdot0902"),
]
LARGE = [
    ("uniform 1M, d16", "bench-large.json", "uniform:n=1000000,deg=16,seed=1", "uniform_1m_d16"),
    ("uniform 2M, d32, F=128", "bench-2m.json", "uniform:n=2000000,deg=32,seed=1", "uniform_2m_d32"),
    ("power-law 1M", "bench-large.json", "powerlaw:n=1000000,deg=16,alpha=2.1,maxdeg=200000,seed=1",
     "powerlaw_1m_d16"),
    ("R-MAT scale 20", "bench-large.json", "rmat:scale=20,ef=16,seed=1", "rmat_s20_ef16"),
]
BF16 = {"uniform 1M, d16": "bench-bf16.json", "uniform 2M, d32, F=128": "bench-2m-bf16.json",
        "power-law 1M": "bench-bf16.json", "R-MAT scale 20": "bench-bf16.json"}
L2_BYTES = 62914560


def stored(path):
    """path, or path.gz where only that exists (docs/data keeps files over 64 KB gzipped)."""
    return path + ".gz" if not os.path.exists(path) and os.path.exists(path + ".gz") else path


def read_json(path):
    path = stored(path)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def load(folder, name):
    return read_json(os.path.join(folder, name))


def find(results, graph, impl, out="f32"):
    """The result of impl on graph writing `out` (calls before tuner bench --out wrote f32)."""
    for r in results:
        if ((r["graph"] == graph or r["graph"].endswith("/" + graph)) and r["impl"] == impl
                and r.get("out", "f32") == out):
            if r.get("status", "ok") != "ok":
                return None
            return r
    return None


def dram_gbs(r):
    c = (r.get("counters") or {}).get("values") or {}
    t = c.get("gpu__time_duration.sum")
    b = c.get("dram__bytes_read.sum", 0) + c.get("dram__bytes_write.sum", 0)
    return (b / t if t else None), b


def fmt(x, unit=""):
    if x is None:
        return "cannot run"
    return f"{x:.2f}{unit}" if x < 100 else f"{x:.1f}{unit}"


def arg(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def variants_table(vdir, large, copy):
    """Best variant by id per DRAM-bound graph and value type, against the tuned dispatch."""
    best = {}  # (spec, value) -> (tuned result, best result)
    for name in sorted(os.listdir(vdir)):
        if not (name.startswith("smem3-") and name.endswith((".json", ".json.gz"))):
            continue
        res = load(vdir, name.removesuffix(".gz"))["results"]
        for r in res:
            if r["impl"] == "tuned" or r.get("status", "ok") != "ok":
                continue
            key = (r["graph"], r["value"])
            if key not in best or r["gpu_median_us"] < best[key][1]["gpu_median_us"]:
                best[key] = (find(res, r["graph"], "tuned"), r)
    print("\nThe same call, variants by id beside the tuned dispatch (GPU time, cold, DRAM counters):\n")
    print("| graph | value | tuned us | best variant us | tuned / variant | variant GB/s | % of copy | variant |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    by = {}
    for label, _, spec, _ in LARGE:
        for value in ("f32", "bf16"):
            if (spec, value) not in best:
                continue
            t, v = best[(spec, value)]
            gbs, _ = dram_gbs(v)
            by[(label, value)] = v
            print(f"| {label} | {value} | {t['gpu_median_us']:.1f} | {v['gpu_median_us']:.1f} | "
                  f"{t['gpu_median_us'] / v['gpu_median_us']:.2f}x | {gbs:.0f} | {100 * gbs / copy:.1f}% | "
                  f"`{v['variant']}` |")
    print("\nTargets 2 and 5 on these variants (seed times from the main table's call):\n")
    for label in ("uniform 1M, d16", "uniform 2M, d32, F=128"):
        f, b = by.get((label, "f32")), by.get((label, "bf16"))
        s = large[label][1]
        parts = []
        if f and s:
            parts.append(f"f32 / seed {f['gpu_median_us'] / s['gpu_median_us']:.2f}x")
        if f and b:
            parts.append(f"f32 / bf16 {f['gpu_median_us'] / b['gpu_median_us']:.2f}x "
                         f"(bf16 rel. error {b['rel_error']:.1e})")
        print(f"- {label}: " + ", ".join(parts))


def l2_table(folder, events, ceilings, ceilings_note):
    """Target 1's graphs against the L2 gather ceiling: what 2x the faster baseline would ask of
    the tuned kernel's L2 traffic, from bench-small-counters.json (the tuned dispatch, cold, GPU
    time and counters) beside the launch-included calls of bench-events.json."""
    name = "bench-small-counters.json"
    if not os.path.exists(stored(os.path.join(folder, name))):
        return
    res = load(folder, name)["results"]
    ceiling = ceilings.get("l2_gather_gbs") or 0
    print("\nGraphs whose values fit in L2: what 2x the faster baseline asks of the tuned kernel. GPU "
          "time and L2 bytes (`lts__t_bytes`) from the tuned dispatch's counters, cold; `outside` is "
          "the launch-included call less that GPU time (the launch and the call's fixed costs); "
          "`needed` is half the faster baseline's call less `outside`" + (
              f"; the L2 gather ceiling is {ceiling:.0f} GB/s ({ceilings_note})." if ceiling else
              "; no L2 gather ceiling was measured in this call.") + "\n")
    print("| graph | call us | GPU us | outside us | L2 MB | L2 GB/s | % of ceiling | needed GPU us | "
          "needed GB/s | needed % of ceiling |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, g, _ in SMALL:
        t, s, c = (find(events, g, i) for i in ("tuned", "seed", "cusparse"))
        k = find(res, g, "tuned")
        if not (t and k and (s or c)):
            continue
        vals = (k.get("counters") or {}).get("values") or {}
        l2 = vals.get("lts__t_bytes.sum")
        call, gpu = t["event_median_us"], k["gpu_median_us"]
        base = min(x["event_median_us"] for x in (s, c) if x)
        outside = call - gpu
        need = base / 2 - outside

        def pct(gbs):
            return f"{100 * gbs / ceiling:.0f}%" if ceiling else "n/a"

        now = l2 / gpu * 1e-3 if l2 else None
        if need <= 0:
            tail = f"{need:.2f} (below the launch) | n/a | n/a"
        elif l2:
            want = l2 / need * 1e-3
            tail = f"{need:.2f} | {want:.0f} | {pct(want)}"
        else:
            tail = f"{need:.2f} | n/a | n/a"
        print(f"| {label} | {call:.2f} | {gpu:.2f} | {outside:.2f} | "
              + (f"{l2 / 1e6:.1f} | {now:.0f} | {pct(now)}" if l2 else "n/a | n/a | n/a")
              + f" | {tail} |")


def status(ok):
    return "met" if ok else "not met"


def floor_row(title, ratios):
    """Target 6's 10x row: the lowest of [(label, ratio)] and every graph below 10x."""
    low = min(ratios, key=lambda x: x[1])
    below10 = [f"{l} {r:.1f}x" for l, r in sorted(ratios, key=lambda x: x[1]) if r < 10]
    return (f"| 6 | {title} | lowest {low[0]} {low[1]:.1f}x"
            + (f"; below 10x: {', '.join(below10)}" if below10 else "") + f" | {status(not below10)} |")


def target6(pyg_ratios, pyg_calls):
    """Target 6's rows from separate processes: every graph >= 10x PyG, and the median >= 25x
    (with each PyG round's median where peers_pyg.py ran --rounds)."""
    print(floor_row(">= 10x PyG on every graph", pyg_ratios))
    med = statistics.median(r for _, r in pyg_ratios)
    spread = ""
    # The same median with each round's PyG medians.
    per_round = round_medians([(p / t, [x / t for x in pr]) for t, p, pr in pyg_calls])
    if len(per_round) > 1:
        lo, hi = min(per_round), max(per_round)
        spread = (f"; with each of PyG's {len(per_round)} rounds: " + ", ".join(f"{x:.1f}x" for x in per_round)
                  + (" (at the threshold)" if lo < 25 <= hi else ""))
    print(f"| 6 | >= 25x PyG on the median graph | median {med:.1f}x over {len(pyg_ratios)} graphs{spread} | "
          f"{status(med >= 25)} |")


def round_medians(items):
    """The median over graphs of each round's ratio, for [(pooled ratio, [ratio in round i, ...])]:
    a graph with fewer rounds (one round only, or a round that failed) counts with its pooled
    ratio in the rounds it lacks."""
    if not items:
        return []
    n = max(len(r) for _, r in items) or 1
    return [statistics.median(r[i] if i < len(r) else x for x, r in items) for i in range(n)]


def in_process(rows, peers, flush):
    """Target 6 measured in one process: PyG and this lab's library through its C interface
    (peers_pyg.py --csrgat-lib), timed by the same harness in the same rounds. The library's
    figure is its prepared call's (csrgat_call: how a Python layer calls it) where peers.json
    has one, csrgat_aggregate's (csrgat) otherwise (runs before the twenty-eighth session).
    Prints their table and returns [(label, PyG / csrgat pooled, [PyG / csrgat in round i,
    ...])]; [] when peers.json has no csrgat rows."""
    by = {}
    for p in peers:
        if p["impl"] in ("pyg", "csrgat", "csrgat_call") and "median_us" in p:
            by[(p["graph"], p["feat"], p["heads"], p["impl"])] = p
    prepared = any(k[3] == "csrgat_call" for k in by)
    ours = "csrgat_call" if prepared else "csrgat"

    def us(r):  # a row's median, with its host time when recorded
        if r is None:
            return "-"
        return f"{r['median_us']:.2f}" + (f" ({r['host_median_us']:.2f})" if "host_median_us" in r else "")

    out = []
    lines = []
    for label, _, _, _, key, _, _ in rows:
        g, c = by.get(key + ("pyg",)), by.get(key + (ours,))
        if not g or not c:
            continue
        rg, rc = g.get("round_medians_us", []), c.get("round_medians_us", [])
        per = [a / b for a, b in zip(rg, rc)]
        out.append((label, g["median_us"] / c["median_us"], per))
        lines.append(f"| {label} | " + (f"{us(by.get(key + ('csrgat',)))} | " if prepared else "")
                     + f"{us(c)} | {g['median_us']:.1f} | {g['median_us'] / c['median_us']:.1f}x | "
                     + (" / ".join(f"{x:.1f}" for x in per) if per else "one round")
                     + f" | `{c.get('variant', '')}` |")
    if out:
        print("\nIn one process: PyG and this lab's library through its C interface (libcsrgat_c.so by"
              " ctypes, `scripts/peers_pyg.py --csrgat-lib`"
              + (": csrgat_aggregate's fourteen arguments per call, and a prepared call, csrgat_call_launch's two, "
                 "which the ratios use" if prepared else "")
              + "), each call timed alike (cold, CUDA events"
              " around the Python call, launches included, "
              + ("the host waiting for each flush" if flush == "sync" else
                 "the flush overlapping the call's host time, which hides all of csrgat's")
              + "), round by round where its inputs fit in L2"
              + ("; in brackets the host time of the call itself" if any("host_median_us" in r for r in by.values())
                 else "") + ":\n")
        head = "| graph | " + ("csrgat_aggregate us | prepared call us" if prepared else "csrgat us")
        print(head + " | PyG us | PyG / csrgat | by round | csrgat variant |")
        print("|---|---:|" + ("---:|" if prepared else "") + "---:|---:|---|---|")
        print("\n".join(lines))
    return out


def main():
    folder = sys.argv[1]
    ev_json = load(folder, "bench-events.json")
    ev = ev_json["results"]
    rounds = ev_json.get("meta", {}).get("rounds", 1)
    # A run without PyG (gpu-v34e.sh with PEERS=0, e.g. on a GPU that is not the issue's) has no
    # peers.json: its table has no PyG column and no target 6.
    have_peers = os.path.exists(stored(os.path.join(folder, "peers.json")))
    peers_doc = load(folder, "peers.json") if have_peers else {"results": [], "meta": {}}
    peers = peers_doc["results"]
    # Runs before the twenty-seventh session did not wait for the flush (peers_pyg.py --flush).
    flush = peers_doc.get("meta", {}).get("flush", "overlap")
    # Runs before the twenty-eighth session wrote the flush buffer (peers_pyg.py --flush-op).
    flush_op = peers_doc.get("meta", {}).get("flush_op", "write")
    copy_from = arg("--copy-from")
    ceilings = (read_json(copy_from) if copy_from else load(folder, "prof_check.json"))["ceilings"]
    copy = ceilings["dram_copy_gbs"]
    # The DRAM read ceiling (prof_check since the forty-seventh session): the roof of a kernel that
    # mostly reads, which passes the copy's; the DRAM table gives each kernel's share of it too.
    read = ceilings.get("dram_read_gbs") or 0

    def of_read(gbs):
        """A table cell (with its separator) of gbs as a share of the read ceiling; none without it."""
        return (f"{100 * gbs / read:.1f}% | " if gbs is not None else "n/a | ") if read else ""

    read_head = "% of read | " if read else ""
    read_rule = "---:|" if read else ""
    same_call = "--same-call" in sys.argv
    where = "the same device call, before the benchmarks" if same_call else "another call"
    copy_note = (f"copy bandwidth from {copy_from}: {copy:.0f} GB/s, measured in {where}"
                 if copy_from else f"copy bandwidth measured in the same call: {copy:.0f} GB/s")
    if read:
        copy_note += f"; read-only stream {read:.0f} GB/s ({read / copy:.3f}x the copy), the same way"
    pyg = {(p["graph"], p["feat"], p["heads"]): p["median_us"] for p in peers if p["impl"] == "pyg"}
    # PyG's per-round medians where scripts/peers_pyg.py ran --rounds (the graphs whose inputs
    # fit in L2, whose PyG calls are host-side launches and move between rounds).
    pyg_rounds = {(p["graph"], p["feat"], p["heads"]): p["round_medians_us"]
                  for p in peers if p["impl"] == "pyg" and "round_medians_us" in p}

    rows = []  # (label, tuned, seed, cusparse, PyG's key in peers.json, fits_l2, variant)
    for label, g, peer in SMALL:
        t, s, c, e = (find(ev, g, i) for i in ("tuned", "seed", "cusparse", "empty"))
        rows.append((label, t["event_median_us"], s and s["event_median_us"],
                     c and c["event_median_us"], (peer, 64, 1), True, t["variant"]))
    large = {}
    # tuner bench's colblock impl where the call ran it (thirty-fourth session on): the
    # column-blocked sweep launched directly, beside the dispatch, which runs it itself where its
    # rule attaches it (thirty-fifth session on: the tuned variant is then a colblock.* id).
    colblock = {}
    for label, fname, spec, peer in LARGE:
        res = load(folder, fname)["results"]
        t, s, c = (find(res, spec, i) for i in ("tuned", "seed", "cusparse"))
        cb = find(res, spec, "colblock")
        if cb:
            colblock[label] = cb
        feat = t["feat"]
        large[label] = (t, s, c)
        rows.append((label, t["event_median_us"], s and s["event_median_us"],
                     c and c["event_median_us"], (peer, feat, 1), False, t["variant"]))

    print("Launch included, cold (us); ratios are baseline / tuned (higher is better). The large")
    print("graphs' tuned, seed and cuSPARSE times here are CUDA events around the call (their GPU")
    print("times are in the DRAM table below)." + (
        f" The small graphs' implementations were timed round-robin in {rounds} rounds"
        " (tuner bench --rounds), so drift during the run hits all alike." if rounds > 1 else "")
        + ("" if not have_peers else
           " PyG's calls: `scripts/peers_pyg.py --flush overlap` (the host did not wait for each"
           " sample's L2 flush, which hid part of PyG's host time)." if flush == "overlap" else
           " PyG's calls: `scripts/peers_pyg.py --flush sync` (the host waits for each sample's L2"
           " flush, as tuner bench does" + (
               "; the flush reads its buffer and leaves clean lines in L2, as tuner bench's)." if flush_op == "read"
               else "; the flush writes its buffer, whose dirty lines the timed call's misses write back).")) + "\n")
    if not have_peers:
        print("No peers.json in this folder (a run with PEERS=0): PyG was not timed, so its column "
              "and target 6 read n/a.\n")
    print("| graph | tuned | seed | softmax + cuSPARSE | PyG | vs faster baseline | vs PyG | tuned variant |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    never_slower, l2_ratios, pyg_ratios = [], [], []
    pyg_calls = []  # (tuned, PyG's pooled median, PyG's round medians or []) of each PyG graph
    for label, t, s, c, key, fits, variant in rows:
        p = pyg.get(key)
        base = min(x for x in (s, c) if x is not None)
        r_base = base / t
        r_pyg = p / t if p else None
        never_slower.append((label, r_base))
        if fits:
            l2_ratios.append((label, r_base))
        if r_pyg:
            pyg_ratios.append((label, r_pyg))
            pyg_calls.append((t, p, pyg_rounds.get(key, [])))
        print(f"| {label} | {fmt(t)} | {fmt(s)} | {fmt(c)} | {fmt(p)} | {r_base:.2f}x | "
              f"{r_pyg:.1f}x | `{variant}` |" if r_pyg else
              f"| {label} | {fmt(t)} | {fmt(s)} | {fmt(c)} | n/a | {r_base:.2f}x | n/a | `{variant}` |")

    same = in_process(rows, peers, flush)

    print(f"\nDRAM-bound graphs, cold, GPU time (CUPTI) and DRAM bandwidth from the counters "
          f"({copy_note}):\n")
    print(f"| graph | tuned us | GB/s | % of copy | {read_head}seed us | tuned / seed | bf16 us | bf16 GB/s | "
          + ("bf16 " + read_head if read else "") + "f32 / bf16 | bf16 rel. error |")
    print(f"|---|---:|---:|---:|{read_rule}---:|---:|---:|---:|{read_rule}---:|---:|")
    dram = {}
    out16 = {}  # label: (bf16-out result, its DRAM GB/s, its DRAM bytes)
    for label, _, spec, _ in LARGE:
        t, s, _ = large[label]
        gbs, _ = dram_gbs(t)
        bf_results = load(folder, BF16[label])["results"]
        b = find(bf_results, spec, "tuned")
        bgbs, _ = dram_gbs(b) if b else (None, 0)
        tus, sus = t["gpu_median_us"], s["gpu_median_us"] if s else None
        dram[label] = (tus, gbs, sus, b and b["gpu_median_us"], b and b["rel_error"])
        o = find(bf_results, spec, "tuned", "bf16")  # bf16 out (tuner bench --out f32,bf16)
        if o:
            out16[label] = (o, dram_gbs(o)[0], dram_gbs(o)[1])
        print(f"| {label} | {tus:.1f} | {gbs:.0f} | {100 * gbs / copy:.1f}% | {of_read(gbs)}{fmt(sus)} | "
              + (f"{tus / sus:.2f}x" if sus else "n/a") + " | "
              + (f"{b['gpu_median_us']:.1f} | {bgbs:.0f} | {of_read(bgbs)}{tus / b['gpu_median_us']:.2f}x | "
                 f"{b['rel_error']:.1e}" if b else "n/a | n/a | " + of_read(None) + "n/a | n/a") + " |")

    if out16:
        print("\nbf16 values with bf16 out (`tuner bench --out f32,bf16`: the dispatch's kernel as its `.o16` "
              "twin, each result rounded from its float32 sum), measured round-robin beside the bf16 row "
              "above with float32 out:\n")
        print("| graph | bf16 out us | GB/s | DRAM GB | bf16 (f32 out) DRAM GB | f32 tuned / bf16 out | rel. error | variant |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for label, (o, ogbs, obytes) in out16.items():
            b32 = find(load(folder, BF16[label])["results"],
                       next(sp for l, _, sp, _ in LARGE if l == label), "tuned")
            b32_bytes = dram_gbs(b32)[1] if b32 else 0
            print(f"| {label} | {o['gpu_median_us']:.1f} | {ogbs:.0f} | {obytes / 1e9:.2f} | "
                  f"{b32_bytes / 1e9:.2f} | {dram[label][0] / o['gpu_median_us']:.2f}x | "
                  f"{o['rel_error']:.1e} | `{o['variant']}` |")

    def dispatched(label):
        return large[label][0]["variant"].startswith("colblock")

    if colblock:
        print("\nThe column-blocked sweep (`tuner bench --impl colblock`, planned once a graph, F = 128 "
              "only), launched directly beside the dispatch"
              + ("; the dispatch runs it too (its rule attaches it)" if any(map(dispatched, colblock))
                 else ", which does not run it") + ":\n")
        print(f"| graph | colblock us | GB/s | % of copy | {read_head}colblock / seed | colblock / tuned | DRAM GB |")
        print(f"|---|---:|---:|---:|{read_rule}---:|---:|---:|")
        for label, c in colblock.items():
            gbs, b = dram_gbs(c)
            tus, _, sus, _, _ = dram[label]
            print(f"| {label} | {c['gpu_median_us']:.1f} | {gbs:.0f} | {100 * gbs / copy:.1f}% | {of_read(gbs)}"
                  + (f"{c['gpu_median_us'] / sus:.2f}x" if sus else "n/a")
                  + f" | {c['gpu_median_us'] / tus:.2f}x | {b / 1e9:.2f} |")

    warm = {r["impl"]: r.get("gpu_median_us") for r in load(folder, "bench-warm.json")["results"]
            if r.get("status") == "ok"}
    seed_cold = find(ev, "seed:n=384,deg=18,seed=1", "tuned")["event_median_us"]
    empty_cold = find(ev, "seed:n=384,deg=18,seed=1", "empty")["event_median_us"]
    u, pl = dram["uniform 1M, d16"], dram["power-law 1M"]
    worst = min(never_slower, key=lambda x: x[1])
    slower = [f"{l} ({r:.2f}x)" for l, r in never_slower if r < 1.0]
    l2_worst = min(l2_ratios, key=lambda x: x[1])
    bw = [(l, dram[l][1] / copy) for l in ("uniform 1M, d16", "uniform 2M, d32, F=128")]
    ts = [(l, dram[l][0] / dram[l][2]) for l in ("uniform 1M, d16", "uniform 2M, d32, F=128")]
    bf = [(l, dram[l][0] / dram[l][3]) for l in ("uniform 1M, d16", "uniform 2M, d32, F=128")]
    bf_err = max(dram[l][4] for l in ("uniform 1M, d16", "uniform 2M, d32, F=128"))

    # The floors under target 3 (profiler/lat_ladder in the same call, from the thirteenth
    # session on): a kernel of the seed shape's grid making only the chain's dependent loads.
    floor_plain = floor_pdl = ""
    if os.path.exists(stored(os.path.join(folder, "ladder.json"))):
        rung = {r["name"]: r["median_us"] for r in load(folder, "ladder.json")["rungs"]}
        floor_plain = (f"; floor (lat_ladder): 3 dependent L2 loads {rung['loads 3']:.2f} us, "
                       f"one chain per warp {rung['wloads 3']:.2f} us, with 10 shuffles "
                       f"{rung['loads 3 +10 shfl']:.2f} us")
        floor_pdl = (f"; floor: 2 loads before the wait and 1 after {rung['pdl 2+1']:.2f} us, "
                     f"one chain per warp {rung['wpdl 2+1']:.2f} us, with 10 shuffles "
                     f"{rung['pdl 2+1 +10 shfl']:.2f} us")

    print("\n| # | target | measured | status |")
    print("|---|---|---|---|")
    print(f"| 1 | never slower than any baseline | worst {worst[0]} {worst[1]:.2f}x"
          + (f"; slower on {', '.join(slower)}" if slower else "") + f" | {status(not slower)} |")
    print(f"| 1 | >= 2x the faster of seed and cuSPARSE where values fit in L2 | "
          f"{min(r for _, r in l2_ratios):.2f}x ({l2_worst[0]}) to {max(r for _, r in l2_ratios):.2f}x | "
          f"{status(l2_worst[1] >= 2)} |")
    print(f"| 2 | DRAM-bound: >= 90% of copy bandwidth (counters) | "
          + ", ".join(f"{l} {100 * x:.1f}%" for l, x in bw) + f" | {status(all(x >= 0.9 for _, x in bw))} |")
    print(f"| 2 | DRAM-bound: time <= 0.7x the seed | "
          + ", ".join(f"{l} {x:.2f}x" for l, x in ts)
          + "".join(f"; colblock ({'the dispatch' + chr(39) + 's' if dispatched(l) else 'not dispatched'}) "
                    f"{l} {c['gpu_median_us'] / dram[l][2]:.2f}x"
                    for l, c in colblock.items() if dram[l][2])
          + f" | {status(all(x <= 0.7 for _, x in ts))} |")
    print(f"| 3 | seed shape warm <= 1.0 us (plain launches) | tuned {warm['tuned']:.2f} us, seed "
          f"{warm['seed']:.2f} us, empty kernel {warm['empty']:.2f} us{floor_plain} | {status(warm['tuned'] <= 1.0)} |")
    if "tuned:pdl" in warm:  # calls from the twelfth session on
        print(f"| 3 | seed shape warm <= 1.0 us (launches overlapping the previous one, PDL) | tuned "
              f"{warm['tuned:pdl']:.2f} us, empty kernel {warm.get('empty:pdl', float('nan')):.2f} us{floor_pdl} | "
              f"{status(warm['tuned:pdl'] <= 1.0)} |")
    print(f"| 3 | seed shape cold call <= 1.5x an empty kernel's | {seed_cold:.2f} / {empty_cold:.2f} us = "
          f"{seed_cold / empty_cold:.2f}x | {status(seed_cold / empty_cold <= 1.5)} |")
    print(f"| 4 | power-law 1M <= 1.5x uniform (GPU time) | {pl[0]:.1f} / {u[0]:.1f} us = "
          f"{pl[0] / u[0]:.2f}x | {status(pl[0] / u[0] <= 1.5)} |")
    print(f"| 5 | bf16 >= 1.8x the f32 tuned kernel, error < 1e-2 | "
          + ", ".join(f"{l} {x:.2f}x" for l, x in bf) + f"; max rel. error {bf_err:.1e} | "
          f"{status(all(x >= 1.8 for _, x in bf) and bf_err < 1e-2)} |")
    bf_o = [(l, dram[l][0] / out16[l][0]["gpu_median_us"]) for l in ("uniform 1M, d16", "uniform 2M, d32, F=128")
            if l in out16]
    if len(bf_o) == 2:
        bf_o_err = max(out16[l][0]["rel_error"] for l, _ in bf_o)
        print(f"| 5 | the same with bf16 out too (values and out in bf16, float32 accumulation) | "
              + ", ".join(f"{l} {x:.2f}x" for l, x in bf_o) + f"; max rel. error {bf_o_err:.1e} | "
              f"{status(all(x >= 1.8 for _, x in bf_o) and bf_o_err < 1e-2)} |")
    if not pyg_ratios:
        why = "no PyG row in peers.json" if have_peers else "no peers.json"
        print(f"| 6 | >= 10x PyG on every graph | not measured ({why}) | n/a |")
        print(f"| 6 | >= 25x PyG on the median graph | not measured ({why}) | n/a |")
    else:
        target6(pyg_ratios, pyg_calls)
    if same:
        ratios = [(l, x) for l, x, _ in same]
        print(floor_row(">= 10x PyG on every graph, in one process (csrgat's C interface, peers_pyg.py)",
                        ratios))
        med_same = statistics.median(x for _, x in ratios)
        per_round = round_medians([(x, r) for _, x, r in same])
        spread = ("; round by round: " + ", ".join(f"{x:.1f}x" for x in per_round)) if len(per_round) > 1 else ""
        ok = med_same >= 25 and all(x >= 25 for x in per_round)
        print(f"| 6 | >= 25x PyG on the median graph, in one process | median {med_same:.1f}x over "
              f"{len(ratios)} graphs{spread} | {status(ok)} |")
    if arg("--variants"):
        variants_table(arg("--variants"), large, copy)
    l2_table(folder, ev, ceilings,
             (f"from {copy_from}, " + ("same call" if same_call else "another call")) if copy_from else "same call")

if __name__ == "__main__":
    try:
        main()
    except FileNotFoundError as e:
        # A run of record without one of its benchmark files (peers.json may be missing: PEERS=0).
        sys.exit(f"issue7_table: {e.filename}: no such file (the folder needs the run of "
                 "record's tuner bench files; peers.json only for the PyG column and target 6)")
