#!/usr/bin/env python3
"""Where a Python caller's time goes in one csrgat call (twenty-seventh session): the library
through its C interface (libcsrgat_c.so by ctypes, as scripts/peers_pyg.py calls it) on one graph,
cold, timed several ways in one process, median of --samples each, us:
  events            peers_pyg.py's harness: L2 flush, wait, start.record(), call, end.record()
  events_stream     the same with the stream looked up once and passed to record()
  host_call         time.perf_counter() around the call alone (ctypes, the library, the launch)
  host_empty_graph  the same call on an empty graph (num_nodes 0: ctypes and the argument checks,
                    no CUDA call)
  host_one_arg      csrgat_status_string(0): a ctypes call of one argument
  host_record       end.record() alone
and PyG's call (torch_geometric) under both event harnesses. Needs PyTorch and a GPU.

    python3 scripts/py_call_overhead.py --lib .gpu/bin/libcsrgat_c.so --graph ../shared/graphs/citeseer.mtx.gz
"""
import argparse
import ctypes
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
    fn, variant = lib.impl(torch, g, row_ptr)
    impls = {"csrgat": fn}
    try:
        import torch_geometric  # noqa: PLC0415
        import torch_geometric.utils  # noqa: F401, PLC0415

        impls["pyg"] = peers_pyg.make_impls(torch, torch_geometric, g)["pyg"]
    except Exception as e:  # noqa: BLE001
        print(f"no PyG: {e}", file=sys.stderr)
    l2 = int(getattr(torch.cuda.get_device_properties(dev), "L2_cache_size", 0) or 50 << 20)
    flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device=dev)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    stream = torch.cuda.current_stream()

    def events(f, bound):
        out = []
        for i in range(args.samples):
            flush.fill_(float(i))
            torch.cuda.synchronize()
            if bound:
                start.record(stream)
                f()
                end.record(stream)
            else:
                start.record()
                f()
                end.record()
            end.synchronize()
            out.append(start.elapsed_time(end) * 1000.0)
        return out

    def host(f):
        out = []
        for i in range(args.samples):
            flush.fill_(float(i))
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            f()
            out.append((time.perf_counter() - t0) * 1e6)
            torch.cuda.synchronize()
        return out

    agg = lib.lib.csrgat_aggregate
    empty_args = (0, 0, 0, 0, 0, 0, g["values"].data_ptr(), 0, 1, args.feat, 0, None, None, 0)
    res = {"graph": args.graph, "variant": variant, "samples": args.samples}
    for name, f in impls.items():
        for _ in range(5):
            f()
        res[f"{name}.events"] = events(f, False)
        res[f"{name}.events_stream"] = events(f, True)
        res[f"{name}.host_call"] = host(f)
    res["host_empty_graph"] = host(lambda: agg(*empty_args))
    res["host_one_arg"] = host(lambda: lib.lib.csrgat_status_string(0))
    res["host_record"] = host(lambda: end.record())
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
