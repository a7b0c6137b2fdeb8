#!/usr/bin/env python3
"""scripts/ptxas_report.py on saved `-Xptxas -v` reports of ptxas's shape (a cub kernel, a device
function's properties between two kernels, the colblock kernels with and without spills): the
figures it reads, --no-spill holding, failing on a spill and on a pattern that names no kernel,
and clear errors (exit 2) for an empty report, a bad pattern, an unreadable report and a failed
compile (a stand-in nvcc); a build's compile command taken from its compile_commands.json (its
output and dependency files replaced, run in its folder) and only one architecture's kernels
read. Compiling with the real nvcc is tests/CMakeLists.txt's colblock_spills."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "ptxas_report.py")
F32 = "_ZN6csrgat8colblock10tma_gatherILi8ELi4ELi10ELi5ELb0ELi0ELb0EfLi0ELi15EEEvNS0_10StreamArgsE"
BF16 = "_ZN6csrgat8colblock10tma_gatherILi16ELi8ELi10ELi5ELb0ELi0ELb0EtLi0ELi127EEEvNS0_10StreamArgsE"
HELPER = "_ZN6csrgat8colblock6helperEv"


def report(f32_spill):
    stack, st, ld = (8, 4, 4) if f32_spill else (0, 0, 0)
    return f"""ptxas info    : 39 bytes gmem
ptxas info    : Compiling entry function '_ZN3cub11EmptyKernelIvEEvv' for 'sm_90'
ptxas info    : Function properties for _ZN3cub11EmptyKernelIvEEvv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 4 registers, used 0 barriers
ptxas info    : Compiling entry function '{F32}' for 'sm_90'
ptxas info    : Function properties for {HELPER}
    32 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Function properties for {F32}
    {stack} bytes stack frame, {st} bytes spill stores, {ld} bytes spill loads
ptxas info    : Used 95 registers, used 0 barriers
ptxas info    : Compiling entry function '{BF16}' for 'sm_90'
ptxas info    : Function properties for {BF16}
    16 bytes stack frame, 16 bytes spill stores, 40 bytes spill loads
ptxas info    : Used 96 registers, used 0 barriers, 16 bytes cumulative stack size
"""


def run(text, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, SCRIPT, "--log", f.name, *args],
                              capture_output=True, text=True)
    finally:
        os.unlink(f.name)


class PtxasReport(unittest.TestCase):
    def test_a_failed_compile_exits_2_and_says_so(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
            f.write("this is not CUDA\n")
        fake_nvcc = f.name + ".nvcc"
        with open(fake_nvcc, "w") as g:  # stands in for nvcc: no toolkit needed
            g.write("#!/bin/sh\necho 'error: expected a declaration' >&2\nexit 1\n")
        os.chmod(fake_nvcc, 0o755)
        try:
            r = subprocess.run([sys.executable, SCRIPT, "--nvcc", fake_nvcc, f.name],
                               capture_output=True, text=True)
        finally:
            os.unlink(f.name)
            os.unlink(fake_nvcc)
        self.assertEqual(r.returncode, 2)
        self.assertIn("expected a declaration", r.stderr)
        self.assertIn("failed (exit 1)", r.stderr)

    def test_figures_of_each_kernel_not_of_a_device_function(self):
        r = run(report(False))
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [l.split() for l in r.stdout.splitlines()[1:]]
        self.assertEqual(len(rows), 3, r.stdout)
        self.assertEqual(rows[1][:4], ["95", "0", "0", "0"])  # not the helper's 32-byte frame
        self.assertEqual(rows[2][:4], ["96", "16", "16", "40"])

    def test_no_spill_holds(self):
        r = run(report(False), "--no-spill", r"tma_gather<.*, float, ")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 kernels, none spills", r.stdout)

    def test_a_spill_fails_and_is_named(self):
        r = run(report(True), "--no-spill", r"tma_gather<.*, float, ", "--no-spill", "EmptyKernel")
        self.assertEqual(r.returncode, 1)
        self.assertIn("8-byte stack frame, 4 bytes of spill stores and 4 of spill loads", r.stderr)
        self.assertIn("'EmptyKernel': 1 kernels, none spills", r.stdout)

    def test_a_pattern_naming_no_kernel_fails(self):
        r = run(report(False), "--no-spill", "mma_gather<")
        self.assertEqual(r.returncode, 1)
        self.assertIn("matches no kernel", r.stderr)

    def test_bad_input_is_named(self):
        self.assertEqual(run("ptxas info    : 0 bytes gmem\n").returncode, 2)
        r = run(report(False), "--no-spill", "tma_gather<(")
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a regular expression", r.stderr)
        r = subprocess.run([sys.executable, SCRIPT, "--log", "/nonexistent/ptxas.log"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("/nonexistent/ptxas.log", r.stderr)


# A stand-in nvcc for a build's command: it records its arguments and folder, refuses to write the
# build's own object or dependency files, and prints a report for two architectures in which the
# float32 kernel spills in sm_80's and not in sm_90's (the bf16 kernel spills in both).
FAKE_BUILD_NVCC = textwrap.dedent("""\
    #!/bin/sh
    printf '%s\\n' "$PWD" "$@" > "$ARGS_OUT"
    for a in "$@"; do case "$a" in *build.o|*build.o.d) echo "wrote the build's $a" >&2; exit 3;; esac; done
    cat "$REPORT"
    """)


class FromCompileCommands(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.build = os.path.join(d, "build")
        os.mkdir(self.build)
        self.source = os.path.join(d, "k.cu")
        open(self.source, "w").write("// a kernel\n")
        self.nvcc = os.path.join(d, "nvcc")
        open(self.nvcc, "w").write(FAKE_BUILD_NVCC)
        os.chmod(self.nvcc, 0o755)
        self.args_out = os.path.join(d, "args.txt")
        self.report = os.path.join(d, "report.txt")
        sm80 = report(True).replace("'sm_90'", "'sm_80'")
        open(self.report, "w").write(sm80 + report(False))
        self.db = os.path.join(self.build, "compile_commands.json")
        # CMake's quoting of a define with a space and of a path in quotes
        command = (f'{self.nvcc} "-DX=\\"a b\\"" -DH=\\"/p/h.h\\" -O3 '
                   "--generate-code=arch=compute_90,code=[sm_90] "
                   "-MD -MT k.o -MF build.o.d -x cu -c ../k.cu -o build.o")
        self.entries = [{"directory": self.build, "file": "/elsewhere/k.cu", "command": "true"},
                        {"directory": self.build, "file": "../k.cu", "command": command}]
        self.write_db()

    def tearDown(self):
        self.tmp.cleanup()

    def write_db(self):
        """self.entries, as the build's compile_commands.json (after a test edits them)."""
        with open(self.db, "w") as f:
            json.dump(self.entries, f)

    def run_script(self, *args, db=None):
        env = dict(os.environ, ARGS_OUT=self.args_out, REPORT=self.report)
        return subprocess.run([sys.executable, SCRIPT, "--compile-commands", db or self.db, *args],
                              capture_output=True, text=True, env=env)

    def test_the_builds_command_with_the_report_and_a_private_output(self):
        r = self.run_script("--no-spill", r"tma_gather<.*, float, ", self.source)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 kernels, none spills", r.stdout)  # sm_90's; sm_80's spill not read
        self.assertEqual(len(r.stdout.splitlines()), 5, r.stdout)  # header, sm_90's 3, the verdict
        lines = open(self.args_out).read().splitlines()
        self.assertEqual(os.path.realpath(lines[0]), os.path.realpath(self.build))
        argv = lines[1:]
        self.assertIn('-DX="a b"', argv)
        self.assertIn('-DH="/p/h.h"', argv)
        self.assertIn("--generate-code=arch=compute_90,code=[sm_90]", argv)
        self.assertEqual(argv[argv.index("-Xptxas") + 1], "-v")
        for gone in ("-MD", "-MT", "-MF", "build.o", "build.o.d", "k.o"):
            self.assertNotIn(gone, argv)
        self.assertEqual(argv.count("-o"), 1)

    def test_another_architecture_is_read_when_asked(self):
        r = self.run_script("--arch", "sm_80", "--no-spill", r"tma_gather<.*, float, ",
                            self.source)
        self.assertEqual(r.returncode, 1)
        self.assertIn("8-byte stack frame", r.stderr)
        r = self.run_script("--arch", "sm_100", self.source)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no entry functions for sm_100", r.stderr)

    def test_no_temporary_folder_is_left(self):
        before = set(glob.glob(os.path.join(tempfile.gettempdir(), "ptxas_report.*")))
        self.assertEqual(self.run_script(self.source).returncode, 0)
        self.entries[1]["command"] = ""  # an empty command: refused before any folder is made
        self.write_db()
        self.assertEqual(self.run_script(self.source).returncode, 2)
        after = set(glob.glob(os.path.join(tempfile.gettempdir(), "ptxas_report.*")))
        self.assertEqual(after - before, set())

    def test_a_compiler_or_folder_that_is_gone_exits_2(self):
        self.entries[1]["command"] = self.entries[1]["command"].replace(self.nvcc,
                                                                        self.nvcc + ".gone")
        self.write_db()
        r = self.run_script(self.source)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("could not start", r.stderr)
        self.entries[1]["arguments"] = "nvcc -c ../k.cu"  # a string, not a list
        self.write_db()
        r = self.run_script(self.source)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("not a list of strings", r.stderr)

    def test_a_source_or_a_database_missing_is_named(self):
        other = os.path.join(self.tmp.name, "other.cu")
        open(other, "w").write("")
        r = self.run_script(other)
        self.assertEqual(r.returncode, 2)
        self.assertIn("has no command for", r.stderr)
        r = self.run_script(self.source, db=os.path.join(self.tmp.name, "none.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("CMAKE_EXPORT_COMPILE_COMMANDS", r.stderr)
        open(self.db, "w").write("{not json")
        r = self.run_script(self.source)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not JSON", r.stderr)


if __name__ == "__main__":
    unittest.main()
