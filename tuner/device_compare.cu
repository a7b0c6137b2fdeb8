#include "tuner/device_compare.h"

#include <cmath>

#include "profiler/check.h"
#include "variants/compare_rule.h"

namespace csrgat::tuner {
namespace {

constexpr int kBlocks = 528;  // 4 per SM of an H200; fixed, so the sums' order is too
constexpr int kThreads = 256;

struct BlockSums {
  double diff_sq;
  long long bad;
  long long nan;
  long long first_bad;  // -1: none
};

__global__ void compare_kernel(const float* __restrict__ out, const double* __restrict__ ref,
                               long long n, ElementBound bound, BlockSums* __restrict__ sums) {
  double diff_sq = 0;
  long long bad = 0, nan = 0, first = -1;
  // Each thread walks its elements in increasing order, so its first bad one is its lowest.
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double got = out[i];
    bool is_bad;
    if (!isfinite(got)) {
      ++nan;
      is_bad = true;
    } else {
      const double d = got - ref[i];
      diff_sq += d * d;
      is_bad = outside_bound(got, ref[i], bound);
    }
    if (is_bad) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  __shared__ double s_diff[kThreads];
  __shared__ long long s_bad[kThreads], s_nan[kThreads], s_first[kThreads];
  const int t = threadIdx.x;
  s_diff[t] = diff_sq;
  s_bad[t] = bad;
  s_nan[t] = nan;
  s_first[t] = first;
  __syncthreads();
  // A fixed tree: the same additions in the same order on every run.
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (t < w) {
      s_diff[t] += s_diff[t + w];
      s_bad[t] += s_bad[t + w];
      s_nan[t] += s_nan[t + w];
      const long long a = s_first[t], b = s_first[t + w];
      s_first[t] = a < 0 ? b : (b < 0 ? a : (a < b ? a : b));
    }
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = BlockSums{s_diff[0], s_bad[0], s_nan[0], s_first[0]};
}

}  // namespace

DeviceReference::DeviceReference(const std::vector<double>& ref) : norm_(reference_norm(ref)) {
  try {
    CSRGAT_CUDA_CHECK(cudaMalloc(&partials_, kBlocks * sizeof(BlockSums)));
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

Comparison DeviceReference::compare(const float* out, double rel_tol) const {
  const ElementBound bound{norm_.rms, norm_.norm == 0, rel_tol};
  auto* sums = static_cast<BlockSums*>(partials_);
  compare_kernel<<<kBlocks, kThreads>>>(out, ref_, norm_.n, bound, sums);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
  std::vector<BlockSums> h(kBlocks);
  CSRGAT_CUDA_CHECK(cudaMemcpy(h.data(), sums, kBlocks * sizeof(BlockSums), cudaMemcpyDeviceToHost));
  ComparisonSums total;
  for (const BlockSums& b : h) {
    total.diff_sq += b.diff_sq;
    total.bad += b.bad;
    total.nan += b.nan;
    if (b.first_bad >= 0 && (total.first_bad < 0 || b.first_bad < total.first_bad)) total.first_bad = b.first_bad;
  }
  float got = 0;
  double want = 0;
  if (total.first_bad >= 0) {
    CSRGAT_CUDA_CHECK(cudaMemcpy(&got, out + total.first_bad, sizeof(float), cudaMemcpyDeviceToHost));
    CSRGAT_CUDA_CHECK(cudaMemcpy(&want, ref_ + total.first_bad, sizeof(double), cudaMemcpyDeviceToHost));
  }
  return decide_comparison(total, norm_, rel_tol, got, want);
}

}  // namespace csrgat::tuner
