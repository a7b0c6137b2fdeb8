// A cudaMalloc'd device buffer, freed on every path out (zero-filled on request): the profiler's
// ceilings, prof_check and the tuner's colblock plan share it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "profiler/check.h"

namespace csrgat::profiler {

struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(size_t bytes, bool zeroed = false) {
    CSRGAT_CUDA_CHECK(cudaMalloc(&ptr, bytes));
    if (!zeroed) return;
    if (const cudaError_t e = cudaMemset(ptr, 0, bytes); e != cudaSuccess) {
      cudaFree(ptr);  // the destructor of an object whose constructor throws never runs
      ptr = nullptr;
      detail::throw_api_error("cudaMemset(ptr, 0, bytes)", detail::cuda_error_text(e), __FILE__,
                              __LINE__);
    }
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

}  // namespace csrgat::profiler
