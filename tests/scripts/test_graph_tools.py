#!/usr/bin/env python3
"""scripts/relabel_graph.py and scripts/block_reuse.py, the locality experiment's tools
(perf-notes, seventeenth session), and scripts/cap_graph.py (twenty-seventh), on small graphs
whose answers are worked out by hand."""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
import block_reuse  # noqa: E402
import relabel_graph  # noqa: E402


def write_mtx(path, n, entries):
    with gzip.open(path, "wt") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n% test graph\n")
        f.write(f"{n} {n} {len(entries)}\n")
        f.writelines(f"{r + 1} {c + 1}\n" for r, c in sorted(entries))


class RelabelGraph(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "g.mtx.gz")
        self.dst = os.path.join(self.tmp.name, "g-bfs.mtx.gz")
        # Rows (destination) with their in-neighbours; node 4 has the largest in-degree, and
        # node 5 is reached from no one (a second search).
        self.rows = {0: [1], 1: [0, 2], 2: [4], 3: [4], 4: [0, 1, 3], 5: [0]}
        write_mtx(self.src, 6, [(r, c) for r, cs in self.rows.items() for c in cs])

    def tearDown(self):
        self.tmp.cleanup()

    def test_breadth_first_from_the_largest_in_degree(self):
        # From 4: its in-neighbours 0, 1, 3 in stored order, then 0's (1, seen), 1's (2), ...
        self.assertEqual(relabel_graph.bfs_order(relabel_graph.load(self.src)), [4, 0, 1, 3, 2, 5])

    def test_the_relabelled_file_is_the_same_graph_renumbered(self):
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "relabel_graph.py"), self.src, self.dst],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with gzip.open(self.dst, "rt") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "%%MatrixMarket matrix coordinate pattern general")
        new = {old: i for i, old in enumerate([4, 0, 1, 3, 2, 5])}
        want = sorted((new[r], new[c]) for r, cs in self.rows.items() for c in cs)
        body = [ln for ln in lines[1:] if not ln.startswith("%")]
        self.assertEqual(body[0], "6 6 9")
        got = [tuple(int(x) - 1 for x in ln.split()) for ln in body[1:]]
        self.assertEqual(got, want)  # every edge renumbered, sorted by (row, col)

    def test_a_wrong_entry_count_is_refused(self):
        with gzip.open(self.src, "wt") as f:
            f.write("%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n2 3\n")
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "relabel_graph.py"), self.src, self.dst],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("2 entries, the size line says 4", r.stderr)


class BlockReuse(unittest.TestCase):
    rows = [[1, 2], [1, 2], [3], []]

    def test_rows_as_tasks(self):
        # Blocks of two rows: {r0, r1} gather 1, 2, 1, 2 (2 distinct of 4), {r2, r3} gather 3.
        self.assertAlmostEqual(block_reuse.reuse(self.rows, [0, 1, 2, 3], 0, 2), 1 - 3 / 5)
        # Rows 0 and 2 together, then 1 and 3: nothing repeats inside a block.
        self.assertAlmostEqual(block_reuse.reuse(self.rows, [0, 2, 1, 3], 0, 2), 0.0)

    def test_chunks_come_first_and_split_long_rows(self):
        # Split 1: rows 0 and 1 become chunks [1], [2], [1], [2] (first, in row order), then rows
        # 2 and 3: blocks {[1], [2]}, {[1], [2]}, {[3], []}: no repeats inside a block.
        self.assertAlmostEqual(block_reuse.reuse(self.rows, [0, 1, 2, 3], 1, 2), 0.0)

    def test_lpt_order_puts_long_rows_first_and_empty_and_split_rows_last(self):
        rows = [[1], [], [1, 2, 3, 4], [1, 2], [5, 6, 7]]
        self.assertEqual(block_reuse.lpt_order(rows, 0), [2, 3, 4, 0, 1])
        self.assertEqual(block_reuse.lpt_order(rows, 3), [3, 4, 0, 1, 2])


class CapGraph(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "g.mtx.gz")

    def tearDown(self):
        self.tmp.cleanup()

    def cap(self, *extra, src=None):
        dst = os.path.join(self.tmp.name, "out.mtx")
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "cap_graph.py"), src or self.src, dst, *extra],
                           capture_output=True, text=True)
        return r, dst

    def rows(self, path):
        out = {}
        with open(path) as f:
            lines = [l for l in f if not l.startswith("%")]
        n, _, nnz = (int(x) for x in lines[0].split())
        for l in lines[1:]:
            r, c = (int(x) for x in l.split()[:2])
            out.setdefault(r, []).append(c)
        self.assertEqual(sum(len(v) for v in out.values()), nnz)
        return n, out

    def test_rows_capped_but_the_longest(self):
        # Row 1 (0-based 0) has 4 entries, row 2 has 3, row 3 has 1, row 4 none.
        write_mtx(self.src, 4, [(0, c) for c in range(4)] + [(1, 0), (1, 2), (1, 3), (2, 0)])
        r, dst = self.cap("--cap", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        n, rows = self.rows(dst)
        self.assertEqual(n, 4)
        self.assertEqual(rows, {1: [1, 2], 2: [1, 3], 3: [1]})  # the first two in file order
        r, dst = self.cap("--cap", "2", "--keep", "1")
        self.assertEqual(self.rows(dst)[1], {1: [1, 2, 3, 4], 2: [1, 3], 3: [1]})

    def test_symmetric_input_is_expanded_first(self):
        src = os.path.join(self.tmp.name, "s.mtx")
        with open(src, "w") as f:
            f.write("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 3\n")
        r, dst = self.cap("--cap", "8", src=src)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.rows(dst)[1], {1: [2, 3], 2: [1], 3: [1, 3]})

    def test_bad_input_and_arguments_are_named(self):
        bad = os.path.join(self.tmp.name, "bad.mtx")
        with open(bad, "w") as f:
            f.write("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
        r, _ = self.cap("--cap", "2", src=bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not a coordinate Matrix Market file", r.stderr)
        write_mtx(self.src, 2, [(0, 1)])
        r, _ = self.cap("--cap", "0")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--cap must be >= 1", r.stderr)


if __name__ == "__main__":
    unittest.main()
