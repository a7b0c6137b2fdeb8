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

class DeviceReference {
 public:
  // Uploads ref (float64) and computes its norm once.
  explicit DeviceReference(const std::vector<double>& ref);
  ~DeviceReference();
  DeviceReference(const DeviceReference&) = delete;
  DeviceReference& operator=(const DeviceReference&) = delete;

  // out (device, as many floats as the reference) against it, on the default stream (synchronised
  // on return): compare_to_reference's verdict, sums and summary. Throws ApiError on a CUDA error.
  Comparison compare(const float* out, double rel_tol) const;
  const ReferenceNorm& norm() const { return norm_; }

 private:
  ReferenceNorm norm_;
  double* ref_ = nullptr;
  void* partials_ = nullptr;  // one ComparisonSums per block
};

}  // namespace csrgat::tuner
