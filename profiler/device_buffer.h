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
    if (zeroed) CSRGAT_CUDA_CHECK(cudaMemset(ptr, 0, bytes));
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
