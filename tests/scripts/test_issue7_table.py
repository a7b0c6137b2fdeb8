#!/usr/bin/env python3
"""scripts/issue7_table.py on the twenty-sixth session's run of record (docs/data/v26/call2):
the ratios it computes from the recorded JSON, and target 6's median per PyG round
(peers_pyg.py --rounds), on copies of that call's files with round medians written in."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "issue7_table.py")
CALL = os.path.join(ROOT, "docs", "data", "v26", "call2")


def table(folder, prof):
    out = subprocess.run([sys.executable, SCRIPT, folder, "--copy-from", prof, "--same-call"],
                         capture_output=True, text=True, check=True)
    return out.stdout


def row(text, start):
    lines = [l for l in text.splitlines() if l.startswith(start)]
    if len(lines) != 1:
        raise AssertionError(f"{len(lines)} lines start with {start!r}")
    return lines[0]


def prof_path():
    p = os.path.join(CALL, "prof_check.json")
    return p if os.path.exists(p) else p + ".gz"


class RecordedRun(unittest.TestCase):
    def test_the_run_of_record_table(self):
        t = table(os.path.join(CALL, "final"), prof_path())
        self.assertIn("| citeseer | 10.14 | 19.23 | 32.93 | 331.2 | 1.90x | 32.6x |", t)
        self.assertIn("| seed shape, F=64 | 8.66 | 10.88 | 28.93 | 187.8 | 1.26x | 21.7x |", t)
        self.assertEqual(row(t, "| 6 | >= 25x PyG on the median graph"),
                         "| 6 | >= 25x PyG on the median graph | median 25.8x over 12 graphs | met |")
        self.assertIn("| 4 | power-law 1M <= 1.5x uniform (GPU time) | 966.3 / 910.2 us = 1.06x | met |", t)


class WithTheReadCeiling(unittest.TestCase):
    """prof_check.json with the DRAM read ceiling (since the forty-seventh session): the DRAM table
    gives each kernel's share of it beside the copy's; without it (every call before) it does not."""

    def test_percent_of_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            opener = gzip.open if prof_path().endswith(".gz") else open
            with opener(prof_path(), "rt") as f:
                prof = json.load(f)
            prof["ceilings"]["dram_read_gbs"] = 4400.0
            path = os.path.join(tmp, "prof_check.json")
            with open(path, "w") as f:
                json.dump(prof, f)
            t = table(os.path.join(CALL, "final"), path)
        self.assertIn("read-only stream 4400 GB/s", t)
        self.assertIn("| graph | tuned us | GB/s | % of copy | % of read | seed us | tuned / seed | bf16 us | "
                      "bf16 GB/s | bf16 % of read | f32 / bf16 | bf16 rel. error |", t)
        # 4282 GB/s on the counters: 105.9% of the copy (4043), 97.3% of 4400; bf16 4115: 93.5%.
        self.assertIn("| uniform 1M, d16 | 910.2 | 4282 | 105.9% | 97.3% | 1383.4 | 0.66x | 465.4 | 4115 | "
                      "93.5% | 1.96x | 1.7e-03 |", t)
        old = table(os.path.join(CALL, "final"), prof_path())
        self.assertNotIn("% of read", old)
        self.assertIn("| uniform 1M, d16 | 910.2 | 4282 | 105.9% | 1383.4 | 0.66x |", old)


class ReadCeilingMeasured(unittest.TestCase):
    """The forty-seventh session's call 7 (an H100), whose prof_check measured the read ceiling
    (3203 GB/s against a copy of 2939): every DRAM table gives the share of it."""

    def test_call7(self):
        call = os.path.join(ROOT, "docs", "data", "v47", "call7-h100")
        t = table(os.path.join(call, "final"), os.path.join(call, "prof_check.json.gz"))
        self.assertIn("read-only stream 3203 GB/s (1.090x the copy)", t)
        self.assertIn("| uniform 2M, d32, F=128 | 9021.9 | 3027 | 103.0% | 94.5% | 11596.2 | 0.78x | 5579.8 | "
                      "3029 | 94.6% | 1.62x | 1.7e-03 |", t)
        self.assertIn("| uniform 2M, d32, F=128 | 9053.4 | 3018 | 102.7% | 94.2% | 0.78x | 1.00x | 27.35 |", t)


class CopiedRun(unittest.TestCase):
    """A copy of the run of record's files, for a test to write into."""

    SMALL = {"seed_384", "cora", "citeseer", "pubmed", "wiki-vote", "ca-astroph", "cit-hepph",
             "soc-slashdot0902"}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "final")
        shutil.copytree(os.path.join(CALL, "final"), self.dir)

    def tearDown(self):
        self.tmp.cleanup()


class WithoutPeers(CopiedRun):
    """A run of record without PyG (PEERS=0): the table stands, its PyG column and target 6 n/a."""

    def test_no_peers_file(self):
        os.remove(os.path.join(self.dir, "peers.json"))
        t = table(self.dir, prof_path())
        self.assertIn("No peers.json in this folder", t)
        self.assertNotIn("PyG's calls", t)
        self.assertIn("| citeseer | 10.14 | 19.23 | 32.93 | n/a | 1.90x | n/a |", t)
        self.assertEqual(row(t, "| 6 | >= 25x PyG on the median graph"),
                         "| 6 | >= 25x PyG on the median graph | not measured (no peers.json) | n/a |")
        self.assertIn("| 4 | power-law 1M <= 1.5x uniform (GPU time) | 966.3 / 910.2 us = 1.06x | met |", t)


class PygRounds(CopiedRun):
    """Round medians as peers_pyg.py --rounds writes them, for the graphs whose inputs fit in L2."""

    def with_rounds(self, factors, skip_round_of=None):
        """PyG's small-graph round medians = the recorded median times each factor."""
        path = os.path.join(self.dir, "peers.json")
        with open(path) as f:
            d = json.load(f)
        for r in d["results"]:
            if r["impl"] == "pyg" and r["graph"] in self.SMALL and "median_us" in r:
                fs = factors[:-1] if r["graph"] == skip_round_of else factors
                r["round_medians_us"] = [r["median_us"] * x for x in fs]
        with open(path, "w") as f:
            json.dump(d, f)
        return row(table(self.dir, prof_path()), "| 6 | >= 25x PyG on the median graph")

    def test_rounds_that_straddle_the_target_are_marked(self):
        line = self.with_rounds([0.5, 1.0, 1.5])
        self.assertIn("median 25.8x over 12 graphs; with each of PyG's 3 rounds: ", line)
        self.assertIn("(at the threshold)", line)
        self.assertTrue(line.endswith("| met |"), line)  # the verdict stays the pooled median's

    def test_rounds_all_above_are_not_marked(self):
        line = self.with_rounds([1.2, 1.3])
        self.assertIn("with each of PyG's 2 rounds: ", line)
        self.assertNotIn("threshold", line)

    def test_one_round_per_graph_gives_the_plain_line(self):
        line = self.with_rounds([1.0])
        self.assertEqual(line, "| 6 | >= 25x PyG on the median graph | median 25.8x over 12 graphs | met |")

    def test_a_graph_with_fewer_rounds_keeps_its_pooled_median(self):
        # citeseer lost its third round (peers_pyg.py keeps the rounds it has): the third
        # round's median takes citeseer's pooled value, the others' x 2.
        line = self.with_rounds([1.0, 1.0, 2.0], skip_round_of="citeseer")
        self.assertIn("rounds: 25.8x, 25.8x, ", line)


class Colblock(CopiedRun):
    """tuner bench's colblock row in bench-2m.json (thirty-fourth session on): its own table and
    its ratio beside target 2's time line, whose verdict stays the dispatch's."""

    def test_no_colblock_row_no_colblock_lines(self):
        t = table(self.dir, prof_path())
        self.assertNotIn("colblock", t)

    def test_colblock_row_is_reported_beside_target_2(self):
        path = os.path.join(self.dir, "bench-2m.json")
        with open(path) as f:
            d = json.load(f)
        seed = next(r for r in d["results"] if r["impl"] == "seed")
        c = dict(seed, impl="colblock", variant="colblock", gpu_median_us=seed["gpu_median_us"] * 0.72)
        d["results"].append(c)
        with open(path, "w") as f:
            json.dump(d, f)
        t = table(self.dir, prof_path())
        self.assertIn("The column-blocked sweep (`tuner bench --impl colblock`", t)
        self.assertIn("| 0.72x |", row(t, "| uniform 2M, d32, F=128 | " + f"{c['gpu_median_us']:.1f}"))
        line = row(t, "| 2 | DRAM-bound: time <= 0.7x the seed")
        self.assertIn("; colblock (not dispatched) uniform 2M, d32, F=128 0.72x", line)
        self.assertTrue(line.endswith("| not met |"), line)
        self.assertIn("beside the dispatch, which does not run it:", t)

    def test_a_dispatched_sweep_is_named_the_dispatchs(self):
        path = os.path.join(self.dir, "bench-2m.json")
        with open(path) as f:
            d = json.load(f)
        seed = next(r for r in d["results"] if r["impl"] == "seed")
        tuned = next(r for r in d["results"] if r["impl"] == "tuned")
        tuned["variant"] = "colblock.r19.ps16.lag8.i32.f32"
        d["results"].append(dict(seed, impl="colblock", variant="colblock",
                                 gpu_median_us=seed["gpu_median_us"] * 0.72))
        with open(path, "w") as f:
            json.dump(d, f)
        t = table(self.dir, prof_path())
        self.assertIn("; the dispatch runs it too (its rule attaches it):", t)
        line = row(t, "| 2 | DRAM-bound: time <= 0.7x the seed")
        self.assertIn("; colblock (the dispatch's) uniform 2M, d32, F=128 0.72x", line)


class SixteenBitOut(CopiedRun):
    """tuner bench --out f32,bf16 (thirty-seventh session on): the bf16-out rows of the bf16
    benches, their own table and a second target-5 line; without them neither appears."""

    def with_bf16_out(self, speedup):
        """The bf16 benches' tuned rows again, writing bf16 out, speedup x faster."""
        for name in ("bench-bf16.json", "bench-2m-bf16.json"):
            path = os.path.join(self.dir, name)
            with open(path) as f:
                d = json.load(f)
            extra = [dict(r, out="bf16", variant=r["variant"] + ".o16",
                          gpu_median_us=r["gpu_median_us"] / speedup)
                     for r in d["results"] if r["impl"] == "tuned"]
            d["results"] += extra
            with open(path, "w") as f:
                json.dump(d, f)
        return table(self.dir, prof_path())

    def test_no_bf16_out_rows_no_bf16_out_lines(self):
        t = table(self.dir, prof_path())
        self.assertNotIn("bf16 out", t)

    def test_bf16_out_rows_give_their_table_and_target_5_line(self):
        plain = table(self.dir, prof_path())
        first = row(plain, "| 5 | bf16 >= 1.8x the f32 tuned kernel")
        t = self.with_bf16_out(1.1)
        self.assertEqual(row(t, "| 5 | bf16 >= 1.8x the f32 tuned kernel"), first)  # f32 out's stays
        line = row(t, "| 5 | the same with bf16 out too")
        u2_f32_out = float(first.split("uniform 2M, d32, F=128 ")[1].split("x")[0])
        u2 = float(line.split("uniform 2M, d32, F=128 ")[1].split("x")[0])
        self.assertAlmostEqual(u2, u2_f32_out * 1.1, delta=0.011)
        self.assertIn("bf16 values with bf16 out", t)
        self.assertIn(".o16` |", t)


class InProcess(CopiedRun):
    """csrgat rows as peers_pyg.py --csrgat-lib writes them: the in-process table and target 6's
    two in-process lines."""

    def with_csrgat(self, speedups, rounds=None, prepared=None):
        """csrgat's median = PyG's / speedups[graph] (30 where not named); round r's medians = PyG's
        round r / rounds[r] when given (PyG's round medians then the pooled median); with
        prepared, csrgat_call rows too, at PyG's / prepared[graph] (40 where not named), with a
        host time of 2.5 us."""
        path = os.path.join(self.dir, "peers.json")
        with open(path) as f:
            d = json.load(f)
        extra = []
        for r in d["results"]:
            if r["impl"] == "pyg" and "median_us" in r:
                c = {k: r[k] for k in ("graph", "spec", "feat", "heads")}
                c.update(impl="csrgat", variant="csrgat.test", median_us=r["median_us"] / speedups.get(r["graph"], 30))
                if rounds and r["graph"] in self.SMALL:
                    r["round_medians_us"] = [r["median_us"]] * len(rounds)
                    c["round_medians_us"] = [r["median_us"] / x for x in rounds]
                extra.append(c)
                if prepared is not None:
                    extra.append(dict(c, impl="csrgat_call", host_median_us=2.5,
                                      median_us=r["median_us"] / prepared.get(r["graph"], 40)))
        d["results"] += extra
        with open(path, "w") as f:
            json.dump(d, f)
        return table(self.dir, prof_path())

    def test_no_csrgat_rows_no_in_process_lines(self):
        t = table(self.dir, prof_path())
        self.assertNotIn("In one process", t)
        self.assertNotIn("in one process", t)

    def test_in_process_table_and_targets(self):
        t = self.with_csrgat({"cora": 8.0, "pubmed": 20.0})
        self.assertIn("| cora | ", t)
        self.assertIn(" | 8.0x | one round | `csrgat.test` |", t)
        self.assertEqual(row(t, "| 6 | >= 10x PyG on every graph, in one process"),
                         "| 6 | >= 10x PyG on every graph, in one process (csrgat's C interface, "
                         "peers_pyg.py) | lowest cora 8.0x; below 10x: cora 8.0x | not met |")
        self.assertEqual(row(t, "| 6 | >= 25x PyG on the median graph, in one process"),
                         "| 6 | >= 25x PyG on the median graph, in one process | median 30.0x over "
                         "12 graphs | met |")

    def test_the_prepared_call_is_the_figure_where_recorded(self):
        t = self.with_csrgat({"cora": 8.0}, prepared={"cora": 12.0})
        # cora: csrgat_aggregate at 1/8 of PyG's, the prepared call at 1/12: the ratio is 12x
        self.assertIn("| graph | csrgat_aggregate us | prepared call us | PyG us |", t)
        cora = [ln for ln in t.splitlines() if ln.startswith("| cora | ") and " (2.50) | " in ln]
        self.assertEqual(len(cora), 1, t)
        self.assertIn(" | 12.0x | one round | ", cora[0])
        self.assertIn("in brackets the host time", t)
        self.assertEqual(row(t, "| 6 | >= 10x PyG on every graph, in one process"),
                         "| 6 | >= 10x PyG on every graph, in one process (csrgat's C interface, "
                         "peers_pyg.py) | lowest cora 12.0x | met |")
        self.assertIn("median 40.0x over 12 graphs | met |", t)

    def test_every_round_must_clear_the_median(self):
        t = self.with_csrgat({}, rounds=[30.0, 20.0, 40.0])
        line = row(t, "| 6 | >= 25x PyG on the median graph, in one process")
        # 8 small graphs at 30x, 20x, 40x by round and the 4 large at their pooled 30x
        self.assertIn("round by round: 30.0x, 20.0x, 40.0x", line)
        self.assertTrue(line.endswith("| not met |"), line)
        self.assertIn(" | 30.0 / 20.0 / 40.0 | ", t)


if __name__ == "__main__":
    unittest.main()
