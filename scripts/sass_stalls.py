#!/usr/bin/env python3
"""Warp-stall samples of an Nsight Compute per-instruction CSV (`ncu --page source --print-source
sass --csv`, as scripts/gpu-v17c.sh takes it): the share of each stall reason, the shares of the
samples and of the instructions executed per code region of REGION bytes, and the TOP
instructions by samples with their two main reasons.

    scripts/sass_stalls.py FILE.csv[.gz] [TOP [REGION]]       (defaults 25 and 0x400)
"""
import collections
import csv
import gzip
import signal
import sys


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    region = int(sys.argv[3], 0) if len(sys.argv) > 3 else 0x400
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    heads = [i for i, l in enumerate(lines) if l.startswith('"Address"')]
    if not heads:
        sys.exit(f"{path}: no per-instruction table (no \"Address\" header line)")
    # The table's rows only: a caller's own lines after it (a step's "--- exit" line) are not.
    rows = [r for r in csv.DictReader(lines[heads[0]:]) if (r.get("Address") or "").startswith("0x")]
    if not rows:
        sys.exit(f"{path}: the per-instruction table has no rows")
    reasons = [c for c in rows[0] if c.startswith("stall_") and "(Not Issued)" not in c]
    n = lambda r, c: int(r.get(c) or 0)  # noqa: E731
    samples = lambda r: n(r, "Warp Stall Sampling (All Samples)")  # noqa: E731
    total = sum(samples(r) for r in rows) or 1
    executed = sum(n(r, "Instructions Executed") for r in rows)
    print(f"{path}: {total} samples, {executed} warp instructions")
    by_reason = collections.Counter({c: sum(n(r, c) for r in rows) for c in reasons})
    for c, v in by_reason.most_common(12):
        print(f"  {c[6:]:20s} {v / total:6.1%}")
    base = int(rows[0]["Address"], 16)
    by_region, ex_region = collections.Counter(), collections.Counter()
    for r in rows:
        at = (int(r["Address"], 16) - base) // region * region
        by_region[at] += samples(r)
        ex_region[at] += n(r, "Instructions Executed")
    print(f"by region of {region:#x} bytes (>= 1% of the samples or of the instructions executed):")
    for a in sorted(by_region):
        if by_region[a] / total >= 0.01 or ex_region[a] / max(executed, 1) >= 0.01:
            print(f"  +{a:#07x} {by_region[a] / total:6.1%} of samples "
                  f"{ex_region[a] / max(executed, 1):6.1%} of instructions")
    print(f"top {top} instructions:")
    for r in sorted(rows, key=samples, reverse=True)[:top]:
        why = sorted(((n(r, c), c[6:]) for c in reasons), reverse=True)[:2]
        print(f"  +{int(r['Address'], 16) - base:#07x} {samples(r) / total:5.1%} x{n(r, 'Instructions Executed'):8d}"
              f"  {r['Source'].strip()[:56]:56s} {', '.join(f'{w} {k}' for k, w in why if k)}")


if __name__ == "__main__":
    main()
