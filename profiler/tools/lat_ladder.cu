// lat_ladder: the latency floors under a short kernel, measured the way `tuner bench --cache
// warm --graph-replay` times one (CUDA Graph of back-to-back launches, us per launch).
//   lat_ladder <out.json> [--device N] [--grid B] [--block T]
//
// Each rung is one kernel of the same grid (default: the seed shape's tuned rule, 96 blocks of
// 128 threads) that does a little more than the one before:
//   params L        reads L kernel-parameter words, each in a constant-bank line of its own
//                   beyond the one every rung reads, and writes one word per thread: what a
//                   kernel's parameter fetch costs per line
//   loads K         K dependent L2 loads per thread (a pointer chase through a 4 MiB
//                   permutation, ld.global.cg: every load an L2 hit at a new 128-byte line),
//                   then the write: what each link of a chain like row_ptr -> col -> values costs
//   pdl P+Q         launched overlapping the previous kernel (programmatic dependent launch):
//                   P loads before griddepcontrol.wait, Q after it, then the write
//   w...            the same with one chain per warp (every lane loads the warp's address, as a
//                   csrgat warp loads its row's row_ptr) instead of one per thread: fewer lines
//                   in flight, so the L2 latency without the queueing of 12,288 chains
//   ... +S shfl     then S dependent warp shuffles before the write: a softmax over a warp and
//                   the merge of its edge slots are ~10 (max, sum, weights, slot merge)
// A csrgat kernel on a tiny graph is at least "loads 3" plain (row_ptr, then col, then scores and
// values, then out) and "pdl 2+1" overlapped (the structure before the wait), plus its shuffles;
// the tuned kernel's time above those rungs is what its own instructions cost. Prints a table,
// writes JSON.
// Exit: 0 done, 1 error, 3 no CUDA device, 64 usage.
#include "profiler/check.h"
#include "profiler/timer.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace prof = csrgat::profiler;

namespace {

constexpr int kWords = 64;  // 256 bytes of parameter words: the rungs read words 16 apart

// Parameters start at constant-bank offset 0x210 on sm_90: chain, out and start_mask share the
// line at 0x200 (with the driver's memory descriptor, which every global access reads), and the
// padding puts word[0] at 0x240, so that word[16 * l] is alone in the l-th line after it and
// "params L" reads L lines more than "params 0". (In the thirteenth session's calls 1 and 2
// word[0] sat in the first line: there "params L" read L - 1 more.)
struct LadderArgs {
  const int* chain;  // chain[i]: the next index (a single cycle through every element)
  int* out;          // one word per thread
  int start_mask;    // elements - 1 (a power of two)
  int pad[7];
  int word[kWords];  // all zero
};
static_assert(offsetof(LadderArgs, word) == 0x240 - 0x210, "word[0] starts the second line");

__device__ __forceinline__ int chase(const int* chain, int i) { return __ldcg(chain + i); }

template <int Lines, int Pre, int Post, bool Overlap, int Shuffles, bool PerWarp>
__global__ void ladder_kernel(const LadderArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (Overlap) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = static_cast<int>((static_cast<unsigned>(PerWarp ? t / 32 : t) * 40503u) & static_cast<unsigned>(a.start_mask));
#pragma unroll
  for (int l = 0; l < Lines; ++l) i ^= a.word[16 * l];
#pragma unroll
  for (int k = 0; k < Pre; ++k) i = chase(a.chain, i);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (Overlap) asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
#pragma unroll
  for (int k = 0; k < Post; ++k) i = chase(a.chain, i);
#pragma unroll
  for (int k = 0; k < Shuffles; ++k) i += __shfl_xor_sync(0xffffffffu, i, 1 << (k % 5));
  a.out[t] = i;
}

struct Rung {
  const char* name;
  const void* fn;
  bool overlap;
  int lines, pre, post, shuffles;
  bool per_warp;
};

template <int L, int P, int Q, bool O, int S = 0, bool W = false>
Rung rung(const char* name) {
  return {name, reinterpret_cast<const void*>(&ladder_kernel<L, P, Q, O, S, W>), O, L, P, Q, S, W};
}

void launch(const Rung& r, const LadderArgs& args, int grid, int block, bool overlap_ok,
            cudaStream_t s) {
  LadderArgs a = args;
  void* params[] = {&a};
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = r.overlap && overlap_ok;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CSRGAT_CUDA_CHECK(cudaLaunchKernelExC(&cfg, r.fn, params));
}

int run(const std::string& out_path, int device, int grid, int block) {
  prof::Timer timer(device);
  const prof::DeviceInfo info = prof::device_info(device, timer.nvml());
  const bool overlap_ok = info.cc_major >= 9;
  std::printf("device %d: %s, %d SMs, driver %s; grid %d x %d threads\n", device, info.name.c_str(),
              info.sm_count, info.driver.c_str(), grid, block);

  // A random single cycle over 2^20 ints (4 MiB: L2-resident on every GPU this targets), so
  // each load depends on the last and lands on a new line.
  const int n = 1 << 20;
  std::vector<int> order(n), chain(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(12345));
  for (int k = 0; k < n; ++k) chain[order[k]] = order[(k + 1) % n];
  int* d_chain = nullptr;
  int* d_out = nullptr;
  CSRGAT_CUDA_CHECK(cudaMalloc(&d_chain, n * sizeof(int)));
  CSRGAT_CUDA_CHECK(cudaMalloc(&d_out, static_cast<size_t>(grid) * block * sizeof(int)));
  CSRGAT_CUDA_CHECK(cudaMemcpy(d_chain, chain.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  LadderArgs args{};
  args.chain = d_chain;
  args.out = d_out;
  args.start_mask = n - 1;

  const std::vector<Rung> rungs = {
      rung<0, 0, 0, false>("params 0"), rung<1, 0, 0, false>("params 1"),
      rung<2, 0, 0, false>("params 2"), rung<4, 0, 0, false>("params 4"),
      rung<0, 0, 1, false>("loads 1"),  rung<0, 0, 2, false>("loads 2"),
      rung<0, 0, 3, false>("loads 3"),  rung<0, 0, 4, false>("loads 4"),
      rung<0, 0, 8, false>("loads 8"),  rung<0, 0, 0, true>("pdl 0+0"),
      rung<0, 0, 1, true>("pdl 0+1"),   rung<0, 2, 1, true>("pdl 2+1"),
      rung<0, 0, 3, true>("pdl 0+3"),   rung<0, 2, 2, true>("pdl 2+2"),
      rung<0, 0, 0, false, 10>("shfl 10"), rung<0, 0, 3, false, 10>("loads 3 +10 shfl"),
      rung<0, 2, 1, true, 10>("pdl 2+1 +10 shfl"),
      rung<0, 0, 1, false, 0, true>("wloads 1"),  rung<0, 0, 3, false, 0, true>("wloads 3"),
      rung<0, 2, 1, true, 0, true>("wpdl 2+1"),
  };
  prof::TimingOptions opt;
  opt.cache = prof::CacheMode::warm;
  opt.graph_replay = true;
  opt.stop.max_samples = 200;
  opt.stop.max_seconds = 0.5;
  // Round-robin in 5 rounds, as tuner bench --rounds does: drift hits every rung alike.
  const int rounds = 5;
  opt.stop.max_samples /= rounds;
  opt.stop.max_seconds /= rounds;
  std::vector<std::vector<double>> per(rungs.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t r = 0; r < rungs.size(); ++r) {
      const auto res = timer.measure(
          [&](cudaStream_t s, int) { launch(rungs[r], args, grid, block, overlap_ok, s); }, opt);
      for (const auto& smp : res.samples) per[r].push_back(smp.gpu_us);
    }
  nlohmann::json out{{"device", prof::to_json(info)},
                     {"grid", grid},
                     {"block", block},
                     {"timing", prof::to_json(opt)},
                     {"rounds", rounds},
                     {"rungs", nlohmann::json::array()}};
  std::printf("%-18s %5s %4s %4s %5s %8s %10s %10s %10s\n", "rung", "lines", "pre", "post", "shfl",
              "overlap", "median_us", "q1_us", "q3_us");
  for (size_t r = 0; r < rungs.size(); ++r) {
    const prof::Summary s = prof::summarize(per[r]);
    const Rung& g = rungs[r];
    std::printf("%-18s %5d %4d %4d %5d %8s %10.3f %10.3f %10.3f\n", g.name, g.lines, g.pre, g.post,
                g.shuffles, g.overlap && overlap_ok ? "yes" : "no", s.median, s.q1, s.q3);
    out["rungs"].push_back({{"name", g.name},
                            {"extra_param_lines", g.lines},
                            {"loads_before_wait", g.pre},
                            {"loads_after_wait", g.post},
                            {"shuffles", g.shuffles},
                            {"chain_per_warp", g.per_warp},
                            {"overlap_previous", g.overlap && overlap_ok},
                            {"median_us", s.median},
                            {"q1_us", s.q1},
                            {"q3_us", s.q3},
                            {"n", s.n}});
  }
  cudaFree(d_chain);
  cudaFree(d_out);
  std::ofstream f(out_path);
  f << out.dump(1) << "\n";
  if (!f) {
    std::fprintf(stderr, "lat_ladder: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::printf("wrote %s\n", out_path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  int device = 0, grid = 96, block = 128;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](int& v) {
      if (i + 1 >= argc) return false;
      v = std::atoi(argv[++i]);
      return true;
    };
    if ((a == "--device" && value(device)) || (a == "--grid" && value(grid)) ||
        (a == "--block" && value(block)))
      continue;
    if (a.rfind("--", 0) == 0 || !out_path.empty()) {
      std::fprintf(stderr, "usage: lat_ladder <out.json> [--device N] [--grid B] [--block T]\n");
      return 64;
    }
    out_path = a;
  }
  if (out_path.empty() || grid < 1 || block < 1 || block > 1024 || block % 32 != 0) {
    std::fprintf(stderr, "usage: lat_ladder <out.json> [--device N] [--grid B] [--block T] (T a multiple of 32, <= 1024)\n");
    return 64;
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "lat_ladder: no CUDA device\n");
    return 3;
  }
  try {
    return run(out_path, device, grid, block);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lat_ladder: %s\n", e.what());
    return 1;
  }
}
