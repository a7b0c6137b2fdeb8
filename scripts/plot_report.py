#!/usr/bin/env python3
"""Charts of a csrgat-lab tuning report, drawn with matplotlib.

    plot_report.py chart_data.json OUT_DIR

The tuner (`tuner run`, `tuner report`) writes chart_data.json next to report.md and runs a
copy of this script that is compiled into the binary, so an installed tuner plots from any
folder; editing this file changes the charts at the next build. Input:

    {"title": str, "device": str,
     "ceilings": {"dram_gbs": float (the DRAM roof), "dram_roof": "DRAM read" or "DRAM copy" (which
                  ceiling it is; absent: copy), "l2_gbs": float, "l2_gather_gbs": float (0: not measured),
                  "fp32_gflops": float},
     "points": [{"problem": str, "variant": str, "kind": "fused"|"winner"|"seed"|"cusparse",
                 "ai": FLOP/byte, "gflops": GFLOP/s, "model": bool}],
     "params": [{"problem": str, "best_us": float,
                 "tpr_lines": [{"label": "vec=4", "x": [tpr...], "y": [us...]}],
                 "sensitivity": [{"param": "fl", "value": "8", "ratio": float}]}]}

Output in OUT_DIR: roofline.png and roofline.svg (log-log roofline: DRAM and L2 roofs, FP32
peak, one point per variant and problem), params.png and params.svg (how the parameters move
the time on the largest problems; only when "params" has entries). Prints "wrote NAME" per
file; anything else it prints is a warning. Exit status 0 on success.
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import NullFormatter, ScalarFormatter  # noqa: E402

# Reproducible SVG: no timestamps, fixed ids.
plt.rcParams["svg.hashsalt"] = "csrgat"
SAVE_META = {"svg": {"Date": None}, "png": {}}

KIND_STYLE = {
    "fused": dict(marker="o", s=18, alpha=0.45, zorder=3),
    "winner": dict(marker="*", s=260, alpha=1.0, zorder=6, edgecolors="black", linewidths=0.9),
    "seed": dict(marker="^", s=70, alpha=0.95, zorder=5, edgecolors="black", linewidths=0.6),
    "cusparse": dict(marker="s", s=60, alpha=0.95, zorder=5, edgecolors="black", linewidths=0.6),
    "colblock": dict(marker="D", s=55, alpha=0.95, zorder=5, edgecolors="black", linewidths=0.6),
}
KIND_LABEL = {"fused": "fused variant", "winner": "winner (tuned choice)", "seed": "seed baseline",
              "cusparse": "softmax + cuSPARSE baseline", "colblock": "column-blocked sweep"}


def save(fig, out_dir, stem):
    for ext in ("png", "svg"):
        name = f"{stem}.{ext}"
        fig.savefig(os.path.join(out_dir, name), dpi=130, bbox_inches="tight", metadata=SAVE_META[ext])
        print(f"wrote {name}")
    plt.close(fig)


def positive(v):
    return isinstance(v, (int, float)) and math.isfinite(v) and v > 0


def roofline(data, out_dir):
    c = data.get("ceilings", {})
    dram, l2, peak = c.get("dram_gbs", 0), c.get("l2_gbs", 0), c.get("fp32_gflops", 0)
    pts = [p for p in data.get("points", []) if positive(p.get("ai")) and positive(p.get("gflops"))]
    ais = [p["ai"] for p in pts]
    ridge = peak / dram if positive(peak) and positive(dram) else 10.0
    lo = min(ais + [ridge]) / 4
    hi = max(ais + [ridge]) * 4
    fig, ax = plt.subplots(figsize=(10.5, 6.5))
    ax.set_xscale("log")
    ax.set_yscale("log")
    n = 256
    xs = [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]
    if positive(dram):
        ys = [min(dram * x, peak) if positive(peak) else dram * x for x in xs]
        ax.plot(xs, ys, color="#1f4e79", lw=2, label=f"{c.get('dram_roof', 'DRAM copy')} roof {dram:,.0f} GB/s")
    if positive(l2):
        ys = [min(l2 * x, peak) if positive(peak) else l2 * x for x in xs]
        ax.plot(xs, ys, color="#2e8b57", lw=1.6, ls="--", label=f"L2 roof {l2:,.0f} GB/s")
    l2g = c.get("l2_gather_gbs", 0)
    if positive(l2g):
        ys = [min(l2g * x, peak) if positive(peak) else l2g * x for x in xs]
        ax.plot(xs, ys, color="#2e8b57", lw=1.2, ls="-.", label=f"L2 random-row gathers {l2g:,.0f} GB/s")
    if positive(peak):
        ax.axhline(peak, color="#8b0000", lw=1.6, ls=":", label=f"FP32 peak {peak:,.0f} GFLOP/s")

    problems = sorted({p["problem"] for p in pts})
    cmap = plt.get_cmap("tab10" if len(problems) <= 10 else "tab20")
    color = {pr: cmap(i % cmap.N) for i, pr in enumerate(problems)}
    for kind in ("fused", "seed", "cusparse", "colblock", "winner"):
        for measured in (True, False):
            sel = [p for p in pts if p.get("kind") == kind and bool(p.get("model")) != measured]
            if not sel:
                continue
            style = dict(KIND_STYLE[kind])
            cols = [color[p["problem"]] for p in sel]
            if measured:
                style["c"] = cols
            else:  # hollow: the point rests on the byte/FLOP model, not on counters
                style["facecolors"] = "none"
                style["edgecolors"] = cols
                style.pop("linewidths", None)
            ax.scatter([p["ai"] for p in sel], [p["gflops"] for p in sel], **style)

    ax.set_xlim(lo, hi)
    ys_all = [p["gflops"] for p in pts] + ([peak] if positive(peak) else [])
    if positive(dram):
        ys_all.append(dram * lo)
    if ys_all:
        ax.set_ylim(min(ys_all) / 3, max(ys_all) * 3)
    ax.set_xlabel("arithmetic intensity (FP32 FLOP / DRAM byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(data.get("title", "roofline") + (f"\n{data['device']}" if data.get("device") else ""), fontsize=11)
    ax.grid(True, which="both", alpha=0.25)
    roof_legend = ax.legend(loc="upper left", fontsize=8)
    ax.add_artist(roof_legend)
    handles = [Line2D([], [], ls="", color="grey", markeredgecolor="black" if k != "fused" else "grey",
                      marker=KIND_STYLE[k]["marker"], markersize=12 if k == "winner" else 7, label=KIND_LABEL[k])
               for k in ("winner", "fused", "seed", "cusparse", "colblock")]
    handles.append(Line2D([], [], ls="", marker="o", markerfacecolor="none", markeredgecolor="grey",
                          label="hollow: from the model (no counters)"))
    if len(problems) <= 20:
        handles += [Line2D([], [], ls="", marker="o", color=color[pr], label=pr) for pr in problems]
    ax.legend(handles=handles, loc="lower right", fontsize=7, ncol=2 if len(handles) > 12 else 1)
    save(fig, out_dir, "roofline")


def params_chart(data, out_dir):
    probs = data.get("params", [])
    if not probs:
        return
    fig, axes = plt.subplots(len(probs), 2, figsize=(12, 4.6 * len(probs)), squeeze=False)
    for row, pr in enumerate(probs):
        ax = axes[row][0]
        for line in pr.get("tpr_lines", []):
            pairs = [(x, y) for x, y in zip(line["x"], line["y"]) if positive(x) and positive(y)]
            if pairs:
                ax.plot([p[0] for p in pairs], [p[1] for p in pairs], marker="o", label=line["label"])
        ax.set_xscale("log", base=2)
        tprs = sorted({x for line in pr.get("tpr_lines", []) for x in line["x"] if positive(x)})
        if tprs:
            ax.set_xticks(tprs)
            ax.xaxis.set_major_formatter(ScalarFormatter())
            ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("tpr (threads per row-head task)")
        ax.set_ylabel("best median time (us)")
        ax.set_title(f"{pr['problem']}: time vs tpr (best over the other parameters)", fontsize=10)
        ax.grid(True, which="both", alpha=0.25)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)

        ax = axes[row][1]
        sens = [s for s in pr.get("sensitivity", []) if positive(s.get("ratio"))]
        names = sorted({s["param"] for s in sens}, key=lambda n: [s["param"] for s in sens].index(n))
        pcol = {n: plt.get_cmap("tab10")(i % 10) for i, n in enumerate(names)}
        ys = list(range(len(sens)))
        ax.scatter([s["ratio"] for s in sens], ys, c=[pcol[s["param"]] for s in sens], zorder=3)
        ax.set_yticks(ys)
        ax.set_yticklabels([f"{s['param']}={s['value']}" for s in sens], fontsize=7)
        ax.invert_yaxis()
        ax.axvline(1.0, color="black", lw=0.8)
        if sens and max(s["ratio"] for s in sens) > 8:
            ax.set_xscale("log")
        ax.set_xlabel("best time with this value / best time overall")
        best = pr.get("best_us")
        ax.set_title("cost of fixing one parameter" + (f" (best {best:.2f} us)" if positive(best) else ""), fontsize=10)
        ax.grid(True, axis="x", alpha=0.25)
    fig.tight_layout()
    save(fig, out_dir, "params")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        data = json.load(f)
    os.makedirs(argv[2], exist_ok=True)
    roofline(data, argv[2])
    params_chart(data, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
