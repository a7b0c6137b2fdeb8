// tuner bench's `colblock` implementation: the production library's column-blocked sweep
// (csrgat/colblock.h: variants/colblock.cuh's kernel, a plan built once per graph, a persistent
// grid) bound to one problem's buffers, with the plan built on the device or, for the tests'
// reference, on the host. The tuner's `colblock.*` variants (tuner run) launch the same Sweep
// through DeviceProblem.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "csrgat/colblock.h"
#include "graphs/csr.h"
#include "variants/params.h"

namespace csrgat::tuner {

using colblock::build_plan_on_device;

// A colblock.* variant's geometry (its .r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma]), the spin limit
// at its default.
inline colblock::Geometry geometry_of(const VariantParams& p) {
  colblock::Geometry g;
  g.rows_per_warp = p.cb_rows;
  g.part_shift = p.cb_shift;
  g.lag = p.cb_lag;
  g.poll_pause_ns = p.cb_pause;
  g.l1_policy = p.cb_l1p;
  g.tensor_cores = p.cb_mma != 0;
  return g;
}

// The sweep's geometry (R 19 at 2^16 sources and lag 8 by default: the thirty-fourth session's
// call 11) and where its plan is built.
struct ColblockOptions : colblock::Geometry {
  bool plan_on_device = true;  // build_plan_on_device; false: variants/colblock_plan.h's, uploaded
  int value = colblock::kFloat32;  // the values' storage (colblock::kBfloat16)
};

// `device` is queried for its limits; the plan and the counters are allocated, and the kernel
// launched, on the current device (make it `device`). One instance's launches must not overlap
// each other (they share the barrier's counters): launch it on one stream.
class ColblockKernel {
 public:
  // Why this problem cannot run ("" when it can): F, heads, value storage (o.value), graph
  // size, device.
  static std::string unsupported(const graphs::Csr64& g, int heads, int feat, int device,
                                 const ColblockOptions& o = {});
  // Plans g (on the device from row_ptr and col, or on the host from g: o.plan_on_device);
  // row_ptr and col (int32, g's structure), scores, values and out are the caller's device
  // buffers. Throws colblock::Unsupported when unsupported() says why, std::invalid_argument
  // when the plan finds the structure invalid, colblock::CudaFailure on a CUDA error.
  ColblockKernel(const graphs::Csr64& g, const int* row_ptr, const int* col, const float* scores,
                 const void* values, float* out, int device, const ColblockOptions& o = {});
  ~ColblockKernel();
  ColblockKernel(const ColblockKernel&) = delete;
  ColblockKernel& operator=(const ColblockKernel&) = delete;

  // One call on s: the barrier's counters zeroed, then the kernel (throws ApiError).
  void launch(cudaStream_t s) const;
  // The barrier's waits given up since construction (synchronises the device).
  unsigned timeouts() const;
  // The geometry (blocks, warps, batches, partitions, x = rows on chip x degree / n), the plan's
  // build time and bytes, and timeouts().
  nlohmann::json describe() const;

 private:
  std::unique_ptr<colblock::Sweep> sweep_;
  const float* scores_;
  const void* values_;
  float* out_;
};

// A sweep's description, as describe() and the tuner's trials record it.
nlohmann::json describe(const colblock::Sweep& s);

}  // namespace csrgat::tuner
