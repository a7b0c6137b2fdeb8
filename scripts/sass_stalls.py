#!/usr/bin/env python3
"""Warp-stall samples of an Nsight Compute per-instruction CSV (`ncu --page source --print-source
sass --csv`, as scripts/gpu-env.sh's ncu_probe_source takes it): the share of each stall reason,
the shares of the samples and of the instructions executed per code region of REGION bytes, and
the TOP instructions by samples with their two main reasons.

    scripts/sass_stalls.py FILE.csv[.gz] [TOP [REGION]] [--by-count [N]] [--list LO:HI[:REG]]

--by-count: the code grouped by how often each instruction ran (a kernel's loops show as counts:
once a chunk, a group, a poll), the N largest groups by instructions executed (default 8), with
their shares of the instructions and of the samples and their static size. --list: every
instruction from offset LO to HI (hexadecimal, from the kernel's first), and any elsewhere that
names register REG, with its count, samples and text (the fifty-fourth session found which load
a stalled move waited for this way).
"""
import argparse
import collections
import csv
import gzip
import re
import signal
import sys


def read_rows(path):
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
    return rows


def n(r, c):
    return int(r.get(c) or 0)


def samples(r):
    return n(r, "Warp Stall Sampling (All Samples)")


def executed(r):
    return n(r, "Instructions Executed")


def summary(path, rows, top, region):
    reasons = [c for c in rows[0] if c.startswith("stall_") and "(Not Issued)" not in c]
    total = sum(samples(r) for r in rows) or 1
    ran = sum(executed(r) for r in rows)
    print(f"{path}: {total} samples, {ran} warp instructions")
    by_reason = collections.Counter({c: sum(n(r, c) for r in rows) for c in reasons})
    for c, v in by_reason.most_common(12):
        print(f"  {c[6:]:20s} {v / total:6.1%}")
    base = int(rows[0]["Address"], 16)
    by_region, ex_region = collections.Counter(), collections.Counter()
    for r in rows:
        at = (int(r["Address"], 16) - base) // region * region
        by_region[at] += samples(r)
        ex_region[at] += executed(r)
    print(f"by region of {region:#x} bytes (>= 1% of the samples or of the instructions executed):")
    for a in sorted(by_region):
        if by_region[a] / total >= 0.01 or ex_region[a] / max(ran, 1) >= 0.01:
            print(f"  +{a:#07x} {by_region[a] / total:6.1%} of samples "
                  f"{ex_region[a] / max(ran, 1):6.1%} of instructions")
    print(f"top {top} instructions:")
    for r in sorted(rows, key=samples, reverse=True)[:top]:
        why = sorted(((n(r, c), c[6:]) for c in reasons), reverse=True)[:2]
        print(f"  +{int(r['Address'], 16) - base:#07x} {samples(r) / total:5.1%} x{executed(r):8d}"
              f"  {r['Source'].strip()[:56]:56s} {', '.join(f'{w} {k}' for k, w in why if k)}")


def by_count(rows, groups):
    total = sum(samples(r) for r in rows) or 1
    ran = sum(executed(r) for r in rows) or 1
    ins, smp, size = collections.Counter(), collections.Counter(), collections.Counter()
    for r in rows:
        c = executed(r)
        if c == 0:
            continue
        ins[c] += c
        smp[c] += samples(r)
        size[c] += 1
    print(f"by execution count ({groups} largest by instructions executed):")
    for c, v in ins.most_common(groups):
        print(f"  x{c:>11d}: {v / ran:6.1%} of instructions, {smp[c] / total:6.1%} of samples, "
              f"{size[c]} static instructions")


def listing(rows, spec):
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        sys.exit(f"--list wants LO:HI[:REG], got {spec!r}")
    try:
        lo, hi = int(parts[0], 16), int(parts[1], 16)
    except ValueError:
        sys.exit(f"--list wants hexadecimal offsets, got {spec!r}")
    reg = re.compile(rf"\b{re.escape(parts[2])}\b") if len(parts) == 3 and parts[2] else None
    base = int(rows[0]["Address"], 16)
    print(f"instructions +{lo:#x} to +{hi:#x}" + (f" and those naming {parts[2]}" if reg else "") + ":")
    for r in rows:
        off = int(r["Address"], 16) - base
        if lo <= off <= hi or (reg and reg.search(r["Source"])):
            print(f"  +{off:#07x} x{executed(r):10d} {samples(r):7d}  {r['Source'].strip()}")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("top", nargs="?", type=int, default=25)
    p.add_argument("region", nargs="?", type=lambda s: int(s, 0), default=0x400)
    p.add_argument("--by-count", nargs="?", type=int, const=8, default=None, metavar="N")
    p.add_argument("--list", metavar="LO:HI[:REG]")
    a = p.parse_args()
    rows = read_rows(a.file)
    summary(a.file, rows, a.top, a.region)
    if a.by_count is not None:
        by_count(rows, a.by_count)
    if a.list:
        listing(rows, a.list)


if __name__ == "__main__":
    main()
