// The column-blocked sweep (variants/colblock.cuh) as the production library runs it, and as the
// tuner times it (`colblock.*` variant ids, tuner bench --impl colblock): a plan built once per
// graph on the device, a persistent grid sized for the device, and a launch that zeroes the
// soft barrier's counters and starts the kernel. nvcc-built (sm_90 or later), not an NVRTC
// cubin: bulk copies, mbarrier transaction counts and CUB's segmented sort for the plan.
//
// Limits: F = 128, one head, float32 or bfloat16 values (accumulated in float32; out is float32),
// int32 structure, n < 2^24 (unsupported() says which one a problem fails); values and out
// 16-byte aligned (Sweep::launch refuses others). Its grid is one wave of every SM: a launch
// whose blocks are not all resident at once (other kernels on the GPU, an MPS limit) stays
// correct but waits up to spin_limit polls before its warps stop pacing each other.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "csrgat/tuned_types.h"
#include "variants/colblock_plan.h"

namespace csrgat::colblock {

// The kernel's compiled geometry (the thirty-third session's probe): a ring of bulk copies a
// warp in groups of 4 (bfloat16: 8, the fifty-fifth session), kRegisterRows (10,
// variants/colblock_plan.h) of a warp's rows in registers, 5 blocks of 4 warps an SM.
constexpr int kWarpsPerBlock = 4;

// What a launch may choose: the tuner's `.r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma]` and the spin
// limit.
struct Geometry {
  int rows_per_warp = 19;    // R, kRegisterRows to kMaxRowsPerWarp
  int part_shift = 16;       // partitions of 2^S sources (33.6 MB of values at F = 128)
  int lag = 8;               // partitions a warp may run ahead of the slowest, 1 to 31
  // The barrier's first sleep after a failed poll, ns; 0: the value storage's default
  // (poll_pause_ns_for: float32 4096, bfloat16 1024).
  int poll_pause_ns = 0;
  // The L1 policy of the items' and scores' loads (`.l1p<N>`, variants/colblock.cuh's
  // kMaxL1Policy): 0 as measured since the thirty-fourth session; 1 the items by the read-only
  // path (2's control); 2 the items bypass L1; 3 as 2, and the scores stay in L1 at evict_last
  // priority. 1 to 3: float32 values only.
  int l1_policy = 0;
  // The sweep's adds on the tensor cores (`.mma`: variants/colblock.cuh's mma_gather, bfloat16
  // values only, rows_per_warp at most kMmaMaxRowsPerWarp, 3 blocks of 4 warps an SM): a group of
  // 16 gathered rows is one m16n8k16 product with the weights. false: tma_gather's FFMA adds.
  bool tensor_cores = false;
  int spin_limit = 5000;     // polls before a warp stops waiting (counted in timeouts)
};

// A tuned rule's sweep (its colblock_* fields, for a rule with colblock_rows > 0; the spin limit
// at its default): what the library runs for that rule. The header's colblock_id names the same
// geometry (tests/unit's TunedHeaderSweepsAreTheirIds checks the committed header).
inline Geometry rule_geometry(const tuned::Rule& r) {
  Geometry g;
  g.rows_per_warp = r.colblock_rows;
  g.part_shift = r.colblock_part_shift;
  g.lag = r.colblock_lag;
  if (r.colblock_pause_ns > 0) g.poll_pause_ns = r.colblock_pause_ns;
  g.l1_policy = r.colblock_l1_policy;
  g.tensor_cores = r.colblock_tensor_cores != 0;
  return g;
}

// A failed CUDA call of the launcher: the runtime's error, and the call in what().
class CudaFailure : public std::runtime_error {
 public:
  CudaFailure(cudaError_t e, const std::string& what) : std::runtime_error(what), error(e) {}
  cudaError_t error;
};

// A problem or device the sweep cannot take (what() says why: unsupported()'s reasons, or no
// block fitting an SM); the plan's input errors are std::invalid_argument.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Value storage codes, as tuned::Rule's: 0 float32, 1 bfloat16 (2, float16, is not taken).
constexpr int kFloat32 = 0, kBfloat16 = 1;

// A warp's ring: the source rows it has in flight, 8 of 512 bytes (float32) or 16 of 256
// (bfloat16): 4 KB of shared memory either way. A sweep's bandwidth is its bytes in flight over
// their latency (thirty-fifth session, call 4: with 8 bfloat16 rows a warp the sweep issued 58%
// of the time and used 54% of L2 and DRAM, 6.07 ms against float32's 6.83).
constexpr int ring_slots(int value) {
  return value == kBfloat16 ? 16 : 8;
}

// Why a graph of n nodes and e edges with this F, H and value storage cannot run with geometry
// g ("" when it can): the kernel's limits and the geometry's ranges, whatever the device (the
// tuner's selection asks it of stored problems).
std::string problem_unsupported(int64_t n, int64_t e, int heads, int feat, int value,
                                const Geometry& g);
// problem_unsupported(), and then `device` (sm_90 or later, and this build's code for it).
// Throws CudaFailure when the device cannot be asked.
std::string unsupported(int64_t n, int64_t e, int heads, int feat, int value, int device,
                        const Geometry& g);

// The compiled kernel's attributes (registers, shared memory) for this value storage, L1 policy
// and adds on the current device (throws CudaFailure; Unsupported for a choice not compiled).
cudaFuncAttributes kernel_attributes(int value = kFloat32, int l1_policy = 0,
                                     bool tensor_cores = false);

// The plan of variants/colblock_plan.h built on the device from the graph's int32 device arrays
// into `plan` (e PlanItems), on stream s: the same items as build_plan, by a stable segmented
// sort (CUB) keyed by partition. Temporary device memory: 16 bytes an edge plus CUB's.
// Synchronises s. Throws std::invalid_argument naming the first out-of-range source (col[k] = v)
// or decreasing row_ptr it finds, or a row_ptr that does not run from 0 to e; CudaFailure on a
// CUDA error.
void build_plan_on_device(const int* row_ptr, const int* col, int64_t n, int64_t e,
                          int rows_per_warp, int part_shift, void* plan, cudaStream_t s = nullptr);

// One graph's sweep on one device (the current device at construction): its plan, its barrier's
// counters and its grid. Its launches share the counters: enqueue them on one stream (or order
// their streams), as a csrgat::Shape's.
class Sweep {
 public:
  // Plans the graph (int32 device row_ptr and col, complete when it is called: it reads them on
  // the legacy default stream) on the device. Throws Unsupported when unsupported() says why or
  // no block fits an SM, std::invalid_argument when the plan finds the structure invalid,
  // CudaFailure on a CUDA error (cudaErrorMemoryAllocation when the plan, 8 bytes an edge, or
  // its build's temporary 16 bytes an edge do not fit).
  // value: the storage of the values its launches take (kFloat32, kBfloat16).
  Sweep(const int* row_ptr, const int* col, int64_t n, int64_t e, const Geometry& g,
        int value = kFloat32);
  // The same from a plan built on the host (build_plan, the reference), uploaded.
  Sweep(const int* row_ptr, const std::vector<PlanItem>& host_plan, int64_t n, const Geometry& g,
        int value = kFloat32);
  ~Sweep();
  Sweep(const Sweep&) = delete;
  Sweep& operator=(const Sweep&) = delete;

  // One call on s: the barrier's counters zeroed, then the kernel over scores (E), values ((n,
  // 128) of the Sweep's storage) and out ((n, 128) float32), both 16-byte aligned
  // (cudaErrorInvalidValue, nothing launched, when one is not). Returns the first failed call's
  // error.
  cudaError_t launch(const float* scores, const void* values, float* out, cudaStream_t s) const;
  // The barrier's waits given up since construction (synchronises the device; throws
  // CudaFailure).
  unsigned timeouts() const;

  struct Info {
    int blocks = 0;
    size_t smem_per_block = 0;
    int partitions = 0, batches = 0;
    double x = 0;  // rows on chip x mean degree / n: a batch's gathers of each source
    size_t plan_bytes = 0;
    double plan_seconds = 0;
    bool plan_on_device = true;
    std::string kernel;  // the instance it launches (its mangled name: value type, L1 policy)
  };
  const Info& info() const;
  const Geometry& geometry() const;
  const int* row_ptr() const;  // the arrays it planned (col: null for a host plan)
  const int* col() const;
  int device() const;
  int value() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace csrgat::colblock
