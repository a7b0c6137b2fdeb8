// Internal to profiler/: the process-wide CUPTI activity tracer shared by Timer and
// CounterSession, and small helpers around CUPTI and the driver context.
#pragma once

#include <cuda.h>  // CUcontext / CUdevice types only; libcuda is never linked
#include <cuda_runtime_api.h>
#include <cupti_activity.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace csrgat::profiler::detail {

// "<VAR>=<value>" when a CUDA tool is injected: Nsight Compute/Systems set
// NV_NSIGHT_INJECTION_TRANSPORT_TYPE (seen under CUDA 13's ncu), other tools
// CUDA_INJECTION64_PATH. Such a tool owns CUPTI and the counters; the profiler then times with
// events and reports counters as unavailable instead of competing with it. (Were a tool missed
// here, CUPTI itself refuses with CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, with the same
// outcome.)
std::optional<std::string> injected_tool();

// A hint for the common CUPTI failures ("" when none applies).
std::string cupti_hint(CUptiResult r);
// "<call> failed: <CUPTI error text>[; hint]" without throwing.
std::string cupti_failure(const char* call, CUptiResult r);

// The current driver context and its device, fetched through cudaGetDriverEntryPointByVersion
// (libcuda stays unlinked). Throws ApiError on failure. Make the device current first.
CUcontext current_context();
CUdevice current_cu_device();
// CUPTI's id of `stream` in the current context (ActivityRecord::stream). Throws ApiError.
uint32_t cupti_stream_id(cudaStream_t stream);

// The directory libcupti was loaded from, and a preload of libnvperf_host/_target from there.
// CUPTI dlopen()s the PerfWorks libraries by bare name when profiling starts, and libcupti has
// no RUNPATH, so without LD_LIBRARY_PATH they are not found; once a library of that SONAME is
// loaded, the loader hands it to CUPTI's dlopen. Returns "" on success, else the reason.
std::string preload_nvperf();

struct ActivityRecord {
  uint64_t start = 0, end = 0;  // ns, CUPTI timestamps
  uint32_t device = 0, stream = 0, correlation = 0;
  bool kernel = false;  // false: memcpy or memset
};

// The GPU span of one sample from its records on one device (kernels, memcpys, memsets): the
// first start to the last end, in us. `expected_kernels` is the launch's kernel count so far (the
// most any warmup or sample showed; < 0: unknown); a sample with more kernels raises it. nullopt
// with `why` when the records cannot give the sample's whole span: no kernel record, a kernel
// record without timestamps, or fewer kernel records than the launch has (a span over part of a
// multi-kernel launch would be short and read as a fast sample). Copy and memset records are not
// counted: one that arrives late shortens the span unnoticed.
std::optional<double> span_of_records(const std::vector<ActivityRecord>& records,
                                      int& expected_kernels, std::string& why);

// Process-wide CUPTI activity tracing: CONCURRENT_KERNEL (required), MEMCPY and MEMSET
// (optional: a launch may zero its output with cudaMemsetAsync, which belongs to its time).
// Enabled once, on first use, and left on; records are buffered by CUPTI and handed over in
// flush()/take(). Thread-safe.
class ActivityTracer {
 public:
  static ActivityTracer& instance();

  // True when tracing is on; otherwise false with the reason (remembered: no retries).
  bool ensure_enabled(std::string& why);
  // Forces CUPTI to deliver its buffers and forgets every record so far, and every record of
  // work started before now that arrives later. Synchronise first.
  void discard();
  // Forces delivery and returns (and forgets) the records gathered since the last discard()
  // or take(), of every device, less those of work started before the last discard(). Throws
  // ApiError when CUPTI cannot flush.
  std::vector<ActivityRecord> take();
  // Records CUPTI reported as dropped since the last discard().
  uint64_t dropped();
  // Activity kinds that are on, for reports ("concurrent_kernel,memcpy,memset").
  std::string kinds() const;

  // Turns the activity kinds off for its lifetime and on again afterwards: range profiling
  // replays kernels, whose records must not reach a measurement, and events-only or graph
  // timing should not carry CUPTI's per-launch overhead. If re-enabling fails, tracing stays
  // off and ensure_enabled() reports why.
  class Pause {
   public:
    Pause();
    ~Pause();
    Pause(const Pause&) = delete;
    Pause& operator=(const Pause&) = delete;

   private:
    bool active_ = false;
  };

 private:
  ActivityTracer() = default;
  static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records);
  static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t* buffer,
                                        size_t size, size_t valid_size);
  void flush_forced();

  mutable std::mutex state_mu_;
  bool tried_ = false, enabled_ = false;
  int paused_ = 0;
  std::string why_;
  std::vector<CUpti_ActivityKind> kinds_;

  std::mutex records_mu_;
  std::vector<ActivityRecord> records_;
  uint64_t since_ = 0;  // CUPTI's timestamp at the last discard()
  uint64_t dropped_ = 0;

  // Every forced flush hands CUPTI's current buffer back, so each sample makes CUPTI ask for a
  // new one, inside the launch. Fresh pages there cost ~0.5 ms of page faults on the launch
  // path (seen in event times); recycled buffers cost nothing.
  std::mutex pool_mu_;
  std::vector<uint8_t*> pool_;
};

}  // namespace csrgat::profiler::detail
