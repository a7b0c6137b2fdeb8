// Test kernels for tests/gpu/test_profiler.cpp.
#include "profiler/check.h"

#include <cuda_runtime_api.h>

namespace csrgat::profiler_test {

namespace {

// src, dst: (n4) float4; 32 bytes of DRAM traffic per element when neither fits in L2.
__global__ void copy_f4_kernel(const float4* __restrict__ src, float4* __restrict__ dst,
                               size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void empty_kernel() {}

}  // namespace

void launch_copy_f4(const float4* src, float4* dst, size_t n4, int grid, cudaStream_t stream) {
  copy_f4_kernel<<<grid, 256, 0, stream>>>(src, dst, n4);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace csrgat::profiler_test
