#!/usr/bin/env python3
"""scripts/peers_pyg.py's problems (--list: no GPU, PyTorch or numpy needed): a config's graphs
come from the tuner's own reading of it (`tuner list --graphs`), so a `base:` config, YAML
anchors and paths relative to the config's folder mean what they mean to `tuner run` (the script
used to parse the YAML itself and follow `base:` one level by a regular expression). The tuner is
$CSRGAT_TUNER, which ctest sets, else the one peers_pyg.py's own search finds (a staged or built
tuner of this checkout); with neither, the tests that need a real tuner are skipped, saying so."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PEERS = os.path.join(ROOT, "scripts", "peers_pyg.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import peers_pyg  # noqa: E402  (numpy is not needed to import it)

TUNER = peers_pyg.find_tuner()


def peers(*args, tuner=TUNER, script=PEERS, env_tuner=None, path=None):
    env = {k: v for k, v in os.environ.items() if k != "CSRGAT_TUNER"}
    if env_tuner:
        env["CSRGAT_TUNER"] = env_tuner
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, script, *args] + (["--tuner", tuner] if tuner else []),
                          capture_output=True, text=True, env=env, timeout=120)


def listed(*args):
    done = peers(*args, "--list")
    if done.returncode != 0:
        raise AssertionError(f"peers_pyg.py {' '.join(args)} --list: exit {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


@unittest.skipUnless(TUNER, "no tuner: CSRGAT_TUNER is not set (ctest sets it) and none is built or staged")
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


class TunerSearch(unittest.TestCase):
    """Which tuner reads --config: --tuner, else $CSRGAT_TUNER, else the checkout's staged one
    (.gpu/bin/tuner), a build's, else `tuner` on PATH; none at all is an error that says how to
    give one. The script runs from a copy in a folder of its own, with fake tuners that name
    themselves in the graph they list."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        os.makedirs(os.path.join(self.root, "scripts"))
        self.script = os.path.join(self.root, "scripts", "peers_pyg.py")
        shutil.copy(PEERS, self.script)
        self.config = os.path.join(self.root, "c.yaml")
        with open(self.config, "w") as f:
            f.write("name: c\n")
        self.empty_path = os.path.join(self.root, "empty-bin")
        os.makedirs(self.empty_path)

    def tearDown(self):
        self.tmp.cleanup()

    def fake(self, rel, who):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        graph = {"name": who, "spec": "seed:n=8,deg=2", "spec_text": "seed:n=8,deg=2", "feat": [64],
                 "heads": [1], "value": ["f32"]}
        with open(path, "w") as f:
            # Shell built-ins only: PATH is an empty folder here.
            f.write("#!/bin/sh\necho 'a warning from %s' >&2\necho '%s'\n"
                    % (who, json.dumps({"config": "c", "graphs": [graph]})))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def who(self, **kw):
        done = peers("--config", self.config, "--list", script=self.script, path=self.empty_path, **kw)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)[0]["name"], done.stderr

    def test_the_order(self):
        given = self.fake("given/tuner", "given")
        env = self.fake("env/tuner", "env")
        self.fake(".gpu/bin/tuner", "staged")
        self.fake("build-b/tuner/tuner", "build-b")
        self.assertEqual(self.who(tuner=given, env_tuner=env)[0], "given")
        name, err = self.who(tuner=None, env_tuner=env)
        self.assertEqual(name, "env")
        self.assertIn("read by " + env, err)  # a tuner it found is named
        self.assertIn("a warning from env", err)  # and its warnings are passed on
        self.assertEqual(self.who(tuner=None)[0], "staged")
        os.remove(os.path.join(self.root, ".gpu", "bin", "tuner"))
        self.assertEqual(self.who(tuner=None)[0], "build-b")
        self.fake("build/tuner/tuner", "build")
        self.assertEqual(self.who(tuner=None)[0], "build")

    def test_none_found_says_how_to_give_one(self):
        done = peers("--config", self.config, "--list", tuner=None, script=self.script, path=self.empty_path)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("pass --tuner PATH or set CSRGAT_TUNER", done.stderr)
        self.assertEqual(done.stdout, "")

    def test_stray_output_before_the_json_is_named(self):
        bad = os.path.join(self.root, "bad-tuner")
        with open(bad, "w") as f:
            f.write("#!/bin/sh\necho 'NVML: something'\necho '{}'\n")
        os.chmod(bad, os.stat(bad).st_mode | stat.S_IXUSR)
        done = peers("--config", self.config, "--list", tuner=bad, script=self.script)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("wrote what is not its graph list", done.stderr)
        self.assertIn("NVML: something", done.stderr)


if __name__ == "__main__":
    unittest.main()
