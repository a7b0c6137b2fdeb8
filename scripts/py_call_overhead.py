#!/usr/bin/env python3
"""Where a Python caller's time goes in one csrgat call (twenty-seventh and twenty-eighth
sessions): the library through its C interface (libcsrgat_c.so by ctypes, as
scripts/peers_pyg.py calls it) on one graph, cold, in one process, timed by peers_pyg.py's own
harness (sample_cold: the L2 flush, the host waiting for it, CUDA events around the call on the
stream looked up once), median of --samples samples each, us. Implementations:
  csrgat       csrgat_aggregate, fourteen ctypes arguments per call
  csrgat_call  a prepared call: csrgat_call_launch(call, stream), two arguments
  pyg          PyG's softmax and scatter (torch_geometric), when importable
Modes, for each csrgat implementation:
  IMPL.alone        its samples back to back (.host: the host time of the call itself)
  IMPL.after_pyg    each sample after one PyG call on the same graph (before the flush): the
                    call in the company it has in a GAT layer's forward
  IMPL.blocks       as peers_pyg.py times it: blocks of --block samples of PyG, then of IMPL,
                    --blocks times (IMPL's samples pooled)
  csrgat_call.side_stream, pyg.side_stream: alone, on a stream of PyTorch's pool (not the
                    legacy default stream)
and host_empty_graph (csrgat_aggregate on an empty graph: ctypes and the checks, no CUDA call),
host_one_arg (csrgat_status_string(0): a ctypes call of one argument). Needs PyTorch and a GPU.

    python3 scripts/py_call_overhead.py --lib .gpu/bin/libcsrgat_c.so --graph ../shared/graphs/citeseer.mtx.gz
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers_pyg  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--feat", type=int, default=64)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--block", type=int, default=30, help="samples per block of the .blocks mode")
    ap.add_argument("--blocks", type=int, default=4, help="blocks of the .blocks mode")
    ap.add_argument("--flush-op", choices=("read", "write"), default="read", help="as peers_pyg.py's")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    import torch  # noqa: PLC0415

    dev = torch.device("cuda", 0)
    row_ptr, col, _ = peers_pyg.make_graph(args.graph, os.getcwd(), None)
    n = len(row_ptr) - 1
    crow = torch.from_numpy(row_ptr).to(dev)
    colt = torch.from_numpy(col).to(dev)
    dst = torch.repeat_interleave(torch.arange(n, device=dev), crow[1:] - crow[:-1])
    gen = torch.Generator(device=dev).manual_seed(1)
    g = {"n": n, "src": colt, "dst": dst, "crow": crow, "col": colt,
         "scores": torch.randn((len(col), 1), device=dev, generator=gen),
         "values": torch.randn((n, 1, args.feat), device=dev, generator=gen)}
    lib = peers_pyg.CsrgatLib(args.lib)
    impls = {}
    impls["csrgat"], variant = lib.impl(torch, g, row_ptr)
    impls["csrgat_call"], _ = lib.impl(torch, g, row_ptr, prepared=True)
    pyg = None
    try:
        import torch_geometric  # noqa: PLC0415
        import torch_geometric.utils  # noqa: F401, PLC0415

        pyg = peers_pyg.make_impls(torch, torch_geometric, g)["pyg"]
    except Exception as e:  # noqa: BLE001
        print(f"no PyG: {e}", file=sys.stderr)
    l2 = int(getattr(torch.cuda.get_device_properties(dev), "L2_cache_size", 0) or 50 << 20)
    flush = peers_pyg.L2Flush(torch, dev, l2, args.flush_op)

    def cold(f, samples=args.samples, host=None, before=None):
        return peers_pyg.sample_cold(torch, f, samples, 5, flush, True, host, before)

    def host(f):
        out = []
        for _ in range(args.samples):
            t0 = time.perf_counter()
            f()
            out.append((time.perf_counter() - t0) * 1e6)
        return out

    agg = lib.lib.csrgat_aggregate
    empty_args = (0, 0, 0, 0, 0, 0, g["values"].data_ptr(), 0, 1, args.feat, 0, None, None, 0)
    res = {"graph": args.graph, "variant": variant, "samples": args.samples, "flush_op": args.flush_op}
    for name in ("csrgat", "csrgat_call"):
        f = impls[name]
        res[f"{name}.host"] = []
        res[f"{name}.alone"] = cold(f, host=res[f"{name}.host"])
        if pyg is None:
            continue
        res[f"{name}.after_pyg"] = cold(f, before=pyg)
        blocks = []
        for _ in range(args.blocks):
            cold(pyg, args.block)
            blocks += cold(f, args.block)
        res[f"{name}.blocks"] = blocks
    if pyg is not None:
        res["pyg.alone"] = cold(pyg)
    # The same on a stream of PyTorch's pool instead of the legacy default stream (a launch into
    # the legacy stream is ordered with every other blocking stream of the context).
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        f, _ = lib.impl(torch, g, row_ptr, prepared=True)
        res["csrgat_call.side_stream.host"] = []
        res["csrgat_call.side_stream"] = cold(f, host=res["csrgat_call.side_stream.host"])
        if pyg is not None:
            res["pyg.side_stream"] = cold(pyg)
    res["host_empty_graph"] = host(lambda: agg(*empty_args))
    res["host_one_arg"] = host(lambda: lib.lib.csrgat_status_string(0))
    torch.cuda.synchronize()
    lib.close()
    for k, v in res.items():
        if isinstance(v, list):
            print(f"{k:28} median {statistics.median(v):8.2f} us  q1 {sorted(v)[len(v) // 4]:8.2f}")
            res[k] = {"median_us": statistics.median(v), "samples": v}
        else:
            print(f"{k:28} {v}")
    if args.output:
        with open(args.output, "w") as fh:
            json.dump(res, fh, indent=1)


if __name__ == "__main__":
    main()
