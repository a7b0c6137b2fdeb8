// The previous kernel of an overlapped-launch check (verify_after_late_producer): it lets the
// next kernel of the stream start at once (programmatic dependent launch), spins, then writes
// the true inputs and NaN over out. nvcc-compiled into the tuner (the checked variants are NVRTC's).
// The library's overlap test (tests/gpu/test_overlap.cu) uses it too.
#include "tuner/late_producer.h"

#include "profiler/check.h"
#include "variants/csrgat_fused.cuh"  // global_ns, pdl_launch_dependents
#include "variants/launch.h"

namespace csrgat::tuner {
namespace {

struct ProducerArgs {
  const uint4* src[2];
  uint4* dst[2];
  size_t bytes[2];
  float* out;
  size_t n_out;
  unsigned long long spin_ns;
};

__global__ void late_producer_kernel(const ProducerArgs a) {
  kern::pdl_launch_dependents();
  const unsigned long long t0 = kern::global_ns();
  while (kern::global_ns() - t0 < a.spin_ns) {
  }
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int c = 0; c < 2; ++c) {
    const size_t n16 = a.bytes[c] / 16;
    for (size_t i = first; i < n16; i += stride) a.dst[c][i] = a.src[c][i];
    if (first == 0)  // the last bytes past whole 16-byte units
      for (size_t b = n16 * 16; b < a.bytes[c]; ++b)
        reinterpret_cast<unsigned char*>(a.dst[c])[b] = reinterpret_cast<const unsigned char*>(a.src[c])[b];
  }
  for (size_t i = first; i < a.n_out; i += stride) a.out[i] = __int_as_float(0x7fffffff);
}

}  // namespace

void launch_late_producer(const LateCopy (&copies)[2], float* out, size_t n_out,
                          unsigned long long spin_ns, cudaStream_t s) {
  ProducerArgs a{};
  for (int c = 0; c < 2; ++c) {
    a.src[c] = static_cast<const uint4*>(copies[c].src);
    a.dst[c] = static_cast<uint4*>(copies[c].dst);
    a.bytes[c] = copies[c].bytes;
  }
  a.out = out;
  a.n_out = n_out;
  a.spin_ns = spin_ns;
  // Plain launch: it is the kernel that the next one overlaps.
  late_producer_kernel<<<132, 256, 0, s>>>(a);
  CSRGAT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace csrgat::tuner
