#!/usr/bin/env python3
"""Side-by-side table of two builds' `tuner bench --json` results (gpu-v19*.sh A/B calls).

    ab_table.py DIR PREFIX NEW OLD [LABEL_NEW LABEL_OLD]

reads DIR/PREFIX-NEW-<i>.json and DIR/PREFIX-OLD-<i>.json for every round i present, and
prints, per graph and implementation, the mean GPU median of each build and NEW against OLD.
"""
import glob
import json
import statistics as st
import sys


def load(d, prefix, build):
    out = {}
    for f in sorted(glob.glob(f"{d}/{prefix}-{build}-[0-9]*.json")):
        for r in json.load(open(f))["results"]:
            g = r["graph"].split("/")[-1].replace(".mtx.gz", "")
            out.setdefault((g, r["impl"]), []).append(r["gpu_median_us"])
    return out


def main():
    d, prefix, new_b, old_b = sys.argv[1:5]
    labels = sys.argv[5:7] if len(sys.argv) >= 7 else [new_b, old_b]
    new, old = load(d, prefix, new_b), load(d, prefix, old_b)
    for k in new:
        if k not in old:
            continue
        a, b = st.mean(new[k]), st.mean(old[k])
        print(f"{k[0][:26]:26s} {k[1][:72]:72s} {labels[0]} {a:8.2f}  {labels[1]} {b:8.2f}  "
              f"{(a / b - 1) * 100:+5.1f}%")


if __name__ == "__main__":
    main()
