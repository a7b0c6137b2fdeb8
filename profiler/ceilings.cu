// Kernels behind the measured ceilings (ceilings.cpp), after the Empirical Roofline Toolkit:
// a streaming copy for DRAM, an L2-resident ping-pong copy for L2, random row gathers from an
// L2-resident matrix, independent FMA chains for FP32, and an empty kernel for launch latency.
#include "profiler/check.h"
#include "profiler/kernels.h"

namespace csrgat::profiler::detail {

namespace {

// src, dst: (n4) float4. 16 bytes read and 16 written per element.
__global__ void copy_f4_kernel(const float4* __restrict__ src, float4* __restrict__ dst,
                               size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void read_f4_kernel(const float4* __restrict__ src, size_t n4, float* sink) {
  constexpr int U = read_unroll;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float acc = 0.0f;
  for (; i + (U - 1) * stride < n4; i += U * stride) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = src[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += stride) acc += (src[i].x + src[i].y) + (src[i].z + src[i].w);
  if (acc == -1.0f) sink[blockIdx.x] = acc;
}

// a, b: (n4) float4, both L2-resident. Passes alternate direction so each pass reads what the
// previous one wrote; without grid-wide sync the values race, which a bandwidth test ignores.
__global__ void copy_l2_kernel(float4* a, float4* b, size_t n4, int reps) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int r = 0; r < reps; ++r) {
    const float4* src = (r & 1) ? b : a;
    float4* dst = (r & 1) ? a : b;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += stride)
      __stcg(dst + i, __ldcg(src + i));
  }
}

// A group of gather_row_f4 lanes takes gather_ilp consecutive entries of idx at a time: the
// row numbers (one broadcast load per entry), then the rows, all gather_ilp in flight.
__global__ void gather_l2_kernel(const float4* __restrict__ rows, const int* __restrict__ idx,
                                 size_t edges, int reps, float* sink) {
  constexpr int G = gather_row_f4, U = gather_ilp;
  const size_t thread = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t group = thread / G, groups = size_t(gridDim.x) * blockDim.x / G;
  const int lane = static_cast<int>(thread % G);
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int r = 0; r < reps; ++r) {
    for (size_t e0 = group * U; e0 < edges; e0 += groups * U) {
      int c[U];
#pragma unroll
      for (int u = 0; u < U; ++u) c[u] = e0 + u < edges ? __ldcg(idx + e0 + u) : -1;
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u)
        v[u] = c[u] >= 0 ? __ldcg(rows + static_cast<size_t>(c[u]) * G + lane)
                         : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
      for (int u = 0; u < U; ++u) {
        acc.x += v[u].x;
        acc.y += v[u].y;
        acc.z += v[u].z;
        acc.w += v[u].w;
      }
    }
  }
  if (acc.x + acc.y + acc.z + acc.w == -1.0f) sink[blockIdx.x] = acc.x;
}

// fma_chains independent chains per thread: enough ILP to keep every FP32 lane busy with a full
// SM of warps. x -> x * a + b converges to b / (1 - a), so values stay normal.
__global__ void fma_kernel(float* sink, int iters, float a, float b) {
  float x[fma_chains];
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) x[c] = 1.0f + 1e-3f * float(threadIdx.x + c);
#pragma unroll 16
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < fma_chains; ++c) x[c] = fmaf(x[c], a, b);
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) s += x[c];
  if (s == -1.0f) sink[blockIdx.x] = s;
}

__global__ void empty_kernel() {}

__global__ void empty_overlapped_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace

void launch_copy_f4(const float4* src, float4* dst, size_t n4, int grid, int block,
                    cudaStream_t stream) {
  copy_f4_kernel<<<grid, block, 0, stream>>>(src, dst, n4);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_read_f4(const float4* src, size_t n4, float* sink, int grid, int block,
                    cudaStream_t stream) {
  read_f4_kernel<<<grid, block, 0, stream>>>(src, n4, sink);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_copy_l2(float4* a, float4* b, size_t n4, int reps, int grid, int block,
                    cudaStream_t stream) {
  copy_l2_kernel<<<grid, block, 0, stream>>>(a, b, n4, reps);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_gather_l2(const float4* rows, const int* idx, size_t edges, int reps, float* sink,
                      int grid, int block, cudaStream_t stream) {
  gather_l2_kernel<<<grid, block, 0, stream>>>(rows, idx, edges, reps, sink);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_fma(float* sink, int iters, int grid, int block, cudaStream_t stream) {
  fma_kernel<<<grid, block, 0, stream>>>(sink, iters, 0.999999f, 1e-6f);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

// (profiler/ uses nothing of the project's: variants/launch.h's OverlapLaunchConfig is the
// library's copy of this configuration.)
void launch_empty_overlapped(cudaStream_t stream) {
  int dev = 0, major = 0;
  CSRGAT_CUDA_CHECK(cudaGetDevice(&dev));
  CSRGAT_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = major >= 9;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(1);
  cfg.stream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CSRGAT_CUDA_CHECK(cudaLaunchKernelEx(&cfg, empty_overlapped_kernel));
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace csrgat::profiler::detail
