// tuner bench's `colblock` implementation: the column-blocked sweep (variants/colblock.cuh) of a
// DRAM-bound graph, in the probe's best configuration (thirty-third and thirty-fourth sessions):
// a persistent grid of 5 blocks of 4 warps an SM, R = 19 rows a warp (10 accumulated in
// registers), partitions of 2^16 sources (33.6 MB at F = 128), lag 8, a ring of 8 bulk copies
// a warp. A plan (each warp batch's edges in partition order, 8 bytes an edge) is built once, on
// the device; a call zeroes the barrier's counters and launches the kernel.
// F = 128, one head, float32 values, int32 structure, n < 2^24, sm_90 or later; outside the
// tuner's enumerated family (nvcc-compiled, not NVRTC): measured beside it, not yet dispatched.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "graphs/csr.h"

namespace csrgat::tuner {

struct ColblockOptions {
  // R 19 at 2^16 sources and lag 8 (thirty-fourth session, call 11: 1.0% faster than the
  // thirty-third session's R 20 at 2^15 and lag 15; R 19's 5 blocks fit the 196 KB shared-memory
  // carveout, so the L1 keeps more of the batches' scores).
  int rows_per_warp = 19;      // R (the compiled instance holds 10 of them in registers)
  int part_shift = 16;         // S = 2^16 sources a partition (33.6 MB at F = 128)
  int lag = 8;                 // partitions a warp may run ahead of the slowest
  int poll_pause_ns = 4096;    // the barrier's first sleep after a failed poll
  int spin_limit = 5000;       // polls before a warp stops waiting (counted in timeouts)
  bool plan_on_device = true;  // build_plan_on_device; false: variants/colblock_plan.h's, uploaded
};

// The plan of variants/colblock_plan.h (each batch of rows_per_warp rows' edges permuted in place
// into stable source-partition order, 8 bytes an edge) built on the device from the graph's
// int32 device arrays into `plan` (E items), on stream s: the same items as build_plan, by a
// stable segmented sort (CUB) keyed by partition. Temporary device memory: 16 bytes an edge plus
// CUB's. Synchronises s. Throws std::invalid_argument naming the first out-of-range source
// (col[k] = v) or decreasing row_ptr it finds, or a row_ptr that does not run from 0 to E;
// csrgat::profiler::ApiError on a CUDA error.
void build_plan_on_device(const int* row_ptr, const int* col, int64_t n, int64_t e,
                          int rows_per_warp, int part_shift, void* plan, cudaStream_t s = nullptr);

// `device` is queried for its limits; the plan and the counters are allocated, and the kernel
// launched, on the current device (make it `device`). One instance's launches must not overlap
// each other (they share the barrier's counters): launch it on one stream.
class ColblockKernel {
 public:
  // Why this problem cannot run ("" when it can): F, heads, value storage, graph size, device.
  static std::string unsupported(const graphs::Csr64& g, int heads, int feat, bool f32_values,
                                 int device, const ColblockOptions& o = {});
  // Plans g (on the device from row_ptr and col, or on the host from g: o.plan_on_device);
  // row_ptr and col (int32, g's structure), scores, values and out are the caller's device
  // buffers. Throws std::invalid_argument when unsupported() says why or the plan finds the
  // structure invalid, csrgat::profiler::ApiError on a CUDA error.
  ColblockKernel(const graphs::Csr64& g, const int* row_ptr, const int* col, const float* scores,
                 const float* values, float* out, int device, const ColblockOptions& o = {});
  ~ColblockKernel();
  ColblockKernel(const ColblockKernel&) = delete;
  ColblockKernel& operator=(const ColblockKernel&) = delete;

  // One call on s: the barrier's counters zeroed, then the kernel.
  void launch(cudaStream_t s) const;
  // The barrier's waits given up since construction (synchronises the device).
  unsigned timeouts() const;
  // The geometry (blocks, warps, batches, partitions, x = rows on chip x degree / n), the plan's
  // build time and bytes, and timeouts().
  nlohmann::json describe() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace csrgat::tuner
