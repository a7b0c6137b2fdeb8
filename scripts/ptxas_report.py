#!/usr/bin/env python3
"""Each kernel's registers, stack frame and spills as ptxas reports them (`-Xptxas -v`), from a
CUDA source compiled here for one architecture (no GPU needed) or from a saved report; and a check
that the kernels named by --no-spill spill nothing.

    scripts/ptxas_report.py --compile-commands FILE [--arch sm_90] [--no-spill REGEX]...
                            SOURCE.cu
    scripts/ptxas_report.py [--nvcc NVCC] [--arch sm_90] [--no-spill REGEX]... SOURCE.cu [NVCC_ARG...]
    scripts/ptxas_report.py --log FILE [--arch sm_90] [--no-spill REGEX]...

--compile-commands: SOURCE.cu is compiled by the command a build compiles it with, read from that
build's compile_commands.json (CMake's CMAKE_EXPORT_COMPILE_COMMANDS: the build's nvcc, flags,
defines, include paths and architectures), with `-Xptxas -v` added and its object and dependency
files sent to a temporary folder: the report is of the code the build ships. Without it, SOURCE.cu
is compiled with `nvcc -O3 -DNDEBUG -std=c++17 -cubin -arch ARCH -Xptxas -v`, the repository
root and include/ on the include path, then any NVCC_ARGs (a quick look, not the build's flags).
Only ARCH's entry functions are read (a build for several architectures reports each kernel once
an architecture; a report that names no architecture is read whole). Kernels are named demangled (c++filt) where it is on PATH.
--no-spill REGEX (searched in the demangled name): every kernel it matches must have a 0-byte
stack frame and no spill stores or loads, and it must match at least one kernel (a pattern that
names nothing fails rather than passing unchecked). Exit status: 0 held, 1 a kernel spills or a
pattern matched none, 2 the compile or the report failed.

Why: the sixty-third session found the library's float32 sweep refilling a 4-byte spill at every
warp batch's start (0.4% of its time on an H100); nothing here had noticed that a change made
ptxas spill. tests/CMakeLists.txt's colblock_spills runs this on csrgat/colblock.cu with the
build's compile command (the sixty-fourth session; before, with this script's own flags, which a
change of the library's CUDA flags would not have followed).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(text, arch=None):
    """The report's entry functions for `arch` (every architecture's if None), in order: dicts of
    name (mangled), registers, stack, spill_stores, spill_loads."""
    kernels, by_name, current = [], {}, None
    props_for = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'(?: for '([^']+)')?", line)
        if m:
            if arch is not None and m.group(2) is not None and m.group(2) != arch:
                current = props_for = None  # another architecture's kernel: its lines skipped
                continue
            current = {"name": m.group(1), "registers": None, "stack": None,
                       "spill_stores": None, "spill_loads": None}
            kernels.append(current)
            by_name[current["name"]] = current
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            # None: a device function's, not a kernel's, or another architecture's kernel
            props_for = by_name.get(m.group(1)) if current is not None else None
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
        return run_compile([nvcc, "-O3", "-DNDEBUG", "-std=c++17", "-cubin", f"-arch={arch}",
                            "-Xptxas", "-v", f"-I{ROOT}", f"-I{os.path.join(ROOT, 'include')}",
                            *extra, source, "-o", os.path.join(tmp, "out.cubin")])


def build_report(compile_commands, source):
    cmd, folder = build_command(compile_commands, source)
    with tempfile.TemporaryDirectory(prefix="ptxas_report.") as tmp:
        return run_compile(cmd + ["-o", os.path.join(tmp, "out.o")], cwd=folder)


def fail(message):
    print(f"ptxas_report: {message}", file=sys.stderr)
    sys.exit(2)


def build_command(compile_commands, source):
    """The command and folder compile_commands.json gives for `source`, with ptxas's report and
    without its output and dependency files (the caller names an output): (argv, directory)."""
    try:
        with open(compile_commands) as f:
            entries = json.load(f)
    except OSError as e:
        fail(f"{compile_commands}: {e.strerror} (configure the build with "
             "CMAKE_EXPORT_COMPILE_COMMANDS on, as CMakeLists.txt does)")
    except ValueError as e:
        fail(f"{compile_commands}: not JSON ({e})")
    want = os.path.realpath(source)
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict) or "file" not in e:
            continue
        folder = e.get("directory", ".")
        if os.path.realpath(os.path.join(folder, e["file"])) != want:
            continue
        argv = e["arguments"] if "arguments" in e else shlex.split(e.get("command", ""))
        break
    else:
        fail(f"{compile_commands} has no command for {source}")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        fail(f"{compile_commands}: the entry for {source} has arguments that are not a list of strings")
    out, skip = [], 0
    for arg in argv:
        if skip:
            skip -= 1
            continue
        if arg in ("-o", "-MF", "-MT", "-MQ"):
            skip = 1  # the build's object and dependency files: not this report's to write
            continue
        if arg in ("-MD", "-MMD"):
            continue
        out.append(arg)
    if not out:
        fail(f"{compile_commands}: an empty command for {source}")
    return out + ["-Xptxas", "-v"], folder


def run_compile(cmd, cwd=None):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    except OSError as e:  # no such compiler, or no such folder to run it in
        fail(f"{' '.join(cmd)} could not start{f' in {cwd}' if cwd else ''}: {e.strerror}")
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        fail(f"{' '.join(cmd)} failed (exit {r.returncode})")
    return r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", default=os.environ.get("NVCC") or shutil.which("nvcc")
                    or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--log", help="a saved ptxas -v report instead of compiling")
    ap.add_argument("--compile-commands", metavar="FILE",
                    help="a build's compile_commands.json: compile SOURCE as that build does")
    ap.add_argument("--no-spill", action="append", default=[], metavar="REGEX")
    ap.add_argument("source", nargs="?")
    ap.add_argument("nvcc_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.log:
        try:
            with open(a.log) as f:
                text = f.read()
        except OSError as e:
            fail(f"{a.log}: {e.strerror}")
    elif a.source and a.compile_commands:
        if a.nvcc_args:
            ap.error("--compile-commands takes the build's flags: no NVCC_ARGs")
        text = build_report(a.compile_commands, a.source)
    elif a.source:
        text = compile_report(a.nvcc, a.arch, a.source, a.nvcc_args)
    else:
        ap.error("a SOURCE.cu or --log FILE")
    kernels = parse(text, a.arch)
    if not kernels:
        fail(f"no entry functions for {a.arch} in the report")
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
