// Kernel timing with nvbench's discipline: warm-up, cold L2 by flushing, adaptive stopping on
// the relative noise of the median, throttle detection, raw samples kept.
//
// Timers, best first:
//   "cupti"  CUPTI Activity records (CONCURRENT_KERNEL, plus MEMCPY/MEMSET when available):
//            gpu_us = last end - first start over the GPU work of one sample. No launch
//            overhead, ns resolution.
//   "events" cudaEventRecord around the launch: includes launch overhead, ~0.5 us resolution.
//            Used when CUPTI activity cannot be enabled (a profiler such as ncu/nsys is
//            attached, CUPTI errors) or delivers no records; `note` says why. A measurement
//            that loses CUPTI part-way goes on with events with tracing paused, its samples
//            restarted: one timer under one condition produces every sample.
//   "graph"  graph_replay: graph_batch launches captured into one CUDA graph, each replay timed
//            with events; gpu_us = replay time / graph_batch. For kernels of a few microseconds,
//            where per-launch overhead dominates events and CUPTI's per-kernel spans.
//
// Which records belong to a sample: before each sample the device is synchronised and every
// CUPTI record so far is flushed and discarded (whatever the process ran between measurements);
// then the L2 flush (cold) or an empty primer kernel (warm) runs on the Timer's auxiliary stream;
// after the sample the stream is synchronised and the records flushed. The sample's records are
// those of this device between the two flushes, minus the auxiliary stream's (matched by CUPTI
// stream id). Kernels the callback forks onto other streams of the device count too. Other
// host threads must not launch work on the same device while a measurement runs (the tuner runs
// one worker per GPU).
// The primer is there because the first launch after a forced CUPTI flush pays ~220 us inside
// CUPTI (measured on the H200): without it event_us of every CUPTI sample would carry that.
//
// CUPTI activity is enabled once per process and stays on; events-only and graph measurements
// pause it, so their launches carry no tracing overhead. In "cupti" mode event_us includes
// CUPTI's per-launch overhead.
//
// Order with CounterSession: time first, then collect counters in a separate, untimed pass.
// CounterSession pauses activity tracing while it replays kernels, so its replays never reach a
// measurement.
#pragma once

#include "profiler/nvml.h"
#include "profiler/stats.h"

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace csrgat::profiler {

enum class CacheMode { cold, warm };

std::string_view to_string(CacheMode mode);

struct TimingOptions {
  CacheMode cache = CacheMode::cold;  // cold: L2 flushed before every sample, outside the timing
  bool use_cupti = true;
  bool graph_replay = false;
  int graph_batch = 50;  // launches per graph in graph_replay
  int warmup = 3;        // launches (graph replays) before sampling, not recorded
  StopRule stop;
};

struct Sample {
  double gpu_us;    // from the timer named in TimingResult::timer
  double event_us;  // CUDA events around the launch (per launch in graph mode)
  bool throttled;   // NVML reported a throttling clock event at the last check
  unsigned sm_mhz;  // NVML SM clock at the last check; 0 when unknown
};

struct TimingResult {
  std::vector<Sample> samples;
  Summary gpu;        // of samples[].gpu_us
  Summary event;      // of samples[].event_us
  std::string timer;  // "cupti", "events" or "graph": which produced gpu
  std::string note;   // why a fallback happened, and other caveats; "" when none
  bool throttled_any = false;
  StopReason stop = StopReason::none;
  int kernels_per_sample = 0;  // kernels of one launch (CUPTI records or graph nodes); 0: unknown
  int nvml_stride = 0;         // NVML read after every nvml_stride-th sample; 0: NVML unavailable
  uint64_t clock_events_seen = 0;  // union of NVML clock-event reasons over the checks
};

// Rounds of one measurement (interleaved with other variants' rounds) pooled into one result:
// every round's samples, summarized together; notes joined; throttling and clock events of any
// round; the last round's stop, kernel count and NVML stride. Where the rounds' timers differ (a
// round lost CUPTI and timed with events) or `events` asks for it (another variant's rounds
// did), every sample's gpu_us becomes its event_us, which every timer records, so that no
// median mixes a CUPTI span with an event time; the timer is then "events", or the rounds'
// timers joined with '+' where one was "graph" (a replay's per-launch time and a single
// launch's are not one timer either), and the note says so. A CUPTI round's event times were
// taken traced (CUPTI's per-launch cost in them), an events round's not: a caller that can
// should time the rounds again untraced (TimingOptions::use_cupti false) instead, as the
// tuner's interleaved leaders and bench do, and keep this for what is still mixed. `rounds`
// empty: an empty result.
TimingResult pool_rounds(std::vector<TimingResult> rounds, bool events = false);
// Timer names joined with '+' ("cupti+events"): how the notes name the timers of mixed rounds.
std::string timer_names(const std::set<std::string>& timers);

// The launch callback enqueues ONE complete operation (one or several kernels, memsets) on the
// given stream and returns without synchronising. `sample` counts every call made by one
// measure() (warm-up included) from 0, so the caller can rotate inputs; in graph mode it runs
// 0..graph_batch-1 once, at capture.
using LaunchFn = std::function<void(cudaStream_t stream, int sample)>;

class Timer {
 public:
  explicit Timer(int device);  // throws ApiError (e.g. no CUDA device)
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Throws ApiError when a CUDA call fails (including an asynchronous error of the launched
  // work); CUPTI and NVML problems are never errors, they degrade the timer and say so in note.
  TimingResult measure(const LaunchFn& launch, const TimingOptions& options);

  // Flushes L2 (reads 2x its size) on the auxiliary stream and waits: what a cold sample does
  // before its launch, for callers that time by other means (tuner timeline).
  void flush_l2();

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  int sm_count() const { return sm_count_; }
  size_t l2_bytes() const { return l2_bytes_; }
  Nvml& nvml() { return nvml_; }

 private:
  struct ClockCheck {
    bool throttled = false;
    unsigned sm_mhz = 0;
  };
  void primer();  // an empty kernel on aux_stream_, synchronised
  bool measure_graph(const LaunchFn& launch, const TimingOptions& options, bool cold,
                     TimingResult& result);
  ClockCheck check_clocks(TimingResult& result);
  void release() noexcept;

  int device_ = 0;
  int sm_count_ = 0;
  size_t l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaStream_t aux_stream_ = nullptr;  // L2 flush and primer launches, kept out of the sample
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  void* flush_buffer_ = nullptr;  // 2 x L2, zero-filled once
  size_t flush_bytes_ = 0;
  Nvml nvml_;
};

struct DeviceInfo {
  std::string name, uuid, driver,
      cuda_runtime;  // driver: "580.95.05 (CUDA 13.0)", or "CUDA 13.0" without NVML
  int sm_count, cc_major, cc_minor;
  size_t l2_bytes, smem_per_block_optin, global_mem;
  int max_threads_per_block;
  unsigned sm_clock_max_mhz;  // NVML max SM clock, else the CUDA attribute
};

DeviceInfo device_info(int device);
DeviceInfo device_info(int device, Nvml& nvml);

nlohmann::json to_json(const DeviceInfo& info);
nlohmann::json to_json(const TimingOptions& options);
nlohmann::json to_json(const TimingResult& result);  // summaries and the raw samples (columns)

}  // namespace csrgat::profiler
