// Baselines the fused family is measured against, in the same lab so that every report can
// compare in one run.
//
// csrgat_seed: the seed design. One thread block per (row, head), one thread per feature
// (blockDim.x = F, so F <= 1024), the row's softmax weights staged in dynamic shared memory
// (degree floats). Known failure: a row whose weights do not fit in shared memory cannot run;
// the host reports that as "unsupported" before launching.
//
// csrgat_segment_softmax: the first half of the cuSPARSE baseline. One warp per (row, head)
// writes the normalised softmax weights, head-major: weights[h * E + e], so each head's weights
// are the value array of a CSR matrix that cusparseSpMM multiplies with the values.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "variants/kernel_args.h"

namespace csrgat::base {

template <class T>
__device__ __forceinline__ float to_f(T x) { return static_cast<float>(x); }
template <>
__device__ __forceinline__ float to_f<__nv_bfloat16>(__nv_bfloat16 x) { return __bfloat162float(x); }
template <>
__device__ __forceinline__ float to_f<__half>(__half x) { return __half2float(x); }

__device__ __forceinline__ float ninf() { return __int_as_float(0xff800000); }

// Block-wide reduction through shared scratch of 32 floats; every thread gets the result.
template <bool IsMax>
__device__ __forceinline__ float block_reduce(float x, float* scratch) {
  for (int off = 16; off > 0; off /= 2) {
    const float o = __shfl_xor_sync(0xffffffffu, x, off);
    x = IsMax ? fmaxf(x, o) : x + o;
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int nwarps = (blockDim.x + 31) / 32;
  __syncthreads();
  if (lane == 0) scratch[warp] = x;
  __syncthreads();
  float r = IsMax ? ninf() : 0.f;
  for (int w = 0; w < nwarps; ++w) r = IsMax ? fmaxf(r, scratch[w]) : r + scratch[w];
  return r;
}

}  // namespace csrgat::base

// grid: (N * H) blocks; block: F threads (rounded up to a warp); dynamic smem: max degree floats.
template <class Index, class Value>
__global__ void csrgat_seed(const csrgat::KernelArgs a) {
  extern __shared__ float weights[];
  __shared__ float scratch[32];
  const long long H = a.heads, F = a.feat;
  const long long row = blockIdx.x / static_cast<unsigned>(H);
  const int h = static_cast<int>(blockIdx.x % static_cast<unsigned>(H));
  const Index* rp = static_cast<const Index*>(a.row_ptr);
  const Index* col = static_cast<const Index*>(a.col);
  const Value* values = static_cast<const Value*>(a.values);
  const long long eb = rp[row], deg = rp[row + 1] - eb;

  float m = csrgat::base::ninf();
  for (long long i = threadIdx.x; i < deg; i += blockDim.x) {
    const float s = a.scores[(eb + i) * H + h];
    weights[i] = s;
    m = fmaxf(m, s);
  }
  m = csrgat::base::block_reduce<true>(m, scratch);
  float l = 0.f;
  for (long long i = threadIdx.x; i < deg; i += blockDim.x) {
    const float w = weights[i] == csrgat::base::ninf() ? 0.f : __expf(weights[i] - m);
    weights[i] = w;
    l += w;
  }
  l = csrgat::base::block_reduce<false>(l, scratch);
  const float inv = l > 0.f ? 1.f / l : 0.f;
  __syncthreads();
  const long long f = threadIdx.x;
  if (f >= F) return;
  float acc = 0.f;
  for (long long i = 0; i < deg; ++i)
    acc += weights[i] * csrgat::base::to_f(values[static_cast<long long>(col[eb + i]) * H * F + h * F + f]);
  static_cast<float*>(a.out)[(row * H + h) * F + f] = acc * inv;  // float32 out only
}

// grid: ceil(N * H / 8) blocks of 256 threads, one warp per (row, head). out = weights (H, E).
template <class Index>
__global__ void csrgat_segment_softmax(const csrgat::KernelArgs a) {
  const long long H = a.heads;
  const unsigned task = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (task >= a.num_rows * H) return;
  const long long row = task / static_cast<unsigned>(H);
  const int h = static_cast<int>(task % static_cast<unsigned>(H));
  const Index* rp = static_cast<const Index*>(a.row_ptr);
  const long long eb = rp[row], ee = rp[row + 1];
  const long long E = rp[a.num_rows];
  float m = csrgat::base::ninf();
  for (long long e = eb + lane; e < ee; e += 32) m = fmaxf(m, a.scores[e * H + h]);
  for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float l = 0.f;
  for (long long e = eb + lane; e < ee; e += 32) {
    const float s = a.scores[e * H + h];
    l += s == csrgat::base::ninf() ? 0.f : __expf(s - m);
  }
  for (int off = 16; off > 0; off /= 2) l += __shfl_xor_sync(0xffffffffu, l, off);
  const float inv = l > 0.f ? 1.f / l : 0.f;
  float* w = static_cast<float*>(a.out) + h * E;
  for (long long e = eb + lane; e < ee; e += 32) {
    const float s = a.scores[e * H + h];
    w[e] = s == csrgat::base::ninf() ? 0.f : __expf(s - m) * inv;
  }
}
