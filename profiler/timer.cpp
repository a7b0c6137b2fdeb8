#include "profiler/timer.h"

#include "profiler/check.h"
#include "profiler/cupti_support.h"
#include "profiler/kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace csrgat::profiler {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

void add_note(TimingResult& r, const std::string& text) {
  if (text.empty() || r.note.find(text) != std::string::npos) return;
  r.note += (r.note.empty() ? "" : "; ") + text;
}

std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// Destroys a captured graph and its instance on every path out of measure_graph.
struct GraphGuard {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~GraphGuard() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// The GPU span of one sample from its CUPTI records; nullopt with `why` when they are unusable.
// Records of `skip_stream` (the Timer's auxiliary stream) are not the sample's.
std::optional<double> cupti_span_us(int device, uint32_t skip_stream, int& expected_kernels,
                                    std::string& why) {
  auto& tracer = detail::ActivityTracer::instance();
  std::vector<detail::ActivityRecord> recs, others;  // this device's, other devices'
  auto take = [&] {
    for (const auto& r : tracer.take()) {
      if (static_cast<int>(r.device) != device)
        others.push_back(r);
      else if (r.stream != skip_stream)
        recs.push_back(r);
    }
  };
  auto kernels = [&] {
    return static_cast<int>(
        std::count_if(recs.begin(), recs.end(), [](auto& r) { return r.kernel; }));
  };
  try {
    take();
    // Records of finished work can still be on their way from CUPTI's worker thread.
    for (int attempt = 0; attempt < 20 && kernels() < std::max(expected_kernels, 1); ++attempt) {
      std::this_thread::sleep_for(std::chrono::microseconds(200 << std::min(attempt, 5)));
      take();
    }
  } catch (const ApiError& e) {
    why = e.what();
    return std::nullopt;
  }
  if (const uint64_t dropped = tracer.dropped()) {
    why = "CUPTI dropped " + std::to_string(dropped) + " activity records";
    return std::nullopt;
  }
  if (kernels() == 0) {
    why = "CUPTI delivered no kernel record of device " + std::to_string(device) + " for a launch";
    if (!others.empty())
      why += " (" + std::to_string(others.size()) + " records of device " +
             std::to_string(others[0].device) + ")";
    return std::nullopt;
  }
  // Fewer kernel records than the launch has, even after the wait above: no span (the caller
  // times the whole measurement with events), never a span over part of the launch.
  return detail::span_of_records(recs, expected_kernels, why);
}

}  // namespace

std::string_view to_string(CacheMode mode) {
  return mode == CacheMode::cold ? "cold" : "warm";
}

Timer::Timer(int device) : device_(device) {
  try {
    CSRGAT_CUDA_CHECK(cudaSetDevice(device));
    // Create the primary context now, not inside a measurement.
    CSRGAT_CUDA_CHECK(cudaFree(nullptr));
    cudaDeviceProp prop{};
    CSRGAT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    sm_count_ = prop.multiProcessorCount;
    l2_bytes_ = static_cast<size_t>(std::max(prop.l2CacheSize, 0));
    CSRGAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CSRGAT_CUDA_CHECK(cudaStreamCreateWithFlags(&aux_stream_, cudaStreamNonBlocking));
    CSRGAT_CUDA_CHECK(cudaEventCreate(&start_));
    CSRGAT_CUDA_CHECK(cudaEventCreate(&stop_));
    if (l2_bytes_ > 0) {
      flush_bytes_ = (2 * l2_bytes_ + 15) / 16 * 16;
      CSRGAT_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
      CSRGAT_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, 0, flush_bytes_, stream_));
      CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
  } catch (...) {
    release();
    throw;
  }
}

Timer::~Timer() {
  release();
}

void Timer::release() noexcept {
  if (flush_buffer_) cudaFree(flush_buffer_);
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
  if (stream_) cudaStreamDestroy(stream_);
  if (aux_stream_) cudaStreamDestroy(aux_stream_);
  flush_buffer_ = nullptr;
  start_ = stop_ = nullptr;
  stream_ = aux_stream_ = nullptr;
}

void Timer::flush_l2() {
  detail::launch_l2_flush(flush_buffer_, flush_bytes_, sm_count_, aux_stream_);
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(aux_stream_));
}

void Timer::primer() {
  detail::launch_empty(aux_stream_);
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(aux_stream_));
}

Timer::ClockCheck Timer::check_clocks(TimingResult& result) {
  ClockCheck c;
  if (const auto mhz = nvml_.sm_clock_mhz(device_)) c.sm_mhz = *mhz;
  if (const auto reasons = nvml_.throttle_reasons(device_)) {
    c.throttled = is_throttled(*reasons);
    result.clock_events_seen |= *reasons;
  }
  return c;
}

bool Timer::measure_graph(const LaunchFn& launch, const TimingOptions& opt, bool cold,
                          TimingResult& result) {
  const int batch = std::max(opt.graph_batch, 1);
  GraphGuard g;
  CSRGAT_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  try {
    for (int i = 0; i < batch; ++i) launch(stream_, i);
  } catch (...) {
    cudaStreamEndCapture(stream_, &g.graph);  // leave the stream usable
    cudaGetLastError();
    throw;
  }
  if (const cudaError_t e = cudaStreamEndCapture(stream_, &g.graph);
      e != cudaSuccess || g.graph == nullptr) {
    cudaGetLastError();  // capture errors are not sticky; clear the runtime's last error
    add_note(result, "graph capture failed (" + detail::cuda_error_text(e) +
                         "): timed launch by launch instead");
    return false;
  }
  size_t n_nodes = 0;
  CSRGAT_CUDA_CHECK(cudaGraphGetNodes(g.graph, nullptr, &n_nodes));
  std::vector<cudaGraphNode_t> nodes(n_nodes);
  if (n_nodes) CSRGAT_CUDA_CHECK(cudaGraphGetNodes(g.graph, nodes.data(), &n_nodes));
  int kernel_nodes = 0;
  for (cudaGraphNode_t n : nodes) {
    cudaGraphNodeType type{};
    CSRGAT_CUDA_CHECK(cudaGraphNodeGetType(n, &type));
    kernel_nodes += type == cudaGraphNodeTypeKernel;
  }
  if (const cudaError_t e = cudaGraphInstantiate(&g.exec, g.graph, 0); e != cudaSuccess) {
    cudaGetLastError();
    add_note(result, "graph instantiation failed (" + detail::cuda_error_text(e) +
                         "): timed launch by launch instead");
    return false;
  }
  result.timer = "graph";
  result.kernels_per_sample = kernel_nodes / batch;
  detail::ActivityTracer::Pause no_tracing;  // replays timed without CUPTI's per-kernel overhead
  if (cold)
    add_note(result,
             "graph replay: L2 flushed before each replay only; launches inside a replay run warm");

  for (int w = 0; w < std::max(opt.warmup, 1);
       ++w)  // at least one: the first replay uploads the graph
    CSRGAT_CUDA_CHECK(cudaGraphLaunch(g.exec, stream_));
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));

  std::vector<double> gpu;
  ClockCheck clocks = check_clocks(result);
  const auto t0 = clock_type::now();
  for (int i = 0;; ++i) {
    if (cold) flush_l2();
    CSRGAT_CUDA_CHECK(cudaEventRecord(start_, stream_));
    CSRGAT_CUDA_CHECK(cudaGraphLaunch(g.exec, stream_));
    CSRGAT_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    float ms = 0.0f;
    CSRGAT_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    const double per_launch = ms * 1e3 / batch;
    if (result.nvml_stride > 0 && i % result.nvml_stride == 0) clocks = check_clocks(result);
    result.samples.push_back({per_launch, per_launch, clocks.throttled, clocks.sm_mhz});
    gpu.push_back(per_launch);
    result.stop = should_stop(gpu, opt.stop, seconds_since(t0));
    if (result.stop != StopReason::none) break;
  }
  return true;
}

std::string timer_names(const std::set<std::string>& timers) {
  std::string joined;
  for (const std::string& t : timers) joined += (joined.empty() ? "" : "+") + t;
  return joined;
}

TimingResult pool_rounds(std::vector<TimingResult> rounds, bool events) {
  TimingResult all;
  std::set<std::string> timers;
  for (const TimingResult& r : rounds) timers.insert(r.timer);
  const bool to_events = events || timers.size() > 1;
  if (to_events) {
    const std::string joined = timer_names(timers);
    all.timer = timers.count("graph") ? joined : "events";
    add_note(all, "rounds timed by " + joined +
                      (events ? " (other variants' rounds by another timer)" : "") +
                      ": every sample is its event time");
  } else if (!rounds.empty()) {
    all.timer = rounds.front().timer;
  }
  for (TimingResult& r : rounds) {
    for (Sample& smp : r.samples) {
      if (to_events) smp.gpu_us = smp.event_us;
      all.samples.push_back(smp);
    }
    for (size_t from = 0; from < r.note.size();) {  // each "; "-joined note once
      const size_t end = std::min(r.note.find("; ", from), r.note.size());
      add_note(all, r.note.substr(from, end - from));
      from = end + 2;
    }
    all.throttled_any = all.throttled_any || r.throttled_any;
    all.clock_events_seen |= r.clock_events_seen;
    all.stop = r.stop;
    all.kernels_per_sample = to_events ? 0 : r.kernels_per_sample;
    all.nvml_stride = r.nvml_stride;
  }
  std::vector<double> gpu_us, event_us;
  for (const Sample& smp : all.samples) {
    gpu_us.push_back(smp.gpu_us);
    event_us.push_back(smp.event_us);
  }
  all.gpu = summarize(gpu_us);
  all.event = summarize(event_us);
  return all;
}

TimingResult Timer::measure(const LaunchFn& launch, const TimingOptions& opt) {
  CSRGAT_CUDA_CHECK(cudaSetDevice(device_));
  TimingResult result;
  result.timer = "events";
  bool cold = opt.cache == CacheMode::cold;
  if (cold && flush_buffer_ == nullptr) {
    add_note(result, "device reports no L2 cache size: samples are not flushed");
    cold = false;
  }

  // NVML: measure the cost of one check and space the checks so they take at most ~5% of the
  // loop (a check is tens of microseconds; kernels can be a few).
  ClockCheck clocks = check_clocks(result);  // the first check also maps the device: not timed
  const auto nvml_t0 = clock_type::now();
  clocks = check_clocks(result);
  const double nvml_cost = seconds_since(nvml_t0);
  const bool nvml_ok = nvml_.available() && clocks.sm_mhz > 0;
  if (!nvml_ok)
    add_note(result, "no throttle detection: " +
                         (nvml_.available() ? nvml_.last_error() : nvml_.why_unavailable()));
  result.nvml_stride = nvml_ok ? 1 : 0;

  if (opt.graph_replay && measure_graph(launch, opt, cold, result)) {
    // stride stays 1 in graph mode: a replay is long enough by construction
  } else {
    // A screening's cutoff is a multiple of a time the same timer took of another variant: a
    // measurement that falls back to another timer (graph replay to single launches, CUPTI to
    // events, whose spans carry the launch) is not cut.
    StopRule stop = opt.stop;
    if (opt.graph_replay) stop.cutoff = 0.0;
    auto& tracer = detail::ActivityTracer::instance();
    std::optional<detail::ActivityTracer::Pause> no_tracing;
    if (!opt.use_cupti) no_tracing.emplace();  // events without CUPTI's per-launch overhead
    bool cupti = false;
    if (opt.use_cupti) {
      std::string why;
      cupti = tracer.ensure_enabled(why);
      if (!cupti) add_note(result, "timing with CUDA events: CUPTI activity unavailable: " + why);
    }
    uint32_t aux_id = UINT32_MAX;
    if (cupti) {
      try {
        aux_id = detail::cupti_stream_id(aux_stream_);
      } catch (const ApiError& e) {
        cupti = false;
        add_note(result, std::string("timing with CUDA events: ") + e.what());
      }
    }
    // Forgets the records before a launch; false (and events from then on) if CUPTI fails.
    auto discard = [&]() {
      CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
      try {
        tracer.discard();
        return true;
      } catch (const ApiError& e) {
        add_note(result, std::string("timing with CUDA events: ") + e.what());
        return false;
      }
    };
    int index = 0;
    int expected_kernels = -1;
    for (int w = 0; w < opt.warmup; ++w) {
      if (cupti) cupti = discard();
      launch(stream_, index++);
      CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
      // The launch's kernel count: the most any warmup showed (a record of one warmup still on
      // its way when the span is taken would otherwise set it low, and a sample missing that
      // kernel would pass as a short span).
      if (cupti) {
        std::string why;
        int k = -1;
        if (const auto span = cupti_span_us(device_, aux_id, k, why)) {
          expected_kernels = std::max(expected_kernels, k);
          // Past a screening's cutoff while warm: more warming changes nothing the cold samples
          // will not decide. The kernel count then rests on one launch; a sample that shows
          // more kernels raises it, and one short for a record still on its way is only the
          // faster of the two a cut needs.
          if (stop.cutoff > 0.0 && *span > stop.cutoff && w + 1 < opt.warmup) {
            char buf[160];
            std::snprintf(
                buf, sizeof buf,
                "warm-up stopped after %d of %d launches: %.1f us, over the cutoff of %.1f us",
                w + 1, opt.warmup, *span, stop.cutoff);
            add_note(result, buf);
            break;
          }
        } else {
          cupti = false;
          stop.cutoff = 0.0;
          add_note(result, "timing with CUDA events: " + why);
        }
      }
    }
    // Events from here on, and not traced: a measurement that fell back while warming up must
    // not carry CUPTI's per-launch overhead, nor its last flush's cost in the first sample.
    const auto untraced_from_here = [&] {
      if (no_tracing) return;
      no_tracing.emplace();
      launch(stream_, index++);  // pays for the tracer's last flush, untimed
      CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    };
    if (opt.use_cupti && !cupti) untraced_from_here();
    result.timer = cupti ? "cupti" : "events";

    std::vector<double> gpu;
    auto t0 = clock_type::now();
    for (int i = 0;; ++i) {
      const auto sample_t0 = clock_type::now();
      // Drops the records of anything the process ran before the sample.
      const bool discarded = cupti && discard();
      if (cold)
        flush_l2();  // doubles as the primer
      else if (discarded)
        primer();
      CSRGAT_CUDA_CHECK(cudaEventRecord(start_, stream_));
      launch(stream_, index++);
      CSRGAT_CUDA_CHECK(cudaEventRecord(stop_, stream_));
      CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream_));
      float ms = 0.0f;
      CSRGAT_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
      Sample s{ms * 1e3, ms * 1e3, clocks.throttled, clocks.sm_mhz};
      std::string why;
      std::optional<double> span;
      if (discarded) span = cupti_span_us(device_, aux_id, expected_kernels, why);
      if (span) {
        s.gpu_us = *span;
      } else if (cupti) {
        // The whole measurement starts again with events, untraced, so that one timer under one
        // condition produced every sample (the samples so far ran traced: their event times
        // carry CUPTI's per-launch overhead).
        cupti = false;
        stop.cutoff = 0.0;
        result.timer = "events";
        add_note(result, "timing with CUDA events after sample " + std::to_string(i) +
                             (why.empty() ? std::string() : ": " + why) +
                             " (the samples restarted without CUPTI tracing)");
        untraced_from_here();
        result.samples.clear();
        gpu.clear();
        t0 = clock_type::now();
        i = -1;
        continue;
      }
      if (result.nvml_stride > 0 && i % result.nvml_stride == 0) {
        clocks = check_clocks(result);
        s.throttled = clocks.throttled;
        s.sm_mhz = clocks.sm_mhz;
      }
      if (i == 0 && result.nvml_stride > 0) {
        const double sample_s = seconds_since(sample_t0);
        result.nvml_stride = std::clamp(
            static_cast<int>(std::ceil(nvml_cost / (0.05 * std::max(sample_s, 1e-7)))), 1, 100);
      }
      result.samples.push_back(s);
      gpu.push_back(s.gpu_us);
      result.stop = should_stop(gpu, stop, seconds_since(t0));
      if (result.stop != StopReason::none) break;
    }
    result.kernels_per_sample = result.timer == "cupti" ? std::max(expected_kernels, 0) : 0;
  }

  std::vector<double> gpu_us, event_us;
  for (const Sample& s : result.samples) {
    gpu_us.push_back(s.gpu_us);
    event_us.push_back(s.event_us);
    result.throttled_any = result.throttled_any || s.throttled;
  }
  result.gpu = summarize(gpu_us);
  result.event = summarize(event_us);
  if (result.throttled_any)
    add_note(result, "clock throttling seen (" +
                         describe_clock_events(result.clock_events_seen & clock_event::throttling) +
                         ")");
  return result;
}

DeviceInfo device_info(int device) {
  Nvml nvml;
  return device_info(device, nvml);
}

DeviceInfo device_info(int device, Nvml& nvml) {
  cudaDeviceProp prop{};
  CSRGAT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int driver = 0, runtime = 0, clock_khz = 0;
  CSRGAT_CUDA_CHECK(cudaDriverGetVersion(&driver));
  CSRGAT_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  CSRGAT_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  DeviceInfo info{};
  info.name = prop.name;
  info.uuid = format_gpu_uuid(prop.uuid.bytes);
  info.driver = "CUDA " + version_string(driver);
  if (const auto v = nvml.driver_version()) info.driver = *v + " (" + info.driver + ")";
  info.cuda_runtime = version_string(runtime);
  info.sm_count = prop.multiProcessorCount;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.l2_bytes = static_cast<size_t>(std::max(prop.l2CacheSize, 0));
  info.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  info.global_mem = prop.totalGlobalMem;
  info.max_threads_per_block = prop.maxThreadsPerBlock;
  info.sm_clock_max_mhz =
      nvml.max_sm_clock_mhz(device).value_or(static_cast<unsigned>(clock_khz / 1000));
  return info;
}

nlohmann::json to_json(const DeviceInfo& d) {
  return {{"name", d.name},
          {"uuid", d.uuid},
          {"driver", d.driver},
          {"cuda_runtime", d.cuda_runtime},
          {"sm_count", d.sm_count},
          {"cc", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"cc_major", d.cc_major},
          {"cc_minor", d.cc_minor},
          {"l2_bytes", d.l2_bytes},
          {"smem_per_block_optin", d.smem_per_block_optin},
          {"global_mem", d.global_mem},
          {"max_threads_per_block", d.max_threads_per_block},
          {"sm_clock_max_mhz", d.sm_clock_max_mhz}};
}

nlohmann::json to_json(const TimingOptions& o) {
  return {
      {"cache", to_string(o.cache)},  {"use_cupti", o.use_cupti}, {"graph_replay", o.graph_replay},
      {"graph_batch", o.graph_batch}, {"warmup", o.warmup},       {"stop", to_json(o.stop)}};
}

nlohmann::json to_json(const TimingResult& r) {
  nlohmann::json gpu_us = nlohmann::json::array(), event_us = nlohmann::json::array(),
                 throttled = nlohmann::json::array(), sm_mhz = nlohmann::json::array();
  for (const Sample& s : r.samples) {
    gpu_us.push_back(s.gpu_us);
    event_us.push_back(s.event_us);
    throttled.push_back(s.throttled);
    sm_mhz.push_back(s.sm_mhz);
  }
  return {
      {"timer", r.timer},
      {"note", r.note},
      {"stop", to_string(r.stop)},
      {"kernels_per_sample", r.kernels_per_sample},
      {"throttled_any", r.throttled_any},
      {"nvml_stride", r.nvml_stride},
      {"clock_events", describe_clock_events(r.clock_events_seen)},
      {"gpu_us", to_json(r.gpu)},
      {"event_us", to_json(r.event)},
      {"samples",
       {{"gpu_us", gpu_us}, {"event_us", event_us}, {"throttled", throttled}, {"sm_mhz", sm_mhz}}}};
}

}  // namespace csrgat::profiler
