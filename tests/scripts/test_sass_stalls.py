#!/usr/bin/env python3
"""scripts/sass_stalls.py on a small per-instruction table of Nsight Compute's shape (a step's
own lines before and after it, as ncu_probe_source leaves them): the stall reasons' shares, the
regions, the top instructions, the code grouped by execution count, a listing by offset and
register, gzip input, and clear errors for a file with no table and a bad --list."""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "sass_stalls.py")
HEAD = ('"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed",'
        '"stall_long_sb","stall_wait","stall_long_sb (Not Issued)"')
# (offset, text, samples, executed, long_sb, wait): a loop of 3 run 100 times, a chunk's 2 run 10.
ROWS = [(0x00, "LDG.E.64 R74, desc[UR14][R8.64]", 5, 10, 5, 0),
        (0x10, "IMAD.MOV.U32 R81, RZ, RZ, R74", 60, 10, 60, 0),
        (0x20, "LDS R58, [R9]", 10, 100, 0, 10),
        (0x30, "FFMA R33, R69, R77, R33", 5, 100, 0, 5),
        (0x40, "@P0 BRA 0x20", 20, 100, 15, 5),
        (0x450, "EXIT", 0, 0, 0, 0)]


def table():
    lines = ["=== ncu source (at 3 s)", "==PROF== Connected", HEAD]
    base = 0x7f0000001000
    for off, text, smp, ex, lsb, wt in ROWS:
        lines.append(f'"{base + off:#x}","  {text}","{smp}","{ex}","{lsb}","{wt}","{lsb}"')
    lines.append("--- exit 0 (8 s)")
    return "\n".join(lines) + "\n"


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class SassStalls(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.csv = os.path.join(self.dir.name, "src.csv")
        with open(self.csv, "w") as f:
            f.write(table())

    def tearDown(self):
        self.dir.cleanup()

    def test_summary(self):
        r = run(self.csv, "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("100 samples, 320 warp instructions", r.stdout)
        self.assertRegex(r.stdout, r"long_sb\s+80\.0%")
        self.assertRegex(r.stdout, r"wait\s+20\.0%")
        self.assertNotIn("Not Issued", r.stdout)
        # Regions of 0x400 bytes: the first holds every sample; EXIT's region has neither share.
        self.assertRegex(r.stdout, r"\+0x00000 100\.0% of samples 100\.0% of instructions")
        self.assertNotIn("+0x00400", r.stdout)
        top = r.stdout.split("top 2 instructions:\n")[1].splitlines()
        self.assertEqual(len(top), 2)
        self.assertIn("IMAD.MOV.U32 R81", top[0])
        self.assertIn("long_sb 60", top[0])
        self.assertIn("@P0 BRA", top[1])

    def test_by_count_and_listing(self):
        r = run(self.csv, "1", "--by-count", "--list", "10:20:R74")
        self.assertEqual(r.returncode, 0, r.stderr)
        groups = r.stdout.split("by execution count (8 largest by instructions executed):\n")[1]
        self.assertRegex(groups, r"x\s+100:\s+93\.8% of instructions,\s+35\.0% of samples, 3 static")
        self.assertRegex(groups, r"x\s+10:\s+6\.2% of instructions,\s+65\.0% of samples, 2 static")
        self.assertNotIn("x          0", groups)  # EXIT never ran
        listed = r.stdout.split("and those naming R74:\n")[1].splitlines()
        self.assertEqual([l.split()[0] for l in listed], ["+0x00000", "+0x00010", "+0x00020"])

    def test_gzip_and_errors(self):
        gz = self.csv + ".gz"
        with gzip.open(gz, "wt") as f:
            f.write(table())
        self.assertEqual(run(gz).stdout.splitlines()[1:], run(self.csv).stdout.splitlines()[1:])
        bad = os.path.join(self.dir.name, "none.csv")
        with open(bad, "w") as f:
            f.write("==PROF== no table\n")
        r = run(bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no per-instruction table", r.stderr)
        r = run(self.csv, "--list", "zz:10")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--list wants hexadecimal offsets", r.stderr)


if __name__ == "__main__":
    unittest.main()
