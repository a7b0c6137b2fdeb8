#include "tuner/device_compare.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include <stdexcept>
#include <string>

#include "profiler/check.h"
#include "variants/compare_rule.h"

namespace csrgat::tuner {
namespace {

constexpr int kBlocks = 528;  // 4 per SM of an H200; fixed, so the sums' order is too
constexpr int kThreads = 256;

// Element i of out, stored as float32 (S 0), bfloat16 (1) or float16 (2).
template <int S>
__device__ __forceinline__ float out_element(const void* out, long long i) {
  if constexpr (S == 0) return static_cast<const float*>(out)[i];
  const unsigned short b = static_cast<const unsigned short*>(out)[i];
  if constexpr (S == 1) return __bfloat162float(__ushort_as_bfloat16(b));
  return __half2float(__ushort_as_half(b));
}

template <int S>
__global__ void compare_kernel(const void* __restrict__ out, const double* __restrict__ ref,
                               long long n, ElementBound bound, ComparisonSums* __restrict__ sums) {
  ComparisonSums mine;
  // Each thread walks its elements in increasing order, so its first bad one is its lowest.
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    add_element(mine, i, out_element<S>(out, i), ref[i], bound);
  // ComparisonSums has default member initializers, which __shared__ variables may not run:
  // one array per field.
  __shared__ double s_diff[kThreads];
  __shared__ long long s_bad[kThreads], s_nan[kThreads], s_first[kThreads];
  const int t = threadIdx.x;
  s_diff[t] = mine.diff_sq;
  s_bad[t] = mine.bad;
  s_nan[t] = mine.nan;
  s_first[t] = mine.first_bad;
  __syncthreads();
  // A fixed tree: the same additions in the same order on every run.
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (t < w) {
      s_diff[t] += s_diff[t + w];
      s_bad[t] += s_bad[t + w];
      s_nan[t] += s_nan[t + w];
      s_first[t] = first_index(s_first[t], s_first[t + w]);
    }
    __syncthreads();
  }
  if (t == 0) {
    ComparisonSums block;
    block.diff_sq = s_diff[0];
    block.bad = s_bad[0];
    block.nan = s_nan[0];
    block.first_bad = s_first[0];
    sums[blockIdx.x] = block;
  }
}

}  // namespace

float widen_out_element(const unsigned char* raw, int out_storage) {
  if (out_storage == 0) {
    float f;
    std::memcpy(&f, raw, 4);
    return f;
  }
  const unsigned short b = static_cast<unsigned short>(raw[0] | raw[1] << 8);
  if (out_storage == 1) {  // a bfloat16 is a float32's upper half
    const uint32_t w = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  __half_raw r;
  r.x = b;
  return __half2float(__half(r));
}

std::vector<float> widen_output(const void* host_out, size_t n, int out_storage) {
  std::vector<float> w(n);
  const auto* p = static_cast<const unsigned char*>(host_out);
  const size_t bytes = out_storage == 0 ? 4 : 2;
  for (size_t i = 0; i < n; ++i) w[i] = widen_out_element(p + i * bytes, out_storage);
  return w;
}

DeviceReference::DeviceReference(const std::vector<double>& ref) : norm_(reference_norm(ref)) {
  try {
    CSRGAT_CUDA_CHECK(cudaMalloc(&partials_, kBlocks * sizeof(ComparisonSums)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&ref_, std::max<size_t>(ref.size(), 1) * sizeof(double)));
    CSRGAT_CUDA_CHECK(cudaMemcpy(ref_, ref.data(), ref.size() * sizeof(double), cudaMemcpyHostToDevice));
  } catch (...) {
    cudaFree(ref_);  // the destructor does not run for a constructor that throws
    cudaFree(partials_);
    throw;
  }
}

DeviceReference::~DeviceReference() {
  cudaFree(ref_);
  cudaFree(partials_);
}

Comparison DeviceReference::compare(const void* out, int out_storage, double rel_tol) const {
  if (out_storage < 0 || out_storage > 2)
    throw std::invalid_argument("DeviceReference::compare: out storage " +
                                std::to_string(out_storage));
  const ElementBound bound{norm_.rms, norm_.norm == 0, rel_tol};
  auto* sums = static_cast<ComparisonSums*>(partials_);
  if (out_storage == 0)
    compare_kernel<0><<<kBlocks, kThreads>>>(out, ref_, norm_.n, bound, sums);
  else if (out_storage == 1)
    compare_kernel<1><<<kBlocks, kThreads>>>(out, ref_, norm_.n, bound, sums);
  else
    compare_kernel<2><<<kBlocks, kThreads>>>(out, ref_, norm_.n, bound, sums);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
  std::vector<ComparisonSums> h(kBlocks);
  CSRGAT_CUDA_CHECK(cudaMemcpy(h.data(), sums, kBlocks * sizeof(ComparisonSums), cudaMemcpyDeviceToHost));
  ComparisonSums total;
  for (const ComparisonSums& b : h) merge_sums(total, b);  // in block order
  float got = 0;
  double want = 0;
  if (total.first_bad >= 0) {
    const size_t bytes = out_storage == 0 ? 4 : 2;
    unsigned char raw[4] = {};
    CSRGAT_CUDA_CHECK(cudaMemcpy(raw,
                                 static_cast<const unsigned char*>(out) + total.first_bad * bytes,
                                 bytes, cudaMemcpyDeviceToHost));
    got = widen_out_element(raw, out_storage);
    CSRGAT_CUDA_CHECK(cudaMemcpy(&want, ref_ + total.first_bad, sizeof(double), cudaMemcpyDeviceToHost));
  }
  return decide_comparison(total, norm_, rel_tol, got, want);
}

}  // namespace csrgat::tuner
