// The uniform random graphs of the target-2 probes (slice_probe, colblock_probe), built on the
// GPU, and the probes' plain kernel: one group of G threads per (row, feature slice), online
// softmax, float4 gathers, U edges in flight. With one slice it is the probes' baseline and
// reference. Then what the probes' hosts share: their problems and counters, a problem's device
// buffers, the check against the reference, the JSON output and main's error handling.
#pragma once

#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/timer.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace csrgat::probe {

__device__ __forceinline__ unsigned hash32(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<unsigned>(x);
}

// A uniform random graph of degree d: row r holds edges [r d, (r + 1) d), random sources,
// scores in [-4, 4), values in [-1, 1).
__global__ void make_graph(int n, int d, long long feat, int* row_ptr, int* col, float* scores,
                           float* values) {
  const long long e_total = static_cast<long long>(n) * d;
  const long long v_total = static_cast<long long>(n) * feat;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < e_total || i < v_total || i <= n; i += stride) {
    if (i <= n) row_ptr[i] = static_cast<int>(i * d);
    if (i < e_total) {
      col[i] = static_cast<int>(hash32(2 * i + 1) % static_cast<unsigned>(n));
      scores[i] = (hash32(3 * i + 7) >> 8) * (8.f / 16777216.f) - 4.f;
    }
    if (i < v_total) values[i] = (hash32(5 * i + 11) >> 8) * (2.f / 16777216.f) - 1.f;
  }
}

struct Args {
  const int* row_ptr;
  const int* col;
  const float* scores;
  const float4* values;  // (n, f4)
  float4* out;           // (n, f4)
  int n;
  int f4;                // F / 4
  int slices;            // T: each (row, slice) is G = f4 / T float4s
  int blocks_per_slice;
  int slice_major;
};

// One batch of U edges into a row's online softmax state (running max m, sum l, weighted sum
// acc): missing entries have score -inf and weigh 0.
template <int U>
__device__ __forceinline__ void online_batch(const float (&s)[U], const float4 (&v)[U], float& m,
                                             float& l, float4& acc) {
  float bm = s[0];
#pragma unroll
  for (int u = 1; u < U; ++u) bm = fmaxf(bm, s[u]);
  const float mn = fmaxf(m, bm);
  const float scale = __expf(m - mn);  // 0 on the first batch (m = -inf)
  l *= scale;
  acc.x *= scale;
  acc.y *= scale;
  acc.z *= scale;
  acc.w *= scale;
  m = mn;
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const float w = __expf(s[u] - m);  // 0 for the missing entries (s = -inf)
    l += w;
    acc.x += w * v[u].x;
    acc.y += w * v[u].y;
    acc.z += w * v[u].z;
    acc.w += w * v[u].w;
  }
}

template <int G, int U>
__global__ void __launch_bounds__(256) sliced_gather(const Args a) {
  constexpr int kRows = 256 / G;
  int slice, rb;
  if (a.slice_major) {
    slice = blockIdx.x / a.blocks_per_slice;
    rb = blockIdx.x - slice * a.blocks_per_slice;
  } else {
    slice = blockIdx.x % a.slices;
    rb = blockIdx.x / a.slices;
  }
  const int row = rb * kRows + static_cast<int>(threadIdx.x) / G;
  if (row >= a.n) return;
  const int f = slice * G + static_cast<int>(threadIdx.x) % G;
  const int eb = a.row_ptr[row], ee = a.row_ptr[row + 1];
  float m = -INFINITY, l = 0.f;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int e = eb; e < ee; e += U) {
    int c[U];
    float s[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const bool ok = e + u < ee;
      c[u] = ok ? __ldg(a.col + e + u) : 0;
      s[u] = ok ? __ldg(a.scores + e + u) : -INFINITY;
    }
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      v[u] = __ldg(a.values + static_cast<long long>(c[u]) * a.f4 + f);  // row 0 when not ok
    online_batch<U>(s, v, m, l, acc);
  }
  const float inv = l > 0.f ? 1.f / l : 0.f;
  a.out[static_cast<long long>(row) * a.f4 + f] =
      make_float4(acc.x * inv, acc.y * inv, acc.z * inv, acc.w * inv);
}

// max |x - y| over n floats, as the bits of a non-negative float; equal values (two +Inf of a
// poisoned row) differ by 0.
__global__ void max_abs_diff(const float* x, const float* y, long long n, unsigned* out) {
  float mine = 0.f;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
  {
    const float d = x[i] == y[i] ? 0.f : fabsf(x[i] - y[i]);
    mine = d == d ? fmaxf(mine, d) : INFINITY;  // a NaN (an output never written) is a failure
  }
  atomicMax(out, __float_as_uint(mine));
}

// Target 2's DRAM-bound uniform graphs, as both probes measure them.
struct Problem {
  const char* name;
  int n, d, feat;
};

inline std::vector<Problem> target2_problems() {
  return {{"uniform 2M, d32, F=128", 2000000, 32, 128}, {"uniform 1M, d16, F=64", 1000000, 16, 64}};
}

// The counters both probes read: DRAM and L2 bytes, and the kernel's time.
inline std::vector<std::string> probe_metrics() {
  return {"dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
          "gpu__time_duration.sum"};
}

// One problem on the device: its graph (make_graph), a reference and a result buffer for the
// output, and the word max_abs_diff reduces into. Freed on destruction.
struct DeviceGraph {
  int *row_ptr = nullptr, *col = nullptr;
  float *scores = nullptr, *values = nullptr, *ref = nullptr, *res = nullptr;
  unsigned* diff = nullptr;
  long long edges, elems;
  int sm_count;

  DeviceGraph(const Problem& p, int sms)
      : edges(static_cast<long long>(p.n) * p.d),
        elems(static_cast<long long>(p.n) * p.feat),
        sm_count(sms) {
    CSRGAT_CUDA_CHECK(cudaMalloc(&row_ptr, (p.n + 1) * sizeof(int)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&col, edges * sizeof(int)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&scores, edges * sizeof(float)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&values, elems * sizeof(float)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&ref, elems * sizeof(float)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&res, elems * sizeof(float)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&diff, sizeof(unsigned)));
    make_graph<<<4 * sm_count, 256>>>(p.n, p.d, p.feat, row_ptr, col, scores, values);
    CSRGAT_CUDA_CHECK(cudaGetLastError());
    CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~DeviceGraph() {
    for (void* ptr : {static_cast<void*>(row_ptr), static_cast<void*>(col),
                      static_cast<void*>(scores), static_cast<void*>(values),
                      static_cast<void*>(ref), static_cast<void*>(res), static_cast<void*>(diff)})
      cudaFree(ptr);
  }
  DeviceGraph(const DeviceGraph&) = delete;
  DeviceGraph& operator=(const DeviceGraph&) = delete;

  // The largest |ref - y| over the output.
  float max_diff_from_ref(const float* y) const {
    CSRGAT_CUDA_CHECK(cudaMemset(diff, 0, sizeof(unsigned)));
    max_abs_diff<<<4 * sm_count, 256>>>(ref, y, elems, diff);
    unsigned bits = 0;
    CSRGAT_CUDA_CHECK(cudaMemcpy(&bits, diff, sizeof(unsigned), cudaMemcpyDeviceToHost));
    float d = 0.f;
    std::memcpy(&d, &bits, sizeof(float));
    return d;
  }
};

// DRAM and L2 bytes of one launch from the counters; NaN where unavailable.
inline std::pair<double, double> dram_and_l2_bytes(csrgat::profiler::CounterSession& counters,
                                                   const csrgat::profiler::CounterLaunchFn& launch) {
  double dram = NAN, lts = NAN;
  if (counters.available()) {
    const csrgat::profiler::CounterResult c = counters.collect(launch);
    dram = csrgat::profiler::dram_bytes(c);
    if (c.values.count("lts__t_bytes.sum")) lts = c.values.at("lts__t_bytes.sum");
  }
  return {dram, lts};
}

// Writes a probe's JSON: 0, or 1 (said on stderr) when the file cannot be written.
inline int write_probe_json(const nlohmann::json& out, const std::string& path, const char* tool) {
  std::ofstream f(path);
  f << out.dump(1) << "\n";
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", tool, path.c_str());
    return 1;
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

// The probes' cold timing: L2 flushed before each of at most `samples` samples, `seconds` in all.
inline csrgat::profiler::TimingOptions cold_timing(int samples, double seconds) {
  csrgat::profiler::TimingOptions opt;
  opt.cache = csrgat::profiler::CacheMode::cold;
  opt.stop.max_samples = samples;
  opt.stop.max_seconds = seconds;
  return opt;
}
// A configuration's JSON record starts with its timing: the timer, median, quartiles and samples.
inline nlohmann::json timing_fields(const csrgat::profiler::TimingResult& t) {
  return {{"timer", t.timer},
          {"median_us", t.gpu.median},
          {"q1_us", t.gpu.q1},
          {"q3_us", t.gpu.q3},
          {"n", t.gpu.n}};
}

// A probe's start: the device's name, SMs, L2 and driver on stdout; then, for its counter
// session, why the counters are unavailable when they are.
inline csrgat::profiler::DeviceInfo announce_device(csrgat::profiler::Timer& timer, int device) {
  const csrgat::profiler::DeviceInfo info = csrgat::profiler::device_info(device, timer.nvml());
  std::printf("device %d: %s, %d SMs, L2 %.1f MB, driver %s\n", device, info.name.c_str(),
              info.sm_count, info.l2_bytes / 1e6, info.driver.c_str());
  return info;
}
inline void say_if_unavailable(const csrgat::profiler::CounterSession& counters) {
  if (!counters.available())
    std::printf("counters unavailable: %s\n", counters.why_unavailable().c_str());
}

// main's end for a probe: 3 without a CUDA device, 1 when run throws (said on stderr), else
// what run returns.
inline int run_probe(const char* tool, const std::function<int()>& run) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "%s: no CUDA device\n", tool);
    return 3;
  }
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
    return 1;
  }
}

// The whole main of a probe whose only arguments are <out.json> [--device N]: 64 with a usage line
// on bad arguments, else run_probe's status for run(out_path, device).
inline int simple_probe_main(int argc, char** argv, const char* tool,
                             const std::function<int(const std::string&, int)>& run) {
  std::string out_path;
  int device = 0;
  bool bad = false;
  for (int i = 1; i < argc && !bad; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc)
      device = std::atoi(argv[++i]);
    else if (a.rfind("--", 0) == 0 || !out_path.empty())
      bad = true;
    else
      out_path = a;
  }
  if (bad || out_path.empty()) {
    std::fprintf(stderr, "usage: %s <out.json> [--device N]\n", tool);
    return 64;
  }
  return run_probe(tool, [&] { return run(out_path, device); });
}

}  // namespace csrgat::probe
