// The previous kernel of an overlapped-launch check (tuner/verify.h,
// verify_after_late_producer, and the library's overlap test).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace csrgat::tuner {

// bytes from src to dst (cudaMalloc'd buffers: 16-byte aligned).
struct LateCopy {
  const void* src = nullptr;
  void* dst = nullptr;
  size_t bytes = 0;
};

// Enqueues on s a kernel that lets the next kernel of the stream start at once, spins spin_ns,
// then makes both copies and writes NaN over out[0, n_out).
void launch_late_producer(const LateCopy (&copies)[2], float* out, size_t n_out,
                          unsigned long long spin_ns, cudaStream_t s);

}  // namespace csrgat::tuner
