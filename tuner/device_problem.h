// One problem instance on the device (graph structure, scores, values, output), and the
// launch of any variant on it: NVRTC cubins through the runtime API (cudaLibraryLoadData,
// cudaLibraryGetKernel, cudaLaunchKernel; no driver library linked), the cuSPARSE baseline
// through cuSPARSE.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "csrgat/colblock.h"
#include "graphs/csr.h"
#include "profiler/counters.h"
#include "tuner/device_compare.h"
#include "tuner/nvrtc_compiler.h"
#include "variants/kernel_args.h"
#include "variants/params.h"

namespace csrgat::tuner {

// True when a CUDA device can be used; otherwise `why` says what is missing.
bool gpu_available(std::string* why = nullptr);

// CUDA device `device`'s compute capability (major, minor), and the architecture NVRTC compiles
// for to run on it ("sm_90" on an H100 or H200): bench, profile and timeline compile for the GPU
// they time. Throws std::runtime_error when the device cannot be asked.
std::pair<int, int> device_capability(int device = 0);
std::string device_arch(int device = 0);

// A cubin loaded into the current context.
class LoadedKernel {
 public:
  explicit LoadedKernel(const CompiledKernel& k);
  ~LoadedKernel();
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  const void* function() const { return reinterpret_cast<const void*>(kernel_); }
  // The scalar twin for values rows the kernel's loads cannot take (null: none).
  const void* scalar_function() const { return reinterpret_cast<const void*>(scalar_kernel_); }
  int registers() const { return attrs_.numRegs; }
  int max_threads() const { return attrs_.maxThreadsPerBlock; }
  size_t static_smem() const { return attrs_.sharedSizeBytes; }
  size_t local_bytes() const { return attrs_.localSizeBytes; }
  // The device address of the module's global variable `name` (tuner timeline's record pointer);
  // throws ApiError when the module has none.
  void* global_address(const char* name) const;

 private:
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
  cudaKernel_t scalar_kernel_ = nullptr;
  cudaFuncAttributes attrs_{};
};

class DeviceProblem {
 public:
  // Uploads the structure (int32 when N and E fit, always int64) and the inputs.
  DeviceProblem(const graphs::Csr64& g, const graphs::Inputs& in);
  ~DeviceProblem();
  DeviceProblem(const DeviceProblem&) = delete;
  DeviceProblem& operator=(const DeviceProblem&) = delete;

  // Test-only: every fused launch recomputes this percentage of its row tasks (see KernelArgs).
  void set_slow_percent(unsigned percent) { slow_percent_ = percent; }
  // Fills out with NaN so that any element a kernel fails to write fails the check.
  void poison_output(cudaStream_t s = nullptr);
  // out as float32 (16-bit storage widened).
  std::vector<float> download_output() const;
  // How out is read back (compare_output, download_output) from now on: float32 (the default),
  // or a 16-bit type. A variant's `.o16` decides how it stores out; unsupported_reason refuses
  // any variant that does not store this (float32-out kernels and baselines while it is 16-bit,
  // `.o16` kernels of another type or while it is float32).
  void set_out_storage(ValueType t) { out_storage_ = t; }
  ValueType out_storage() const { return out_storage_; }

  // The float64 reference the problem's output is checked against (reference_aggregate of its
  // graph and inputs), kept on the host and uploaded to the device; compare_output checks out
  // against it on the GPU (tuner/device_compare.h), or on the host where the device had no
  // memory left for it (8 bytes per output). A problem without one cannot be checked.
  void set_reference(std::vector<double> ref);
  bool has_reference() const { return has_reference_; }
  bool compares_on_device() const { return device_ref_ != nullptr; }
  const std::vector<double>& reference() const { return reference_; }
  // out against the reference (synchronises the device first): compare_to_reference's result.
  // Throws std::logic_error without a reference, ApiError on a CUDA error.
  Comparison compare_output(double rel_tol) const;

  // Why p cannot run this problem ("" when it can): shape limits, types, shared memory.
  std::string unsupported_reason(const VariantParams& p) const;
  // Enqueues one complete aggregation with variant p on s. `k` is the variant's loaded
  // kernel (for cusparse: its segment-softmax kernel). Throws ApiError on a failed launch.
  // overlap_previous: a programmatic dependent launch (variants/launch.h), for the fused family
  // only (its kernels wait for the previous kernel themselves); invalid_argument for others.
  void launch(const VariantParams& p, const LoadedKernel& k, cudaStream_t s,
              bool overlap_previous = false);

  // The device buffers of scores and of values stored as t, writable, with their sizes, and a
  // copy of each made on the first call for t and kept for the problem's life
  // (verify_after_late_producer puts garbage in them and the true inputs back from the copies).
  struct InputBuffers {
    void* scores = nullptr;
    size_t scores_bytes = 0;
    void* values = nullptr;
    size_t values_bytes = 0;
    const void* true_scores = nullptr;
    const void* true_values = nullptr;
  };
  InputBuffers input_buffers(ValueType t);

  // Raw device buffers, for callers that launch through another API (the production library).
  const void* row_ptr(IndexType t) const { return t == IndexType::i64 ? row_ptr64_ : row_ptr32_; }
  const void* col(IndexType t) const { return t == IndexType::i64 ? col64_ : col32_; }
  const float* scores() const { return scores_; }
  const void* values(ValueType t) { return values_for(t); }
  float* out() { return out_; }  // (N, H, F) float32 or out_storage()'s 16-bit type
  const std::vector<int64_t>& host_row_ptr() const { return row_ptr_host_; }
  bool fits_int32() const { return fits_i32_; }

  int64_t num_nodes() const { return n_; }
  int64_t num_edges() const { return e_; }
  int64_t max_degree() const { return max_degree_; }
  int heads() const { return heads_; }
  int feat() const { return feat_; }
  // Bytes each input occupies on the device for the given types (the compulsory traffic).
  size_t output_bytes() const { return static_cast<size_t>(n_) * heads_ * feat_ * sizeof(float); }

 private:
  struct Plan {
    int64_t num_chunks = 0;
    void* chunks = nullptr;
    float* partials = nullptr;
    unsigned* counters = nullptr;
  };
  // The split plan of `threshold` packed for blocks of per_block chunks (build_split_plan).
  const Plan& plan_for(int64_t threshold, int per_block);
  // The `.lpt` variants' row order on the device (build_row_order), per split and index type.
  const void* order_for(int64_t split, IndexType t);
  const void* values_for(ValueType t);
  KernelArgs base_args(const VariantParams& p);
  void launch_cusparse(const VariantParams& p, const LoadedKernel& k, cudaStream_t s);

  int64_t n_ = 0, e_ = 0, max_degree_ = 0;
  int heads_ = 1, feat_ = 0;
  bool fits_i32_ = false;
  std::vector<int64_t> row_ptr_host_;
  void* row_ptr32_ = nullptr;
  void* col32_ = nullptr;
  void* row_ptr64_ = nullptr;
  void* col64_ = nullptr;
  float* scores_ = nullptr;
  std::map<ValueType, void*> values_;
  std::vector<float> values_host_;
  float* out_ = nullptr;  // float32's size, whatever out_storage_
  ValueType out_storage_ = ValueType::f32;
  std::vector<double> reference_;
  void* true_scores_ = nullptr;             // input_buffers' copies
  std::map<ValueType, void*> true_values_;
  bool has_reference_ = false;
  std::unique_ptr<DeviceReference> device_ref_;
  float* weights_ = nullptr;  // cusparse baseline: (H, E)
  std::map<std::pair<int64_t, int>, Plan> plans_;
  std::map<std::pair<int64_t, IndexType>, void*> orders_;
  size_t smem_optin_ = 0;
  unsigned slow_percent_ = 0;
  struct Cusparse;
  std::unique_ptr<Cusparse> cusparse_;
  // colblock variants' sweeps, planned on their first launch (by variant id).
  std::map<std::string, std::unique_ptr<colblock::Sweep>> sweeps_;
  void launch_colblock(const VariantParams& p, cudaStream_t s);
};

// Hardware counters of one launch through `s` of a variant of `family` (for the library's
// dispatch: Family::fused). cuSPARSE's kernels get the range profiler enabled for their
// collection only (CounterSession::collect_enabled_once: kept enabled, the profiler crashed a
// worker on one, sixteenth session); the rest use the session's own mode.
profiler::CounterResult collect_counters(profiler::CounterSession& s, Family family,
                                         const profiler::CounterLaunchFn& launch);

}  // namespace csrgat::tuner
