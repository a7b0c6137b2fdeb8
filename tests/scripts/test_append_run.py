#!/usr/bin/env python3
"""scripts/append_run.py on small stores of the tuner's shape (runs, trials, graphs, problems):
fresh runs are numbered after the target's last, a problem's from_run follows its run, runs the
target already holds (a `tuner run --reuse` store grown from a copy of the target) are not
copied again, a source with no new run is refused and leaves the target as it was, a gzipped
target stays gzipped, and a folder target (scripts/recorded_store.py) gets each new run as a
file of its own, leaving its other files as they were."""
import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "append_run.py")
TOOL = os.path.join(SCRIPTS, "recorded_store.py")

SCHEMA = """
create table runs (id integer primary key autoincrement, started text, config_hash text,
                   gpu_uuid text, continued_from integer);
create table trials (run_id integer, graph text, variant text, median_us real);
create table graphs (run_id integer, name text);
create table problems (run_id integer, graph text, from_run integer);
"""


def make_store(path, runs):
    """runs: [(started, config_hash, [(graph, variant, us)], [(graph, from_run)])], ids from 1."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for started, cfg, trials, problems in runs:
        rid = db.execute("insert into runs (started, config_hash, gpu_uuid) values (?, ?, 'GPU-a')",
                         (started, cfg)).lastrowid
        db.executemany("insert into trials values (?, ?, ?, ?)", [(rid, *t) for t in trials])
        db.executemany("insert into graphs values (?, ?)", [(rid, g) for g in {t[0] for t in trials}])
        db.executemany("insert into problems values (?, ?, ?)", [(rid, *p) for p in problems])
    db.commit()
    db.close()


def read(path):
    with tempfile.TemporaryDirectory() as tmp:
        if path.endswith(".gz"):  # gunzipped elsewhere: not a store of the folder it is in
            plain = os.path.join(tmp, "plain.sqlite")
            with gzip.open(path, "rb") as f, open(plain, "wb") as g:
                shutil.copyfileobj(f, g)
            path = plain
        db = sqlite3.connect(path)
        out = {t: db.execute("select * from %s order by 1, 2" % t).fetchall()
               for t in ("runs", "trials", "graphs", "problems")}
        db.close()
    return out


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def append(source, target):
    return subprocess.run([sys.executable, SCRIPT, source, target], capture_output=True, text=True)


class AppendRun(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.target = os.path.join(self.tmp, "target.sqlite")
        make_store(self.target, [("t1", "c", [("cora", "v1", 5.0)], [("cora", None)]),
                                 ("t2", "c", [("cora", "v2", 4.0)], [("cora", None)])])

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_fresh_runs_follow_the_targets_last_id(self):
        src = os.path.join(self.tmp, "src.sqlite")
        make_store(src, [("s1", "d", [("pubmed", "v3", 9.0)], [("pubmed", None)]),
                         ("s2", "d", [("pubmed", "v4", 8.0)], [("pubmed", 1)])])
        r = append(src, self.target)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = read(self.target)
        self.assertEqual([row[0] for row in got["runs"]], [1, 2, 3, 4])
        self.assertIn((4, "pubmed", 3), got["problems"])  # from_run 1 of the source is run 3 now
        self.assertIn((3, "pubmed", "v3", 9.0), got["trials"])

    def test_runs_the_target_holds_are_mapped_not_copied(self):
        src = os.path.join(self.tmp, "reuse.sqlite")
        shutil.copyfile(self.target, src)  # what gpu-multi.sh's REUSE copies in
        db = sqlite3.connect(src)
        db.execute("insert into runs (started, config_hash, gpu_uuid) values ('t3', 'c', 'GPU-a')")
        db.execute("insert into trials values (3, 'cora', 'v2', 4.0)")   # reused from run 2
        db.execute("insert into trials values (3, 'pubmed', 'v5', 7.0)")
        db.execute("insert into problems values (3, 'cora', 2)")
        db.execute("insert into problems values (3, 'pubmed', null)")
        db.commit()
        db.close()
        before = read(self.target)
        r = append(src, self.target)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("already there: 1 as 1, 2 as 2", r.stdout)
        got = read(self.target)
        self.assertEqual([row[0] for row in got["runs"]], [1, 2, 3])
        self.assertEqual(len(got["trials"]), len(before["trials"]) + 2)  # runs 1-2 not doubled
        self.assertIn((3, "cora", 2), got["problems"])

    def test_a_source_with_no_new_run_is_refused_and_the_target_kept(self):
        gz = self.target + ".gz"
        with open(self.target, "rb") as f, gzip.open(gz, "wb") as g:
            shutil.copyfileobj(f, g)
        with open(gz, "rb") as f:
            before = f.read()
        r = append(self.target, gz)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("already in", r.stderr)
        with open(gz, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_a_gzipped_target_stays_gzipped(self):
        gz = self.target + ".gz"
        with open(self.target, "rb") as f, gzip.open(gz, "wb") as g:
            shutil.copyfileobj(f, g)
        src = os.path.join(self.tmp, "src.sqlite")
        make_store(src, [("s1", "d", [("wiki-vote", "v6", 3.0)], [("wiki-vote", None)])])
        r = append(src, gz)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([row[0] for row in read(gz)["runs"]], [1, 2, 3])

    def folder_target(self):
        """The target's two runs as a folder, one gzipped file a run."""
        folder = os.path.join(self.tmp, "recorded")
        os.mkdir(folder)
        subprocess.run([sys.executable, TOOL, "cut", self.target, "1",
                        os.path.join(folder, "runs-0001-0001.sqlite.gz")], check=True)
        subprocess.run([sys.executable, TOOL, "cut", self.target, "2",
                        os.path.join(folder, "run-0002.sqlite.gz")], check=True)
        return folder

    def test_a_folder_target_gets_a_file_a_new_run(self):
        folder = self.folder_target()
        before = {f: read_bytes(os.path.join(folder, f)) for f in os.listdir(folder)}
        src = os.path.join(self.tmp, "src.sqlite")
        make_store(src, [("s1", "d", [("pubmed", "v3", 9.0)], [("pubmed", None)]),
                         ("s2", "d", [("pubmed", "v4", 8.0)], [("pubmed", 1)])])
        r = append(src, folder)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(folder)), ["run-0002.sqlite.gz", "run-0003.sqlite.gz",
                                                      "run-0004.sqlite.gz", "runs-0001-0001.sqlite.gz"])
        for f, data in before.items():  # the runs it held are not rewritten
            self.assertEqual(read_bytes(os.path.join(folder, f)), data)
        four = read(os.path.join(folder, "run-0004.sqlite.gz"))
        self.assertEqual([row[0] for row in four["runs"]], [4])
        self.assertEqual(four["problems"], [(4, "pubmed", 3)])  # from_run 1 of the source is run 3
        self.assertEqual(four["trials"], [(4, "pubmed", "v4", 8.0)])
        merged = os.path.join(self.tmp, "merged.sqlite")
        r = subprocess.run([sys.executable, TOOL, "merge", folder, merged], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([row[0] for row in read(merged)["runs"]], [1, 2, 3, 4])

    def test_a_folder_target_maps_the_runs_it_holds(self):
        folder = self.folder_target()
        src = os.path.join(self.tmp, "reuse.sqlite")
        subprocess.run([sys.executable, TOOL, "merge", folder, src], check=True)  # gpu-multi.sh's REUSE
        db = sqlite3.connect(src)
        db.execute("insert into runs (started, config_hash, gpu_uuid) values ('t3', 'c', 'GPU-a')")
        db.execute("insert into trials values (3, 'cora', 'v2', 4.0)")
        db.execute("insert into problems values (3, 'cora', 2)")
        db.commit()
        db.close()
        r = append(src, folder)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("already there: 1 as 1, 2 as 2", r.stdout)
        self.assertEqual(read(os.path.join(folder, "run-0003.sqlite.gz"))["problems"], [(3, "cora", 2)])

    def test_a_run_in_two_files_of_a_folder_is_named(self):
        folder = self.folder_target()
        shutil.copyfile(os.path.join(folder, "run-0002.sqlite.gz"), os.path.join(folder, "x.sqlite.gz"))
        src = os.path.join(self.tmp, "src.sqlite")
        make_store(src, [("s1", "d", [("pubmed", "v3", 9.0)], [("pubmed", None)])])
        r = append(src, folder)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("run 2 is in both", r.stderr)
        self.assertEqual(len(os.listdir(folder)), 3)

    def test_latest_only_keeps_the_latest_run_alone(self):
        folder = os.path.join(self.tmp, "recorded")
        os.mkdir(folder)
        gz = os.path.join(folder, "runs-0001-0002.sqlite.gz")  # both runs in one file
        with open(self.target, "rb") as f, gzip.open(gz, "wb") as g:
            shutil.copyfileobj(f, g)
        src = os.path.join(self.tmp, "src.sqlite")
        make_store(src, [("s1", "d", [("pubmed", "v3", 9.0)], [("pubmed", None)])])
        self.assertEqual(append(src, folder).returncode, 0)
        r = subprocess.run([sys.executable, TOOL, "latest-only", folder], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(folder), ["run-0003.sqlite.gz"])
        os.remove(os.path.join(folder, "run-0003.sqlite.gz"))
        with open(self.target, "rb") as f, gzip.open(gz, "wb") as g:
            shutil.copyfileobj(f, g)
        r = subprocess.run([sys.executable, TOOL, "latest-only", folder], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([row[0] for row in read(gz)["runs"]], [2])  # cut to its latest run
        self.assertEqual({row[0] for row in read(gz)["trials"]}, {2})


if __name__ == "__main__":
    unittest.main()
