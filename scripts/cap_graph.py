#!/usr/bin/env python3
"""Writes a copy of a Matrix Market graph whose rows keep at most K entries (the first K in
file order), except the `--keep` longest rows, which keep all of theirs: citeseer without its
long rows (`--cap 8`), or with only its longest (`--cap 8 --keep 1`), to measure what the
split rows' chunks and merges cost a launch without instrumenting the kernel (twenty-seventh
session). Reads and writes .mtx or .mtx.gz; a symmetric input is expanded to both directions
first, since the tuner's CSR rows are the file's first index."""
import argparse
import collections
import gzip
import sys


def open_text(path, mode):
    return gzip.open(path, mode + "t") if path.endswith(".gz") else open(path, mode)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--cap", type=int, required=True, help="entries kept per row (>= 1)")
    ap.add_argument("--keep", type=int, default=0, help="longest rows left whole")
    args = ap.parse_args()
    if args.cap < 1 or args.keep < 0:
        sys.exit("cap_graph.py: --cap must be >= 1 and --keep >= 0")
    rows = collections.defaultdict(list)
    header, comments, size = None, [], None
    with open_text(args.src, "r") as f:
        for line in f:
            if header is None:
                header = line.split()
                if len(header) < 5 or header[0] != "%%MatrixMarket" or header[2] != "coordinate":
                    sys.exit(f"cap_graph.py: {args.src}: not a coordinate Matrix Market file")
                continue
            if line.startswith("%"):
                comments.append(line)
                continue
            if not line.strip():
                continue
            parts = line.split()
            if size is None:
                size = [int(x) for x in parts[:3]]
                continue
            r, c = int(parts[0]), int(parts[1])
            rows[r].append((c, parts[2:]))
            if header[4] == "symmetric" and r != c:
                rows[c].append((r, parts[2:]))
    if size is None:
        sys.exit(f"cap_graph.py: {args.src}: no size line")
    kept = set(sorted(rows, key=lambda r: (-len(rows[r]), r))[: args.keep])
    out = []
    for r in sorted(rows):
        entries = rows[r] if r in kept else rows[r][: args.cap]
        out.extend((r, c, v) for c, v in entries)
    with open_text(args.dst, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate {header[3]} general\n")
        f.write(f"% {args.src} with rows capped at {args.cap} entries but its {args.keep} longest"
                f" (scripts/cap_graph.py)\n")
        f.write(f"{size[0]} {size[1]} {len(out)}\n")
        for r, c, v in out:
            f.write(" ".join([str(r), str(c)] + v) + "\n")
    print(f"{args.dst}: {len(out)} entries, {len(rows)} rows, longest "
          f"{max(len(rows[r]) if r in kept else min(len(rows[r]), args.cap) for r in rows)}")


if __name__ == "__main__":
    main()
