#!/usr/bin/env python3
"""Peer timings for the csrgat report: the same aggregation in PyTorch Geometric and in
torch.sparse (cuSPARSE), on the graphs of a tuner config, written as JSON that
`tuner report --peers peers.json` folds in (matched by graph name and F).

    python3 scripts/peers_pyg.py --config configs/h200.yaml --graphs-dir ../shared/graphs -o peers.json
    python3 scripts/peers_pyg.py --graph cora=../shared/graphs/cora.mtx.gz --graph uniform:n=100000,deg=16 \\
        --feat 64 -o peers.json

The operation: out[d, h, :] = sum over edges e of row d of softmax(scores[row d, h])_e * values[col[e], h, :]
with row = destination and col = source (as in the lab). Implementations, each timed as one
call with its launches included:
  pyg               torch_geometric.utils.softmax(scores, index=dst, num_nodes=N), then a
                    scatter-add of weights * values[src] (torch_geometric.utils.scatter)
  torch_scatter     the same in plain torch (scatter_reduce amax, exp, index_add_), used in place
                    of "pyg" when torch_geometric is not importable
  torch_sparse_csr  the same softmax, then torch.sparse_csr_tensor(weights) @ values per head
                    (cuSPARSE SpMM)
  csrgat            with --csrgat-lib: this lab's production library, through its C interface
                    (libcsrgat_c.so, include/csrgat/c_api.h) by ctypes on PyTorch's current
                    stream, timed in the same process, rounds and harness as the others (its
                    int32 CSR, its Shape and its output tensor are made once, outside the timed
                    call, as a layer that owns its output would; the ctypes call is inside it)
  csrgat_call       with --csrgat-lib: the same through a prepared call (csrgat_call_create once,
                    then csrgat_call_launch(call, stream) per call: two ctypes arguments instead
                    of csrgat_aggregate's fourteen), the way a Python layer should call it
Timing: cold L2 (a buffer of twice the L2 size is read before every sample), CUDA events
around the call, median and quartiles of --samples samples after --warmup calls; host_median_us
is the median host time of the call itself (time.perf_counter() around it, inside the events).
With --flush
sync (the default since the twenty-seventh session) the host waits for the flush before it
records the start event, so each sample holds the call's whole host time, launches included, as
`tuner bench` measures; with --flush overlap (what every run before measured) the host enqueues
the call while the flush still runs, which hides up to the flush's ~40 us of the call's host
time: all of a one-launch call's (csrgat's 6.8 us from Python against tuner bench's 10.1 us on
citeseer), a fraction of PyG's. With --flush-op read (the default since the twenty-eighth
session) the flush reads its buffer, as `tuner bench`'s does, and leaves L2 full of clean lines;
with --flush-op write (every run before) it wrote the buffer, and the timed call's first misses
then also wrote back the flush's dirty lines (csrgat's calls from Python 0.3-4 us slower than
`tuner bench`'s on the small graphs, twenty-eighth session, call 1). With
--rounds R, the problems whose inputs fit in L2 (their calls are host-side launches, which move
between two states ~2x apart from one round to the next on the H200 machine: twenty-sixth
session, call 3) are timed again in rounds 2..R over all of them, each round --samples samples;
a result's median_us is then over every round's samples, and round_medians_us lists each
round's median, so a report can give the spread with the median. Every output
is checked against a float64 reference computed in torch on the same inputs:
rel_error = ||out - ref||_2 / ||ref||_2, as the tuner's verifier defines it.

Not bit-identical to the tuner: the scores and values are N(0, 1) draws of torch's generator,
and the generator specs (seed:, uniform:, powerlaw:, rmat:) are re-implemented here with
numpy's generator, so a generated graph has the tuner's shape (sizes, degree law) but other
random sources. Matrix Market files (.mtx, .mtx.gz) are read exactly as the tuner reads them.
Values are float32 only (bf16 problems of a config are compared with the f32 peers).

Degrades gracefully: without torch_geometric it runs torch_scatter and torch_sparse_csr;
without a tuner to read --config pass --graph; a graph or implementation that fails (out of memory, say) is
recorded with its error and the rest still run. Needs PyTorch with a CUDA device.
"""
import argparse
import ctypes
import datetime
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

try:  # not needed to list a config's problems (--list)
    import numpy as np
except ImportError:
    np = None

# --------------------------------------------------------------------------------------------
# Graphs: (row_ptr, col) in CSR with row = destination, col = source, int64 numpy arrays.


def parse_spec(spec):
    """'uniform:n=1000,deg=16' -> ('uniform', {'n': '1000', 'deg': '16'}); paths -> ('file', {'path': p})."""
    if spec.startswith("file:"):
        return "file", {"path": spec[5:]}
    m = re.match(r"^(seed|uniform|powerlaw|rmat):(.*)$", spec)
    if not m:
        return "file", {"path": spec}
    keys = {}
    for part in filter(None, m.group(2).split(",")):
        if "=" not in part:
            raise ValueError(f"{spec}: '{part}' is not key=value")
        k, v = part.split("=", 1)
        keys[k.strip()] = v.strip()
    return m.group(1), keys


def csr_from_degrees(deg, rng, n):
    """Uniform sources in [0, n) per row, sorted within each row (as the tuner's generators)."""
    row_ptr = np.zeros(len(deg) + 1, dtype=np.int64)
    np.cumsum(deg, out=row_ptr[1:])
    e = int(row_ptr[-1])
    col = rng.integers(0, n, size=e, dtype=np.int64)
    rows = np.repeat(np.arange(len(deg), dtype=np.int64), deg)
    order = np.lexsort((col, rows))
    return row_ptr, col[order]


def gen_seed(n, deg, seed):
    i = np.arange(n, dtype=np.int64)
    d = np.maximum(1, deg + i % 7 - 3)
    return csr_from_degrees(d, np.random.default_rng(seed), n)


def gen_uniform(n, deg, seed):
    return csr_from_degrees(np.full(n, deg, dtype=np.int64), np.random.default_rng(seed), n)


def gen_powerlaw(n, avg, alpha, maxdeg, seed):
    """Chung-Lu expected degrees x_i = clamp(c (i+1)^(-1/(alpha-1)), 1, maxdeg) with the mean
    fixed by bisection on c, rounded at random, shuffled over the rows."""
    maxdeg = n - 1 if maxdeg <= 0 else maxdeg
    w = np.arange(1, n + 1, dtype=np.float64) ** (-1.0 / (alpha - 1.0))
    target = n * avg
    lo, hi = 0.0, float(maxdeg) / w[-1] + 1.0
    for _ in range(200):
        c = 0.5 * (lo + hi)
        if np.clip(c * w, 1, maxdeg).sum() < target:
            lo = c
        else:
            hi = c
    x = np.clip(0.5 * (lo + hi) * w, 1, maxdeg)
    rng = np.random.default_rng(seed)
    f = np.floor(x)
    deg = (f + (rng.random(n) < x - f)).astype(np.int64)
    deg = deg[rng.permutation(n)]
    return csr_from_degrees(deg, rng, n)


def gen_rmat(scale, ef, a, b, c, seed):
    """R-MAT: each edge descends `scale` levels; row bit = source, column bit = destination;
    labels scrambled by a permutation; stored as row = destination, col = source."""
    n = 1 << scale
    e = ef * n
    rng = np.random.default_rng(seed)
    src = np.zeros(e, dtype=np.int64)
    dst = np.zeros(e, dtype=np.int64)
    chunk = 1 << 22
    for lo in range(0, e, chunk):
        hi = min(e, lo + chunk)
        s = np.zeros(hi - lo, dtype=np.int64)
        d = np.zeros(hi - lo, dtype=np.int64)
        for _ in range(scale):
            u = rng.random(hi - lo)
            sbit = (u >= a + b).astype(np.int64)                      # quadrants c, d: lower half
            dbit = (((u >= a) & (u < a + b)) | (u >= a + b + c)).astype(np.int64)  # b, d: right half
            s = (s << 1) | sbit
            d = (d << 1) | dbit
        src[lo:hi], dst[lo:hi] = s, d
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    order = np.lexsort((src, dst))
    src, dst = src[order], dst[order]
    row_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=row_ptr[1:])
    return row_ptr, src


def read_mtx(path):
    """Matrix Market coordinate (pattern, integer or real; general or symmetric), 1-based,
    entry (row, col) = edge col -> row. Symmetric entries off the diagonal count both ways."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = f.readline().split()
        if len(header) < 5 or header[0] != "%%MatrixMarket" or header[2].lower() != "coordinate":
            raise ValueError(f"{path}: not a coordinate Matrix Market file")
        symmetric = header[4].lower() == "symmetric"
        line = f.readline()
        while line.startswith("%") or not line.strip():
            line = f.readline()
        n_rows, n_cols, nnz = (int(x) for x in line.split()[:3])
        if n_rows != n_cols:
            raise ValueError(f"{path}: {n_rows} x {n_cols} is not square")
        data = np.loadtxt(f, dtype=np.float64, ndmin=2, usecols=(0, 1)) if nnz else np.zeros((0, 2))
    if len(data) != nnz:
        raise ValueError(f"{path}: {len(data)} entries, {nnz} declared")
    dst = data[:, 0].astype(np.int64) - 1
    src = data[:, 1].astype(np.int64) - 1
    if symmetric:
        off = dst != src
        dst, src = np.concatenate([dst, src[off]]), np.concatenate([src, dst[off]])
    order = np.lexsort((src, dst))
    dst, src = dst[order], src[order]
    row_ptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n_rows), out=row_ptr[1:])
    return row_ptr, src


def make_graph(spec, base_dir=".", graphs_dir=None):
    """(row_ptr, col, note) of a spec; a file is looked up as given, relative to base_dir, then
    by its name in graphs_dir."""
    kind, k = parse_spec(spec)
    seed = int(k.get("seed", 1))
    if kind == "seed":
        return (*gen_seed(int(k["n"]), int(k["deg"]), seed), "generated here (not bit-identical to the tuner's)")
    if kind == "uniform":
        return (*gen_uniform(int(k["n"]), int(k["deg"]), seed), "generated here (not bit-identical to the tuner's)")
    if kind == "powerlaw":
        g = gen_powerlaw(int(k["n"]), float(k["deg"]), float(k.get("alpha", 2.1)), int(k.get("maxdeg", 0)), seed)
        return (*g, "generated here (not bit-identical to the tuner's)")
    if kind == "rmat":
        g = gen_rmat(int(k["scale"]), int(k.get("ef", 16)), float(k.get("a", 0.57)), float(k.get("b", 0.19)),
                     float(k.get("c", 0.19)), seed)
        return (*g, "generated here (not bit-identical to the tuner's)")
    path = k["path"]
    candidates = [path, os.path.join(base_dir, path)]
    if graphs_dir:
        candidates.append(os.path.join(graphs_dir, os.path.basename(path)))
    for p in candidates:
        if os.path.isfile(p):
            if not (p.endswith(".mtx") or p.endswith(".mtx.gz")):
                raise ValueError(f"{p}: only Matrix Market (.mtx, .mtx.gz) files are read here")
            return (*read_mtx(p), "read from " + p)
    raise FileNotFoundError(f"graph file '{path}' not found (looked at: {', '.join(candidates)}); pass --graphs-dir")


# --------------------------------------------------------------------------------------------
# Which problems: a config's graphs, read by the tuner itself (`tuner list --graphs`: its
# `base:`, anchors, paths and errors as a run reads them), or --graph arguments.


def find_tuner(given=None):
    """The tuner executable: --tuner, else $CSRGAT_TUNER, else the staged one (.gpu/bin/tuner, the
    GPU machine's), a build's (build/tuner/tuner, build-*/tuner/tuner), else `tuner` on PATH."""
    if given:
        return given
    if os.environ.get("CSRGAT_TUNER"):
        return os.environ["CSRGAT_TUNER"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in [os.path.join(root, ".gpu", "bin", "tuner"), os.path.join(root, "build", "tuner", "tuner")] + sorted(
            glob.glob(os.path.join(root, "build-*", "tuner", "tuner"))):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return shutil.which("tuner")


def load_config_graphs(path, tuner):
    """[{name, spec, read, feat, heads}] of a config's graphs, as `tuner list --graphs` gives them:
    spec as the config writes it (what peers.json records), read the same with a file's path made
    absolute against the config's folder (what is read)."""
    if not tuner:
        sys.exit(f"--config {path}: the config is read by the tuner (`tuner list --graphs`) and none "
                 "was found: pass --tuner PATH or set CSRGAT_TUNER (or pass --graph)")
    try:
        done = subprocess.run([tuner, "list", "--graphs", path], capture_output=True, text=True, timeout=60)
    except OSError as e:
        sys.exit(f"the tuner {tuner}: cannot run it: {e}")
    except subprocess.TimeoutExpired:
        sys.exit(f"the tuner {tuner}: `tuner list --graphs {path}` did not finish in 60 s")
    if done.returncode != 0:
        sys.exit(f"--config {path}: {tuner} list --graphs: exit {done.returncode}: "
                 + (done.stderr.strip() or done.stdout.strip()))
    if done.stderr.strip():  # the tuner's warnings, which a run would print too
        print(done.stderr.rstrip(), file=sys.stderr)
    try:
        graphs = json.loads(done.stdout)["graphs"]
        return [{"name": g["name"], "spec": g["spec_text"], "read": g["spec"], "feat": [int(f) for f in g["feat"]],
                 "heads": [int(h) for h in g["heads"]]} for g in graphs]
    except (ValueError, KeyError, TypeError) as e:
        sys.exit(f"--config {path}: {tuner} list --graphs wrote what is not its graph list "
                 f"({type(e).__name__}: {e}): {done.stdout[:200]!r}")


def graph_name_of(spec):
    kind, k = parse_spec(spec)
    if kind == "file":
        base = os.path.basename(k["path"])
        for ext in (".mtx.gz", ".mtx"):
            if base.endswith(ext):
                return base[: -len(ext)]
        return base
    return spec.replace(":", "_").replace(",", "_").replace("=", "")


# --------------------------------------------------------------------------------------------
# The implementations (torch is imported in main so that --help works without it).


def softmax_torch(torch, scores, dst, n):
    """Per-destination softmax over the edges of each row, (E, H)."""
    h = scores.shape[1]
    idx = dst.unsqueeze(1).expand(-1, h)
    m = torch.full((n, h), float("-inf"), device=scores.device, dtype=scores.dtype)
    m.scatter_reduce_(0, idx, scores, reduce="amax", include_self=True)
    ex = (scores - m[dst]).exp()
    s = torch.zeros((n, h), device=scores.device, dtype=scores.dtype).index_add_(0, dst, ex)
    return ex / s[dst]


class CsrgatLib:
    """libcsrgat_c.so through ctypes (include/csrgat/c_api.h); the shapes it made are freed by
    close(), after every timed call."""

    def __init__(self, path):
        from ctypes import POINTER, c_char_p, c_int, c_int64, c_void_p  # noqa: PLC0415

        self.lib = ctypes.CDLL(os.path.abspath(path))
        L = self.lib
        L.csrgat_shape_create.argtypes = [POINTER(c_int64), c_int64, c_int, c_int, c_int, c_int,
                                          POINTER(c_void_p)]
        L.csrgat_shape_create.restype = c_int
        L.csrgat_shape_create_from_graph.argtypes = [c_void_p, c_void_p, c_int64, c_int64, c_int,
                                                     POINTER(c_int64), c_int, c_int, c_int, POINTER(c_void_p)]
        L.csrgat_shape_create_from_graph.restype = c_int
        L.csrgat_shape_destroy.argtypes = [c_void_p]
        L.csrgat_shape_destroy.restype = None
        L.csrgat_shape_variant.argtypes = [c_void_p]
        L.csrgat_shape_variant.restype = c_char_p
        L.csrgat_aggregate.argtypes = [c_void_p, c_void_p, c_int64, c_int64, c_int, c_void_p, c_void_p,
                                       c_int, c_int, c_int, c_void_p, c_void_p, c_void_p, c_int]
        L.csrgat_aggregate.restype = c_int
        L.csrgat_call_create.argtypes = [c_void_p, c_void_p, c_int64, c_int64, c_int, c_void_p, c_void_p,
                                         c_int, c_int, c_int, c_void_p, c_void_p, c_int, POINTER(c_void_p)]
        L.csrgat_call_create.restype = c_int
        L.csrgat_call_launch.argtypes = [c_void_p, c_void_p]
        L.csrgat_call_launch.restype = c_int
        L.csrgat_call_destroy.argtypes = [c_void_p]
        L.csrgat_call_destroy.restype = None
        L.csrgat_status_string.argtypes = [c_int]
        L.csrgat_status_string.restype = c_char_p
        # What failed and where (a library before csrgat_last_error_message has the status alone).
        self.has_message = hasattr(L, "csrgat_last_error_message")
        if self.has_message:
            L.csrgat_last_error_message.restype = c_char_p
        L.csrgat_compiled_archs.restype = c_char_p
        self.archs = L.csrgat_compiled_archs().decode()
        self.shapes = []
        self.calls = []

    def status(self, code):
        text = self.lib.csrgat_status_string(code).decode()
        if self.has_message:
            text += ": " + self.lib.csrgat_last_error_message().decode(errors="replace")
        return text

    def impl(self, torch, g, row_ptr, prepared=False):
        """The timed call on g's inputs, and the variant its shape dispatches to: csrgat_aggregate
        with its fourteen arguments, or (prepared) a call made once and launched with two."""
        n, h, f = g["n"], g["values"].shape[1], g["values"].shape[2]
        crow = g["crow"].to(torch.int32)
        col = g["col"].to(torch.int32)
        scores, values = g["scores"].contiguous(), g["values"].contiguous()
        out = torch.empty((n, h, f), device=values.device, dtype=torch.float32)
        rp = np.ascontiguousarray(row_ptr, dtype=np.int64)
        # From the graph's device arrays too, as a caller who keeps the graph on the device would:
        # rules that plan from its columns (the column-blocked sweep) can then run.
        shape = ctypes.c_void_p()
        st = self.lib.csrgat_shape_create_from_graph(crow.data_ptr(), col.data_ptr(), n, col.numel(), 0,
                                                     rp.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)), h, f,
                                                     0, ctypes.byref(shape))
        if st != 0:
            raise RuntimeError(f"csrgat_shape_create_from_graph: {self.status(st)}")
        self.shapes.append(shape)
        variant = self.lib.csrgat_shape_variant(shape).decode()
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        args = (crow.data_ptr(), col.data_ptr(), n, col.numel(), 0, scores.data_ptr(), values.data_ptr(),
                0, h, f, out.data_ptr())
        if prepared:
            call = ctypes.c_void_p()
            st = self.lib.csrgat_call_create(*args, shape, 0, ctypes.byref(call))
            if st != 0:
                raise RuntimeError(f"csrgat_call_create: {self.status(st)}")
            self.calls.append(call)
            launch = self.lib.csrgat_call_launch

            def run_csrgat():
                code = launch(call, stream)
                if code != 0:
                    raise RuntimeError(f"csrgat_call_launch: {self.status(code)}")
                return out
        else:
            aggregate, args = self.lib.csrgat_aggregate, args + (stream, shape, 0)

            def run_csrgat():
                code = aggregate(*args)
                if code != 0:
                    raise RuntimeError(f"csrgat_aggregate: {self.status(code)}")
                return out

        run_csrgat.keep = (crow, col, scores, values, out)  # the buffers args points into
        return run_csrgat, variant

    def close(self):
        """Frees the calls and shapes made; no launch of theirs may still run."""
        for c in self.calls:
            self.lib.csrgat_call_destroy(c)
        for s in self.shapes:
            self.lib.csrgat_shape_destroy(s)
        self.calls, self.shapes = [], []


def make_impls(torch, pyg, g):
    n, src, dst, crow, col, scores, values = g["n"], g["src"], g["dst"], g["crow"], g["col"], g["scores"], g["values"]
    h, f = values.shape[1], values.shape[2]

    def softmax():
        if pyg is not None:
            return pyg.utils.softmax(scores, index=dst, num_nodes=n)
        return softmax_torch(torch, scores, dst, n)

    def run_pyg():
        w = pyg.utils.softmax(scores, index=dst, num_nodes=n)
        return pyg.utils.scatter(w.unsqueeze(-1) * values[src], dst, dim=0, dim_size=n, reduce="sum")

    def run_torch_scatter():
        w = softmax_torch(torch, scores, dst, n)
        out = torch.zeros((n, h, f), device=values.device, dtype=values.dtype)
        return out.index_add_(0, dst, w.unsqueeze(-1) * values[src])

    def run_csr():
        w = softmax()
        outs = []
        for k in range(h):
            a = torch.sparse_csr_tensor(crow, col, w[:, k].contiguous(), size=(n, n))
            outs.append(a @ values[:, k, :])
        return torch.stack(outs, dim=1)

    impls = {}
    if pyg is not None:
        impls["pyg"] = run_pyg
    else:
        impls["torch_scatter"] = run_torch_scatter
    impls["torch_sparse_csr"] = run_csr
    return impls


def reference(torch, g, chunk_bytes=1 << 30):
    """float64 reference on the same inputs, in edge chunks so that E*H*F stays bounded."""
    n, src, dst = g["n"], g["src"], g["dst"]
    s64 = g["scores"].double()
    v64 = g["values"].double()
    w = softmax_torch(torch, s64, dst, n)
    h, f = v64.shape[1], v64.shape[2]
    out = torch.zeros((n, h, f), device=v64.device, dtype=torch.float64)
    step = max(1, chunk_bytes // (h * f * 8))
    for lo in range(0, src.numel(), step):
        hi = min(src.numel(), lo + step)
        out.index_add_(0, dst[lo:hi], w[lo:hi].unsqueeze(-1) * v64[src[lo:hi]])
    return out


def fits_l2(g, l2_bytes):
    """Whether a problem's inputs (structure, scores, values) fit in L2: its calls are host-bound."""
    t = [g["crow"], g["col"], g["dst"], g["scores"], g["values"]]
    return sum(x.numel() * x.element_size() for x in t) <= l2_bytes


def rel_error(torch, out, ref):
    d = out.double() - ref
    den = torch.linalg.vector_norm(ref).item()
    num = torch.linalg.vector_norm(d).item()
    return num / den if den > 0 else num


class L2Flush:
    """Evicts the inputs and the previous output from L2 before a sample: reads (op "read": L2 is
    left full of clean lines, as tuner bench's flush leaves it) or writes (op "write": dirty
    lines, which the next kernel's misses write back) a buffer of twice the L2 size."""

    def __init__(self, torch, dev, l2_bytes, op="read"):
        if op not in ("read", "write"):
            raise ValueError(f"flush op {op!r}: read or write")
        self.op = op
        self.buf = torch.zeros(2 * l2_bytes // 4, dtype=torch.float32, device=dev)

    def __call__(self, i):
        if self.op == "read":
            self.buf.amax()  # a reduction over the whole buffer: every line loaded, none written
        else:
            self.buf.fill_(float(i))


def sample_cold(torch, fn, samples, warmup, flush, sync_flush=True, host=None, before=None):
    """--samples cold samples of one call, in us, after `warmup` untimed calls; flush(i), an
    L2Flush, runs before sample i, and with sync_flush it ends before the start event is
    recorded (see --flush). host, a list, gets each sample's host time of the call itself
    (perf_counter around fn, inside the events), in us; before(), when given, runs before each
    sample's flush (another implementation's call, to time fn in its company)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    # The stream looked up once: record() without one looks it up on every call, which put
    # 2.3-3.4 us of the timer's own host time inside a one-launch call's samples
    # (scripts/py_call_overhead.py, twenty-seventh session's call 5).
    stream = torch.cuda.current_stream()
    clock = time.perf_counter
    times = []
    for i in range(samples):
        if before is not None:
            before()
        flush(i)
        if sync_flush:
            torch.cuda.synchronize()
        start.record(stream)
        t0 = clock()
        fn()
        t1 = clock()
        end.record(stream)
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)  # ms -> us
        if host is not None:
            host.append((t1 - t0) * 1e6)
    return times


def summarize(rounds, host=None):
    """Statistics over every round's samples; round_medians_us when there was more than one;
    host_median_us over the host times of the call (sample_cold's host), when given."""
    t = np.array([x for r in rounds for x in r])
    out = {"median_us": float(np.median(t)), "q1_us": float(np.percentile(t, 25)),
           "q3_us": float(np.percentile(t, 75)), "min_us": float(t.min()), "samples": len(t)}
    if len(rounds) > 1:
        out["round_medians_us"] = [float(np.median(r)) for r in rounds]
    if host:
        out["host_median_us"] = float(np.median(host))
    return out


# --------------------------------------------------------------------------------------------


def main():
    head, _, rest = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=head, epilog=rest,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", help="tuner config YAML: its graphs, feat and heads (read by `tuner list --graphs`)")
    ap.add_argument("--tuner", help="the tuner executable that reads --config (default: $CSRGAT_TUNER, "
                                    ".gpu/bin/tuner, build/tuner/tuner, build-*/tuner/tuner, tuner on PATH)")
    ap.add_argument("--list", action="store_true",
                    help="print the problems (graph, spec as written, the spec read, feat, heads) as JSON and exit: "
                         "no GPU, PyTorch or numpy needed")
    ap.add_argument("--graphs-dir", help="folder to look up graph files in by name (e.g. ../shared/graphs)")
    ap.add_argument("--graph", action="append", default=[],
                    help="NAME=SPEC or SPEC (a .mtx/.mtx.gz path or seed:/uniform:/powerlaw:/rmat: spec); repeatable")
    ap.add_argument("--feat", type=int, action="append", help="feature widths for --graph (default 64); repeatable")
    ap.add_argument("--heads", type=int, action="append", help="head counts for --graph (default 1); repeatable")
    ap.add_argument("--only", action="append", default=[], help="run only the graphs of this name; repeatable")
    ap.add_argument("--samples", type=int, default=50, help="timed samples per implementation (default 50)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="time the problems whose inputs fit in L2 in this many rounds over all of them "
                         "(default 1); results then carry round_medians_us")
    ap.add_argument("--flush", choices=("sync", "overlap"), default="sync",
                    help="sync: the host waits for each sample's L2 flush before it starts the call "
                         "(default); overlap: it does not, and the flush hides part of the call's host time")
    ap.add_argument("--flush-op", choices=("read", "write"), default="read",
                    help="read: the flush reads its buffer and leaves clean lines in L2, as tuner bench's "
                         "(default); write: it writes it (every run before the twenty-eighth session)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the scores and values (default 1)")
    ap.add_argument("--device", type=int, default=0, help="CUDA device index (default 0)")
    ap.add_argument("--no-pyg", action="store_true", help="do not import torch_geometric (time torch_scatter instead)")
    ap.add_argument("--csrgat-lib", help="libcsrgat_c.so: time this lab's library too, in this process "
                                         "(implementation csrgat)")
    ap.add_argument("-o", "--output", default="peers.json", help="output JSON (default peers.json)")
    args = ap.parse_args()
    if args.samples < 1 or args.rounds < 1:
        ap.error("--samples and --rounds must be at least 1")

    problems = []
    if args.config:
        base = os.path.dirname(os.path.abspath(args.config))
        tuner = find_tuner(args.tuner)
        if tuner and not args.tuner:
            print(f"peers_pyg.py: {args.config} read by {tuner}", file=sys.stderr)
        for e in load_config_graphs(args.config, tuner):
            problems.append({**e, "base": base})
    for g in args.graph:
        name, spec = g.split("=", 1) if re.match(r"^[A-Za-z0-9_.-]+=", g) and ":" not in g.split("=", 1)[0] else (None, g)
        problems.append({"name": name or graph_name_of(spec), "spec": spec, "read": spec, "feat": args.feat or [64],
                         "heads": args.heads or [1], "base": os.getcwd()})
    if args.only:
        problems = [p for p in problems if p["name"] in args.only]
    if not problems:
        ap.error("no graphs: pass --config or --graph")
    if args.list:
        try:
            json.dump([{k: p[k] for k in ("name", "spec", "read", "feat", "heads")} for p in problems],
                      sys.stdout, indent=1)
            print()
            sys.stdout.flush()
        except BrokenPipeError:  # `--list | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    if np is None:
        sys.exit("peers_pyg.py needs numpy (pip install numpy)")

    try:
        import torch  # noqa: PLC0415
    except ImportError:
        sys.exit("peers_pyg.py needs PyTorch (pip install torch)")
    if not torch.cuda.is_available():
        sys.exit("peers_pyg.py needs a CUDA device (torch.cuda.is_available() is False)")
    pyg, pyg_version, pyg_note = None, None, ""
    if not args.no_pyg:
        try:
            import torch_geometric  # noqa: PLC0415
            import torch_geometric.utils  # noqa: F401, PLC0415

            pyg, pyg_version = torch_geometric, torch_geometric.__version__
        except Exception as e:  # ImportError, or a broken install (missing compiled extensions)
            pyg_note = f"torch_geometric not importable ({type(e).__name__}: {e}); timed torch_scatter instead"
            print(pyg_note, file=sys.stderr)
    csrgat = None
    if args.csrgat_lib:
        try:
            csrgat = CsrgatLib(args.csrgat_lib)
        except OSError as e:
            sys.exit(f"--csrgat-lib {args.csrgat_lib}: {e}")
    dev = torch.device("cuda", args.device)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    l2 = int(getattr(props, "L2_cache_size", 0) or 50 * 1024 * 1024)
    flush = L2Flush(torch, dev, l2, args.flush_op)

    meta = {
        "tool": "scripts/peers_pyg.py",
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "torch": torch.__version__,
        "torch_geometric": pyg_version,
        "cuda": torch.version.cuda,
        "gpu": props.name,
        "gpu_uuid": str(getattr(props, "uuid", "")),
        "l2_bytes": l2,
        "cache": f"cold (2 x L2 {'read' if args.flush_op == 'read' else 'written'} before each sample" + (
            ", the host waiting for it)" if args.flush == "sync" else ", not waited for: it overlaps the call's host time)"),
        "flush": args.flush,
        "flush_op": args.flush_op,
        "timer": "CUDA events around one call (launches included)",
        "samples": args.samples,
        "warmup": args.warmup,
        "rounds": args.rounds,
        "seed": args.seed,
        "inputs": "scores (E, H) and values (N, H, F) float32 N(0,1) from torch's generator; generated graphs "
                  "re-implemented with numpy: shapes as the tuner's, not bit-identical",
        "note": pyg_note,
        "csrgat_lib": os.path.abspath(args.csrgat_lib) if csrgat else None,
        "csrgat_archs": csrgat.archs if csrgat else None,
    }
    results = []
    again = []  # (row, fn, samples of each round, host times) for rounds 2..R; fn keeps its inputs alive
    for p in problems:
        try:
            row_ptr, col, gnote = make_graph(p["read"], p["base"], args.graphs_dir)
        except Exception as e:  # one bad graph must not cost the others
            print(f"{p['name']}: {e}", file=sys.stderr)
            results.append({"graph": p["name"], "spec": p["spec"], "error": str(e)})
            continue
        n = len(row_ptr) - 1
        crow = torch.from_numpy(row_ptr).to(dev)
        colt = torch.from_numpy(col).to(dev)
        dst = torch.repeat_interleave(torch.arange(n, device=dev), crow[1:] - crow[:-1])
        print(f"{p['name']}: N={n} E={len(col)} ({gnote})", file=sys.stderr)
        for f in p["feat"]:
            for h in p["heads"]:
                gen = torch.Generator(device=dev).manual_seed(args.seed * 1000003 + f * 31 + h)
                g = {"n": n, "src": colt, "dst": dst, "crow": crow, "col": colt,
                     "scores": torch.randn((len(col), h), device=dev, generator=gen),
                     "values": torch.randn((n, h, f), device=dev, generator=gen)}
                try:
                    ref = reference(torch, g)
                except RuntimeError as e:
                    ref = None
                    print(f"  reference failed: {e}", file=sys.stderr)
                impls = make_impls(torch, pyg, g)
                if csrgat:  # made in the loop: a failing shape is that row's error
                    impls["csrgat"] = impls["csrgat_call"] = None
                for impl, fn in impls.items():
                    row = {"graph": p["name"], "spec": p["spec"], "feat": f, "heads": h, "impl": impl,
                           "graph_note": gnote}
                    try:
                        if impl.startswith("csrgat"):
                            fn, row["variant"] = csrgat.impl(torch, g, row_ptr, prepared=impl == "csrgat_call")
                        out = fn()
                        row["rel_error"] = rel_error(torch, out, ref) if ref is not None else None
                        del out
                        host = []
                        first = sample_cold(torch, fn, args.samples, args.warmup, flush, args.flush == "sync", host)
                        row.update(summarize([first], host))
                        print(f"  F={f} H={h} {impl}: {row['median_us']:.2f} us, host {row['host_median_us']:.2f} us "
                              f"(rel. error {row['rel_error']})",
                              file=sys.stderr)
                        if args.rounds > 1 and fits_l2(g, l2):
                            again.append((row, fn, [first], host))
                    except RuntimeError as e:  # CUDA out of memory, unsupported op...
                        row["error"] = str(e).split("\n")[0]
                        print(f"  F={f} H={h} {impl}: {row['error']}", file=sys.stderr)
                    torch.cuda.empty_cache()
                    results.append(row)
                del g, ref
                torch.cuda.empty_cache()
    for r in range(2, args.rounds + 1):
        print(f"round {r} of {args.rounds}: {len(again)} calls whose inputs fit in L2", file=sys.stderr)
        for row, fn, rounds, host in again:
            try:
                rounds.append(sample_cold(torch, fn, args.samples, args.warmup, flush, args.flush == "sync", host))
            except RuntimeError as e:  # keeps the rounds it has
                row["round_error"] = str(e).split("\n")[0]
    for row, _, rounds, host in again:
        row.update(summarize(rounds, host))  # a row whose later rounds all failed keeps its first round
        medians = " ".join(f"{m:.1f}" for m in row.get("round_medians_us", [row["median_us"]]))
        print(f"{row['graph']} F={row['feat']} H={row['heads']} {row['impl']}: {row['median_us']:.2f} us, "
              f"round medians {medians}", file=sys.stderr)
    del again
    if csrgat:
        torch.cuda.synchronize()
        csrgat.close()
    with open(args.output, "w") as fh:
        json.dump({"meta": meta, "results": results}, fh, indent=1)
        fh.write("\n")
    ok = sum(1 for r in results if "median_us" in r)
    print(f"wrote {args.output}: {ok} timings, {len(results) - ok} failures", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
