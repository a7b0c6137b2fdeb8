#!/usr/bin/env python3
"""scripts/peers_pyg.py's problems (--list: no GPU, PyTorch or numpy needed): a config's graphs
come from the tuner's own reading of it (`tuner list --graphs`), so a `base:` config, YAML
anchors and paths relative to the config's folder mean what they mean to `tuner run` (the script
used to parse the YAML itself and follow `base:` one level by a regular expression). The tuner is
$CSRGAT_TUNER, which ctest sets; run by hand without it, these tests are skipped, saying so."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PEERS = os.path.join(ROOT, "scripts", "peers_pyg.py")
TUNER = os.environ.get("CSRGAT_TUNER")


def peers(*args, tuner=TUNER):
    env = {k: v for k, v in os.environ.items() if k != "CSRGAT_TUNER"}
    return subprocess.run([sys.executable, PEERS, *args] + (["--tuner", tuner] if tuner else []),
                          capture_output=True, text=True, env=env, timeout=120)


def listed(*args):
    done = peers(*args, "--list")
    if done.returncode != 0:
        raise AssertionError(f"peers_pyg.py {' '.join(args)} --list: exit {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


@unittest.skipUnless(TUNER, "CSRGAT_TUNER is not set (ctest sets it to the built tuner)")
class ConfigProblems(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_a_base_configs_graphs_are_its_bases(self):
        # configs/h100.yaml names h200.yaml as its base and no graphs of its own: the H100 run of
        # the README's main job and the H200's PyG peers time the same problems.
        h100 = listed("--config", os.path.join(ROOT, "configs", "h100.yaml"))
        h200 = listed("--config", os.path.join(ROOT, "configs", "h200.yaml"))
        self.assertEqual(h100, h200)
        names = [p["name"] for p in h200]
        self.assertIn("cora", names)
        self.assertIn("uniform_2m_d32", names)
        two_m = h200[names.index("uniform_2m_d32")]
        self.assertEqual((two_m["feat"], two_m["heads"]), ([128], [1]))
        pubmed = h200[names.index("pubmed")]
        self.assertEqual(pubmed["heads"], [1, 8])

    def test_specs_as_written_files_read_from_the_configs_folder(self):
        # An anchor's feat reused, a file relative to the config's folder (not the caller's), a
        # generator spec as is; --graph problems after the config's.
        self.write("base.yaml", """name: b
arch: sm_90
graphs:
  - {name: tiny, spec: "graphs/tiny.mtx", feat: &f [32, 64]}
  - {name: gen, spec: "uniform:n=1000,deg=4,seed=2", feat: *f, heads: [2]}
space: {}
""")
        child = self.write("child.yaml", "base: base.yaml\nname: c\n")
        got = listed("--config", child, "--graph", "seed:n=10,deg=2")
        self.assertEqual([p["name"] for p in got], ["tiny", "gen", "seed_n10_deg2"])
        self.assertEqual(got[0]["spec"], "graphs/tiny.mtx")
        self.assertEqual(os.path.realpath(got[0]["read"]),
                         os.path.realpath(os.path.join(self.dir, "graphs", "tiny.mtx")))
        self.assertEqual(got[0]["feat"], [32, 64])
        self.assertEqual((got[1]["spec"], got[1]["read"]), ("uniform:n=1000,deg=4,seed=2",) * 2)
        self.assertEqual((got[1]["feat"], got[1]["heads"]), ([32, 64], [2]))

    def test_a_bad_config_is_the_tuners_error_with_its_line(self):
        bad = self.write("bad.yaml", "name: x\narch: sm_90\ngraphs:\n  - {name: g, spec: \"seed:n=8,deg=2\", feat: [0]}\n"
                                     "space: {}\n")
        done = peers("--config", bad, "--list")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn(bad, done.stderr)
        self.assertIn("line 4", done.stderr)
        self.assertEqual(done.stdout, "")

    def test_without_a_tuner_it_says_how_to_give_one(self):
        done = peers("--config", os.path.join(ROOT, "configs", "h200.yaml"), "--list",
                     tuner=os.path.join(self.dir, "no-tuner"))
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("no-tuner", done.stderr)
        self.assertIn("cannot run it", done.stderr)


if __name__ == "__main__":
    unittest.main()
