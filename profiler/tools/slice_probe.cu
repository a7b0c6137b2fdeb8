// slice_probe: does gathering the values in feature slices, all rows' first slice before any
// row's second, buy L2 reuse on a DRAM-bound graph? (Target 2 of issue 7 asks the uniform 2M
// graph, F = 128, for 0.7x the seed's time; the tuned kernel reads every gather from DRAM at the
// copy roof, so only fewer bytes can get there.)
//   slice_probe <out.json> [--device N]
//
// On a uniform random graph the gathers hit L2 about in the ratio L2 / values bytes. A pass over
// one slice of F / T features has T times smaller a working set (the values matrix's rows are
// F floats apart, the slice F / T of them), so about T times the hit rate, for T passes over
// col and scores (8 bytes an edge each) instead of one. With 60 MB of L2 and 1 GB of values
// (uniform 2M, F = 128) the model says: T = 2 -4%, T = 4 -13%, T = 8 -30% of the bytes, if
// DRAM keeps its bandwidth on 64- and 128-byte pieces of rows.
//
// One simple kernel, templated on the group size G = F / T / 4 (a float4 per thread) and the
// edges in flight U, does the whole operation (online softmax, gather, normalise, store) for
// one (row, slice) per group. Its blocks run in one of two orders: slice-major (block b takes
// slice b / blocks_per_slice: all rows' slice 0 first) or row-major (slice b % T: the control,
// the same work without the reuse). Each configuration: cold GPU time (CUPTI, L2 flushed before
// every sample), DRAM and L2 bytes from the counters, and its largest difference from T = 1.
// Exit: 0 done, 1 error, 3 no CUDA device, 64 usage.
#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/timer.h"
#include "profiler/tools/uniform_graph.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace prof = csrgat::profiler;
using namespace csrgat::probe;

namespace {

struct Kernel {
  int g, u;
  const void* fn;
};

template <int G, int U>
Kernel kernel() {
  return {G, U, reinterpret_cast<const void*>(&sliced_gather<G, U>)};
}

const Kernel* find_kernel(int g, int u) {
  static const std::vector<Kernel> all = {kernel<32, 4>(), kernel<32, 8>(), kernel<16, 4>(),
                                          kernel<16, 8>(), kernel<8, 4>(),  kernel<8, 8>(),
                                          kernel<4, 4>(),  kernel<4, 8>()};
  for (const auto& k : all)
    if (k.g == g && k.u == u) return &k;
  return nullptr;
}

int run(const std::string& out_path, int device) {
  prof::Timer timer(device);
  const prof::DeviceInfo info = announce_device(timer, device);
  prof::CounterSession counters(device, probe_metrics());
  say_if_unavailable(counters);
  const prof::TimingOptions opt = cold_timing(15, 2.0);

  nlohmann::json out{{"device", prof::to_json(info)},
                     {"timing", prof::to_json(opt)},
                     {"problems", nlohmann::json::array()}};
  for (const Problem& p : target2_problems()) {
    const DeviceGraph graph(p, info.sm_count);
    const double values_mb = graph.elems * 4 / 1e6;
    std::printf("\n%s: values %.0f MB (L2 %.0f MB)\n", p.name, values_mb, info.l2_bytes / 1e6);
    std::printf("%-7s %3s %3s %6s %10s %8s %8s %9s %9s %10s\n", "order", "T", "U", "G",
                "median_us", "q1_us", "q3_us", "dram_GB", "lts_GB", "max_diff");
    nlohmann::json pj{{"name", p.name}, {"nodes", p.n}, {"degree", p.d}, {"feat", p.feat},
                      {"configs", nlohmann::json::array()}};
    bool have_ref = false;
    for (int slices = 1; p.feat / 4 / slices >= 4; slices *= 2)
      for (int major = 1; major >= (slices > 1 ? 0 : 1); --major)
        for (int u : {4, 8}) {
          const int g = p.feat / 4 / slices;
          const Kernel* k = find_kernel(g, u);
          if (!k) continue;
          Args a{graph.row_ptr, graph.col, graph.scores,
                 reinterpret_cast<const float4*>(graph.values),
                 reinterpret_cast<float4*>(have_ref ? graph.res : graph.ref), p.n, p.feat / 4,
                 slices, (p.n + 256 / g - 1) / (256 / g), major};
          const int grid = a.blocks_per_slice * slices;
          auto launch = [&](cudaStream_t s) {
            Args copy = a;
            void* params[] = {&copy};
            CSRGAT_CUDA_CHECK(cudaLaunchKernel(k->fn, dim3(grid), dim3(256), params, 0, s));
          };
          const prof::TimingResult t =
              timer.measure([&](cudaStream_t s, int) { launch(s); }, opt);
          const auto [dram, lts] = dram_and_l2_bytes(counters, launch);
          const float max_diff = have_ref ? graph.max_diff_from_ref(graph.res) : 0.f;
          have_ref = true;
          const char* order = major ? "slice" : "row";
          std::printf("%-7s %3d %3d %6d %10.1f %8.1f %8.1f %9.2f %9.2f %10.2e\n", order, slices, u,
                      g, t.gpu.median, t.gpu.q1, t.gpu.q3, dram / 1e9, lts / 1e9, max_diff);
          nlohmann::json cj = timing_fields(t);
          cj.update({{"order", order},
                     {"slices", slices},
                     {"edges_in_flight", u},
                     {"threads_per_row", g},
                     {"dram_bytes", dram},
                     {"lts_bytes", lts},
                     {"max_abs_diff_vs_first", max_diff}});
          pj["configs"].push_back(cj);
        }
    out["problems"].push_back(pj);
  }
  return write_probe_json(out, out_path, "slice_probe");
}

}  // namespace

int main(int argc, char** argv) {
  return simple_probe_main(argc, argv, "slice_probe", run);
}
