// l2_policy_probe: can L2 eviction-priority hints raise the gathers' L2 hit rate on a graph whose
// values are well over L2? (Targets 2 and 5 of issue 7: the DRAM-bound kernels sit at the copy
// roof, so only fewer DRAM bytes make them faster; the tuned bf16 kernel on uniform 2M, F = 128,
// hits L2 on ~7% of its gathers where 60 MB of L2 over 512 MB of values would allow ~11%.)
//   l2_policy_probe <out.json> [--device N]
//
// On a uniform random graph every value row is equally likely, so an LRU L2 of C bytes over W
// bytes of values hits about C / W, and pinning any K bytes of them hits K / W: hints can only
// win where the plain L2 keeps less than C of the values (edge and output streams taking lines,
// lines held twice in the two L2 partitions). The probe measures which, with the probes' plain
// kernel (uniform_graph.cuh's sliced_gather with one slice) in five policies:
//   plain   loads and stores without hints (the control, and the reference)
//   sfirst  col, scores and out with L2::evict_first (createpolicy.fractional, 1.0)
//   keepN   sfirst, and the value gathers under createpolicy.range: the first K bytes of the
//           values L2::evict_normal, the rest L2::evict_first
//   keepL   as keepN with the first K bytes L2::evict_last
//   vfirst  sfirst with every value gather L2::evict_first (a control: should not win)
// K is a fraction of the device's L2 (0.25, 0.5, 0.67, 0.8). evict_last lines may outlive the
// timer's flush (a read of 2x L2 with no hint); the probe runs `plain` again at the end of each
// problem: a plain that got faster says they did.
// Then where the plain L2's missing capacity goes (call 1 measured ~37 of 62.9 MB kept at every
// working-set size): the plain kernel on a subset of the SMs (subset_gather: all, the lower or
// upper half of the SM ids, the even or the odd ones). If each L2 half keeps its own copy of the
// lines its SMs read, a subset on one half keeps up to twice as many distinct lines: its hit
// rate rises toward 2x `sm:all`'s, and the subset whose rate rises names how SM ids map to halves
// (SM 0 alone, on one half by construction, decides it; skipped on the 1 GB problem).
// Each configuration: cold GPU time (CUPTI, L2 flushed before every sample), DRAM and L2 bytes
// from the counters, the gathers' L2 hit rate derived from them, and its largest difference from
// plain. Exit: 0 done, 1 error, 3 no CUDA device, 64 usage.
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

enum Mode : int { kPlain, kStreamFirst, kKeepNormal, kKeepLast, kValuesFirst };
const char* const kModeNames[] = {"plain", "sfirst", "keepN", "keepL", "vfirst"};

struct PolicyArgs {
  Args a;
  unsigned keep_bytes;   // keepN / keepL: the first keep_bytes of the values get the primary hint
  unsigned value_bytes;  // the values' size (createpolicy.range's total size, < 4 GiB)
};

__device__ __forceinline__ unsigned long long policy_first() {
  unsigned long long p;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
template <int M>
__device__ __forceinline__ unsigned long long policy_values(const void* base, unsigned keep,
                                                            unsigned total) {
  unsigned long long p = 0;
  if constexpr (M == kKeepNormal)
    asm("createpolicy.range.global.L2::evict_normal.L2::evict_first.b64 %0, [%1], %2, %3;"
        : "=l"(p)
        : "l"(base), "r"(keep), "r"(total));
  else if constexpr (M == kKeepLast)
    asm("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], %2, %3;"
        : "=l"(p)
        : "l"(base), "r"(keep), "r"(total));
  else
    p = policy_first();
  return p;
}
// The hinted loads and createpolicy are not `volatile`: pure reads of data no kernel writes while
// this one runs, which the compiler may schedule (or, for an unused policy, drop) as it does
// __ldg. (Call 1's build had them volatile, so its plain kernel also ran a createpolicy and its
// hinted loads kept their source order; its hit rates, from the counters, do not depend on that.)
__device__ __forceinline__ int ld_hint(const int* p, unsigned long long pol) {
  int v;
  asm("ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol));
  return v;
}
__device__ __forceinline__ float ld_hint(const float* p, unsigned long long pol) {
  float v;
  asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(pol));
  return v;
}
__device__ __forceinline__ float4 ld_hint(const float4* p, unsigned long long pol) {
  float4 v;
  asm("ld.global.nc.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p), "l"(pol));
  return v;
}
__device__ __forceinline__ void st_hint(float4* p, float4 v, unsigned long long pol) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(p), "f"(v.x),
               "f"(v.y), "f"(v.z), "f"(v.w), "l"(pol)
               : "memory");
}

// One row's slice f (a float4) as sliced_gather computes it with one slice, its loads and store
// under mode M's hints (ps: the streams' policy, pv: the values').
template <int U, int M>
__device__ __forceinline__ void gather_row(const Args& a, int row, int f, unsigned long long ps,
                                           unsigned long long pv) {
  const int eb = a.row_ptr[row], ee = a.row_ptr[row + 1];
  float m = -INFINITY, l = 0.f;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int e = eb; e < ee; e += U) {
    int c[U];
    float s[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const bool ok = e + u < ee;
      if constexpr (M == kPlain) {
        c[u] = ok ? __ldg(a.col + e + u) : 0;
        s[u] = ok ? __ldg(a.scores + e + u) : -INFINITY;
      } else {
        c[u] = ok ? ld_hint(a.col + e + u, ps) : 0;
        s[u] = ok ? ld_hint(a.scores + e + u, ps) : -INFINITY;
      }
    }
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const float4* p = a.values + static_cast<long long>(c[u]) * a.f4 + f;  // row 0 when not ok
      if constexpr (M == kPlain || M == kStreamFirst)
        v[u] = __ldg(p);
      else
        v[u] = ld_hint(p, pv);
    }
    online_batch<U>(s, v, m, l, acc);
  }
  const float inv = l > 0.f ? 1.f / l : 0.f;
  const float4 r = make_float4(acc.x * inv, acc.y * inv, acc.z * inv, acc.w * inv);
  float4* dst = a.out + static_cast<long long>(row) * a.f4 + f;
  if constexpr (M == kPlain)
    *dst = r;
  else
    st_hint(dst, r, ps);
}

template <int G, int U, int M>
__global__ void __launch_bounds__(256) policy_gather(const PolicyArgs pa) {
  constexpr int kRows = 256 / G;
  const int row = blockIdx.x * kRows + static_cast<int>(threadIdx.x) / G;
  if (row >= pa.a.n) return;
  gather_row<U, M>(pa.a, row, static_cast<int>(threadIdx.x) % G, policy_first(),
                   policy_values<M>(pa.a.values, pa.keep_bytes, pa.value_bytes));
}

// Which SMs of nsm (%nsmid) a subset holds: all, the lower or upper half of the ids, the even
// or the odd ones, the first eight, SM 0 alone. How SM ids map to the L2's halves is not
// documented, so the halves and parities may each straddle both; SM 0 alone cannot (the decisive
// subset), and the first eight likely do not.
enum Subset : int { kAllSms, kLowerHalf, kUpperHalf, kEvenSms, kOddSms, kFirst8, kSm0 };
const char* const kSubsetNames[] = {"all", "lower", "upper", "even", "odd", "first8", "sm0"};
__device__ __forceinline__ bool sm_in_subset(int subset, unsigned smid, unsigned nsm) {
  switch (subset) {
    case kLowerHalf:
      return smid < nsm / 2;
    case kUpperHalf:
      return smid >= nsm / 2;
    case kEvenSms:
      return smid % 2 == 0;
    case kOddSms:
      return smid % 2 == 1;
    case kFirst8:
      return smid < 8;
    case kSm0:
      return smid == 0;
    default:
      return true;
  }
}

// The plain kernel on a subset of the SMs: a grid of the blocks that fit on the device at once,
// whose blocks on other SMs exit at once; the rest take blocks of rows from a counter (*next,
// zeroed before the launch) until none is left. If the L2 keeps a line in each half (partition)
// whose SMs read it, a subset on one half sees up to twice the hit rate of `all`.
template <int G, int U>
__global__ void __launch_bounds__(256)
    subset_gather(const PolicyArgs pa, int subset, unsigned* next) {
  unsigned smid, nsm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  if (!sm_in_subset(subset, smid, nsm)) return;
  constexpr int kRows = 256 / G;
  __shared__ unsigned block_rows;
  for (;;) {
    __syncthreads();  // every thread has read the last block_rows
    if (threadIdx.x == 0) block_rows = atomicAdd(next, 1u);
    __syncthreads();
    const unsigned b = block_rows;
    if (b >= static_cast<unsigned>(pa.a.blocks_per_slice)) return;
    const int row = static_cast<int>(b) * kRows + static_cast<int>(threadIdx.x) / G;
    if (row < pa.a.n) gather_row<U, kPlain>(pa.a, row, static_cast<int>(threadIdx.x) % G, 0, 0);
  }
}

template <int G>
const void* kernel_for(int mode) {
  constexpr int U = 8;
  switch (mode) {
    case kPlain:
      return reinterpret_cast<const void*>(&policy_gather<G, U, kPlain>);
    case kStreamFirst:
      return reinterpret_cast<const void*>(&policy_gather<G, U, kStreamFirst>);
    case kKeepNormal:
      return reinterpret_cast<const void*>(&policy_gather<G, U, kKeepNormal>);
    case kKeepLast:
      return reinterpret_cast<const void*>(&policy_gather<G, U, kKeepLast>);
    default:
      return reinterpret_cast<const void*>(&policy_gather<G, U, kValuesFirst>);
  }
}

struct Config {
  int mode;
  double keep_frac;  // of L2, keepN / keepL only
  int subset = -1;   // >= 0: subset_gather on that subset of the SMs (mode plain)
};

int run(const std::string& out_path, int device) {
  prof::Timer timer(device);
  const prof::DeviceInfo info = announce_device(timer, device);
  prof::CounterSession counters(device, probe_metrics());
  say_if_unavailable(counters);
  const prof::TimingOptions opt = cold_timing(15, 2.0), few = cold_timing(3, 2.0);

  std::vector<Config> configs = {{kPlain, 0}, {kStreamFirst, 0}, {kValuesFirst, 0}};
  for (double k : {0.25, 0.5, 0.67, 0.8}) configs.push_back({kKeepNormal, k});
  for (double k : {0.25, 0.5, 0.67, 0.8}) configs.push_back({kKeepLast, k});
  configs.push_back({kPlain, 0});  // evict_last lines outliving the flush would speed this up
  for (int subset = kAllSms; subset <= kSm0; ++subset) configs.push_back({kPlain, 0, subset});

  // The three problems: uniform 2M F = 64 has the bytes of the bf16 kernel's uniform 2M, F = 128
  // (256-byte rows, 512 MB of values).
  const std::vector<Problem> problems = {{"uniform 2M, d32, F=128", 2000000, 32, 128},
                                         {"uniform 2M, d32, F=64", 2000000, 32, 64},
                                         {"uniform 1M, d16, F=64", 1000000, 16, 64}};
  nlohmann::json out{{"device", prof::to_json(info)},
                     {"timing", prof::to_json(opt)},
                     {"problems", nlohmann::json::array()}};
  for (const Problem& p : problems) {
    const DeviceGraph graph(p, info.sm_count);
    const double value_bytes = graph.elems * 4.0;
    const double stream_bytes = graph.edges * 8.0 + (p.n + 1) * 4.0;  // col, scores, row_ptr
    const double gather_bytes = graph.edges * p.feat * 4.0;
    std::printf("\n%s: values %.0f MB (L2 %.0f MB), gathers %.2f GB\n", p.name, value_bytes / 1e6,
                info.l2_bytes / 1e6, gather_bytes / 1e9);
    std::printf("%-9s %6s %10s %8s %8s %9s %9s %9s %8s %10s\n", "policy", "keepMB", "median_us",
                "q1_us", "q3_us", "dramR_GB", "dramW_GB", "lts_GB", "hit", "max_diff");
    nlohmann::json pj{{"name", p.name},
                      {"nodes", p.n},
                      {"degree", p.d},
                      {"feat", p.feat},
                      {"value_bytes", value_bytes},
                      {"configs", nlohmann::json::array()}};
    bool have_ref = false;
    const int g = p.feat / 4;
    const void* fn_of[5];
    for (int mode = 0; mode < 5; ++mode)
      fn_of[mode] = g == 32 ? kernel_for<32>(mode) : kernel_for<16>(mode);
    const void* subset_fn = g == 32 ? reinterpret_cast<const void*>(&subset_gather<32, 8>)
                                    : reinterpret_cast<const void*>(&subset_gather<16, 8>);
    int per_sm = 0;
    CSRGAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, subset_fn, 256, 0));
    const int subset_grid = per_sm * info.sm_count;
    unsigned* next = nullptr;
    CSRGAT_CUDA_CHECK(cudaMalloc(&next, sizeof(unsigned)));
    for (const Config& c : configs) {
      if (c.subset == kSm0 && value_bytes > 600e6) continue;  // ~0.5 s a launch on one SM
      // NaN in every result word first: a row no launch wrote fails the check (max_diff_from_ref
      // reads NaN as infinite) instead of passing on an earlier configuration's output.
      if (have_ref) CSRGAT_CUDA_CHECK(cudaMemset(graph.res, 0xff, graph.elems * sizeof(float)));
      const unsigned keep = static_cast<unsigned>(c.keep_frac * info.l2_bytes) / 128 * 128;
      PolicyArgs pa{
          {graph.row_ptr, graph.col, graph.scores, reinterpret_cast<const float4*>(graph.values),
           reinterpret_cast<float4*>(have_ref ? graph.res : graph.ref), p.n, g, 1,
           (p.n + 256 / g - 1) / (256 / g), 1},
          keep,
          static_cast<unsigned>(value_bytes)};
      const int grid = pa.a.blocks_per_slice;
      auto launch = [&](cudaStream_t s) {
        PolicyArgs copy = pa;
        if (c.subset >= 0) {
          int subset = c.subset;
          unsigned* counter = next;
          void* params[] = {&copy, &subset, &counter};
          CSRGAT_CUDA_CHECK(cudaMemsetAsync(next, 0, sizeof(unsigned), s));
          CSRGAT_CUDA_CHECK(
              cudaLaunchKernel(subset_fn, dim3(subset_grid), dim3(256), params, 0, s));
        } else {
          void* params[] = {&copy};
          CSRGAT_CUDA_CHECK(cudaLaunchKernel(fn_of[c.mode], dim3(grid), dim3(256), params, 0, s));
        }
      };
      // One SM or eight take 10-100x as long: fewer samples.
      const prof::TimingResult t =
          timer.measure([&](cudaStream_t s, int) { launch(s); }, c.subset >= kFirst8 ? few : opt);
      double dram_r = NAN, dram_w = NAN, lts = NAN;
      if (counters.available()) {
        const prof::CounterResult r = counters.collect(launch);
        if (r.values.count("dram__bytes_read.sum")) dram_r = r.values.at("dram__bytes_read.sum");
        if (r.values.count("dram__bytes_write.sum")) dram_w = r.values.at("dram__bytes_write.sum");
        if (r.values.count("lts__t_bytes.sum")) lts = r.values.at("lts__t_bytes.sum");
      }
      // The gathers' hit rate if col, scores and row_ptr are read from DRAM once.
      const double hit = 1.0 - (dram_r - stream_bytes) / gather_bytes;
      const float max_diff = have_ref ? graph.max_diff_from_ref(graph.res) : 0.f;
      have_ref = true;
      const std::string name =
          c.subset >= 0 ? std::string("sm:") + kSubsetNames[c.subset] : kModeNames[c.mode];
      std::printf("%-9s %6.1f %10.1f %8.1f %8.1f %9.3f %9.3f %9.2f %7.2f%% %10.2e\n", name.c_str(),
                  keep / 1e6 * (c.keep_frac > 0), t.gpu.median, t.gpu.q1, t.gpu.q3, dram_r / 1e9,
                  dram_w / 1e9, lts / 1e9, 100 * hit, max_diff);
      std::fflush(stdout);
      nlohmann::json cj = timing_fields(t);
      cj.update({{"policy", kModeNames[c.mode]},
                 {"sm_subset", c.subset >= 0 ? kSubsetNames[c.subset] : "none"},
                 {"keep_bytes", c.keep_frac > 0 ? keep : 0u},
                 {"dram_read_bytes", dram_r},
                 {"dram_write_bytes", dram_w},
                 {"lts_bytes", lts},
                 {"gather_hit_rate", hit},
                 {"max_abs_diff_vs_plain", max_diff}});
      pj["configs"].push_back(cj);
    }
    out["problems"].push_back(pj);
    CSRGAT_CUDA_CHECK(cudaFree(next));
  }
  return write_probe_json(out, out_path, "l2_policy_probe");
}

}  // namespace

int main(int argc, char** argv) {
  return simple_probe_main(argc, argv, "l2_policy_probe", run);
}
