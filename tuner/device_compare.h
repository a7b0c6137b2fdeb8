// A problem's output checked against its float64 reference on the GPU: the element test of
// compare_to_reference (variants/compare_rule.h) in a kernel, whose per-block sums the host adds
// in block order (the same result every time). What it saves is the copy of the output to the
// host and the host's pass over it: ~40 ms a trial on pubmed with 8 heads (10M outputs), most
// of the fifteenth session's tuning run of it (perf-notes).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "variants/reference.h"

namespace csrgat::tuner {

// One output element's bytes (little-endian, 4 of float32 or 2 of a 16-bit storage) as a float.
float widen_out_element(const unsigned char* raw, int out_storage);
// n output elements stored as out_storage, widened to float32 (the host check's input).
std::vector<float> widen_output(const void* host_out, size_t n, int out_storage);

class DeviceReference {
 public:
  // Uploads ref (float64) and computes its norm once.
  explicit DeviceReference(const std::vector<double>& ref);
  ~DeviceReference();
  DeviceReference(const DeviceReference&) = delete;
  DeviceReference& operator=(const DeviceReference&) = delete;

  // out (device, as many elements as the reference, stored as out_storage says: 0 float32, 1
  // bfloat16, 2 float16, ValueType's order) against it, on the default stream (synchronised on
  // return): compare_to_reference's verdict, sums and summary. Throws ApiError on a CUDA error,
  // std::invalid_argument for another storage.
  Comparison compare(const void* out, int out_storage, double rel_tol) const;
  const ReferenceNorm& norm() const { return norm_; }

 private:
  ReferenceNorm norm_;
  double* ref_ = nullptr;
  void* partials_ = nullptr;  // one ComparisonSums per block
};

}  // namespace csrgat::tuner
