#!/usr/bin/env python3
"""How many of a block's gathers repeat a value row the same block already asked for: the
locality count of perf-notes ("Seventeenth session: does the order of the rows matter?").
Tasks as the split `.lpt` kernels take them: chunks of rows longer than SPLIT first (row order,
SPLIT edges each), then the other rows in index order, `.lpt` order (degree buckets in powers of
two, longest first) or breadth-first order; RPB consecutive tasks make a block.

    scripts/block_reuse.py GRAPH.mtx.gz [SPLIT [RPB]]      (defaults 32 and 16)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relabel_graph import bfs_order, load  # noqa: E402


def lpt_order(rows, split):
    def key(r):
        d = len(rows[r])
        if d == 0 or (split and d > split):
            return 65
        return 64 - (d.bit_length() - 1)
    return sorted(range(len(rows)), key=key)


def reuse(rows, order, split, rpb):
    tasks = [rows[r][c:c + split] for r in range(len(rows)) if split and len(rows[r]) > split
             for c in range(0, len(rows[r]), split)]
    tasks += [rows[r] for r in order if not (split and len(rows[r]) > split)]
    gathers = distinct = 0
    for b in range(0, len(tasks), rpb):
        seen = set()
        for t in tasks[b:b + rpb]:
            gathers += len(t)
            seen.update(t)
        distinct += len(seen)
    return 1 - distinct / gathers if gathers else 0.0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    split = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    rpb = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    rows = load(path)
    orders = {"index": list(range(len(rows))), "lpt": lpt_order(rows, split), "bfs": bfs_order(rows)}
    for name, order in orders.items():
        print(f"{os.path.basename(path)} split {split} rpb {rpb} {name:5s} order: "
              f"{reuse(rows, order, split, rpb):.1%} of gathers repeat a row of their block")


if __name__ == "__main__":
    main()
