#include "profiler/check.h"
#include "profiler/kernels.h"

namespace csrgat::profiler::detail {

namespace {

// buffer: (n4) uint4, zero-filled once at allocation; the sink branch never runs.
__global__ void l2_flush_kernel(const uint4* __restrict__ buffer, size_t n4) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = buffer[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) const_cast<uint4*>(buffer)[0].x = acc;
}

}  // namespace

void launch_l2_flush(const void* buffer, size_t bytes, int sm_count, cudaStream_t stream) {
  l2_flush_kernel<<<sm_count * 8, 256, 0, stream>>>(static_cast<const uint4*>(buffer),
                                                    bytes / sizeof(uint4));
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace csrgat::profiler::detail
