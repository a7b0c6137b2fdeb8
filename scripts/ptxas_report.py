#!/usr/bin/env python3
"""Each kernel's registers, stack frame and spills as ptxas reports them (`-Xptxas -v`), from a
CUDA source compiled here for one architecture (no GPU needed) or from a saved report; and a check
that the kernels named by --no-spill spill nothing.

    scripts/ptxas_report.py [--nvcc NVCC] [--arch sm_90] [--no-spill REGEX]... SOURCE.cu [NVCC_ARG...]
    scripts/ptxas_report.py --log FILE [--no-spill REGEX]...

SOURCE.cu is compiled with `nvcc -O3 -DNDEBUG -std=c++17 -cubin -arch ARCH -Xptxas -v`, the
repository root and include/ on the include path, then any NVCC_ARGs (the library's own flags
for its CUDA sources, CMakeLists.txt). Kernels are named demangled (c++filt) where it is on PATH.
--no-spill REGEX (searched in the demangled name): every kernel it matches must have a 0-byte
stack frame and no spill stores or loads, and it must match at least one kernel (a pattern that
names nothing fails rather than passing unchecked). Exit status: 0 held, 1 a kernel spills or a
pattern matched none, 2 the compile or the report failed.

Why: the sixty-third session found the library's float32 sweep refilling a 4-byte spill at every
warp batch's start (0.4% of its time on an H100); nothing here had noticed that a change made
ptxas spill. tests/CMakeLists.txt's colblock_spills runs this on csrgat/colblock.cu.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(text):
    """The report's entry functions, in order: dicts of name (mangled), registers, stack,
    spill_stores, spill_loads."""
    kernels, by_name, current = [], {}, None
    props_for = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = {"name": m.group(1), "registers": None, "stack": None,
                       "spill_stores": None, "spill_loads": None}
            kernels.append(current)
            by_name[current["name"]] = current
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            props_for = by_name.get(m.group(1))  # None: a device function's, not a kernel's
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and props_for is not None:
            props_for["stack"], props_for["spill_stores"], props_for["spill_loads"] = map(int, m.groups())
            props_for = None
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current is not None:
            current["registers"] = int(m.group(1))
    return kernels


def demangle(names):
    filt = shutil.which("c++filt")
    if not filt or not names:
        return list(names)
    out = subprocess.run([filt], input="\n".join(names), capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines if out.returncode == 0 and len(lines) == len(names) else list(names)


def compile_report(nvcc, arch, source, extra):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nvcc, "-O3", "-DNDEBUG", "-std=c++17", "-cubin", f"-arch={arch}", "-Xptxas", "-v",
               f"-I{ROOT}", f"-I{os.path.join(ROOT, 'include')}", *extra, source,
               "-o", os.path.join(tmp, "out.cubin")]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout + r.stderr)
            print(f"ptxas_report: {' '.join(cmd)} failed (exit {r.returncode})", file=sys.stderr)
            sys.exit(2)
        return r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", default=os.environ.get("NVCC") or shutil.which("nvcc")
                    or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--log", help="a saved ptxas -v report instead of compiling")
    ap.add_argument("--no-spill", action="append", default=[], metavar="REGEX")
    ap.add_argument("source", nargs="?")
    ap.add_argument("nvcc_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.log:
        try:
            with open(a.log) as f:
                text = f.read()
        except OSError as e:
            print(f"ptxas_report: {a.log}: {e.strerror}", file=sys.stderr)
            return 2
    elif a.source:
        text = compile_report(a.nvcc, a.arch, a.source, a.nvcc_args)
    else:
        ap.error("a SOURCE.cu or --log FILE")
    kernels = parse(text)
    if not kernels:
        print("ptxas_report: no entry functions in the report", file=sys.stderr)
        return 2
    names = demangle([k["name"] for k in kernels])
    failed = False
    print(f"{'regs':>4} {'stack':>5} {'st':>4} {'ld':>4}  kernel")
    for k, name in zip(kernels, names):
        k["demangled"] = name
        fig = [k["registers"], k["stack"], k["spill_stores"], k["spill_loads"]]
        print(" ".join(f"{'?' if v is None else v:>{w}}" for v, w in zip(fig, (4, 5, 4, 4))),
              "", name[:160])
    for pattern in a.no_spill:
        try:
            rx = re.compile(pattern)
        except re.error as e:
            print(f"--no-spill {pattern!r}: not a regular expression ({e})", file=sys.stderr)
            return 2
        hits = [k for k in kernels if rx.search(k["demangled"])]
        if not hits:
            print(f"--no-spill {pattern!r}: matches no kernel", file=sys.stderr)
            failed = True
        spilling = [k for k in hits
                    if k["stack"] is None or k["stack"] or k["spill_stores"] or k["spill_loads"]]
        for k in spilling:
            print(f"--no-spill {pattern!r}: {k['demangled']} has a {k['stack']}-byte stack "
                  f"frame, {k['spill_stores']} bytes of spill stores and {k['spill_loads']} of "
                  "spill loads", file=sys.stderr)
        failed = failed or bool(spilling)
        if hits and not spilling:
            print(f"--no-spill {pattern!r}: {len(hits)} kernels, none spills")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
