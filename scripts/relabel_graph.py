#!/usr/bin/env python3
"""Relabel a graph's nodes in breadth-first order, for the locality experiment of perf-notes
("Seventeenth session"): neighbours get nearby ids, so rows processed side by side gather
overlapping value rows. Reads and writes the .mtx.gz format of ../shared/graphs (1-based
`row col` entries, row = destination). The search starts at the node of largest in-degree and
visits in-neighbours in stored order; unreached nodes start new searches, largest first.

    scripts/relabel_graph.py IN.mtx.gz OUT.mtx.gz
"""
import collections
import gzip
import sys


def load(path):
    with gzip.open(path, "rt") as f:
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        n, n2, nnz = map(int, line.split())
        if n != n2:
            sys.exit(f"{path}: not square ({n} x {n2})")
        rows = [[] for _ in range(n)]
        for k, entry in enumerate(f):
            r, c = entry.split()
            rows[int(r) - 1].append(int(c) - 1)
        if k + 1 != nnz:
            sys.exit(f"{path}: {k + 1} entries, the size line says {nnz}")
    return rows


def bfs_order(rows):
    n = len(rows)
    seen = [False] * n
    order = []
    for s in sorted(range(n), key=lambda r: -len(rows[r])):
        if seen[s]:
            continue
        seen[s] = True
        q = collections.deque([s])
        while q:
            u = q.popleft()
            order.append(u)
            for v in rows[u]:
                if not seen[v]:
                    seen[v] = True
                    q.append(v)
    return order


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1:]
    rows = load(src)
    new = [0] * len(rows)
    for i, old in enumerate(bfs_order(rows)):
        new[old] = i
    out = [None] * len(rows)
    for old, r in enumerate(rows):
        out[new[old]] = sorted(new[c] for c in r)
    nnz = sum(len(r) for r in out)
    with open(dst, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
        f.write(b"%%MatrixMarket matrix coordinate pattern general\n")
        f.write(f"% {src}, nodes relabelled in breadth-first order (scripts/relabel_graph.py)\n".encode())
        f.write(f"{len(out)} {len(out)} {nnz}\n".encode())
        f.write("".join(f"{r + 1} {c + 1}\n" for r, cs in enumerate(out) for c in cs).encode())


if __name__ == "__main__":
    main()
