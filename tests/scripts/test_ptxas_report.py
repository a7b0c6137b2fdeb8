#!/usr/bin/env python3
"""scripts/ptxas_report.py on saved `-Xptxas -v` reports of ptxas's shape (a cub kernel, a device
function's properties between two kernels, the colblock kernels with and without spills): the
figures it reads, --no-spill holding, failing on a spill and on a pattern that names no kernel,
and clear errors (exit 2) for an empty report, a bad pattern, an unreadable report and a failed
compile (a stand-in nvcc). Compiling with the real nvcc is tests/CMakeLists.txt's colblock_spills."""
import os
import subprocess
import sys
import tempfile
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


if __name__ == "__main__":
    unittest.main()
