#include "profiler/counters.h"

#include "profiler/check.h"
#include "profiler/cupti_support.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

// Throws ApiError naming the call, CUPTI's error and a hint for the usual causes.
#define COUNTERS_CUPTI(expr)                                                                  \
  do {                                                                                        \
    const CUptiResult counters_r_ = (expr);                                                   \
    if (counters_r_ != CUPTI_SUCCESS)                                                         \
      throw ::csrgat::profiler::ApiError(                                                     \
          ::csrgat::profiler::detail::cupti_failure(#expr, counters_r_) + " at " + __FILE__ + \
          ":" + std::to_string(__LINE__));                                                    \
  } while (0)

namespace csrgat::profiler {

namespace {

constexpr size_t max_ranges = 256;  // kernels per launch

// A zeroed CUPTI parameter struct with its structSize set.
template <typename T>
T params(size_t struct_size) {
  T p{};
  p.structSize = struct_size;
  return p;
}
constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();

// Adds the seconds since the previous mark (or construction) to `into[step]`.
class StepClock {
 public:
  explicit StepClock(std::map<std::string, double>& into) : into_(into) {}
  void mark(const char* step) {
    const auto now = std::chrono::steady_clock::now();
    into_[step] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::map<std::string, double>& into_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

const char* level_text(CUpti_Profiler_Support_Level l) {
  switch (l) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
      return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
      return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
      return "supported";
    default:
      return "unknown";
  }
}

// cuptiProfilerInitialize once per process; later sessions reuse it.
void profiler_initialize() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (const CUptiResult r = cuptiProfilerInitialize(&p); r != CUPTI_SUCCESS)
      failure = detail::cupti_failure("cuptiProfilerInitialize", r);
  });
  if (!failure.empty()) throw ApiError(failure);
}

}  // namespace

CounterOptions tool_counter_options() {
  return {CounterOptions::Replay::kernel, true};
}

std::vector<std::string> default_metrics() {
  return {"dram__bytes_read.sum",
          "dram__bytes_write.sum",
          "lts__t_bytes.sum",
          "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
          "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
          "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
          "gpu__time_duration.sum",
          "gpc__cycles_elapsed.max",
          "gpc__cycles_elapsed.avg.per_second"};
}

struct CounterSession::Impl {
  int device = 0;
  bool available = false;
  std::string why;
  std::string chip;
  CUcontext ctx = nullptr;
  cudaStream_t stream = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::string> requested;  // keys of CounterResult::values
  std::vector<std::string> resolved;   // names CUPTI knows, same order
  std::vector<const char*> resolved_ptrs;
  std::vector<std::string> dropped;
  std::vector<uint8_t> availability, config;
  size_t passes = 0;
  CounterOptions options;
  CUpti_RangeProfiler_Object* enabled = nullptr;  // held between collections (stay_enabled)
  // The counter data image SetConfig points CUPTI at: kept as long as the object it was given
  // to stays enabled (a kept-enabled object holds the pointer between collections), freed only
  // after disable().
  std::vector<uint8_t> counter_data;

  void setup(const std::vector<std::string>& metrics);
  // Fills `result` (its wall_s even when it throws part-way).
  void collect(const CounterLaunchFn& launch, const CounterLaunchFn& before_pass,
               CounterResult& result);
  void collect_paused(const CounterLaunchFn& launch, const CounterLaunchFn& before_pass,
                      CounterResult& result, StepClock& clock);
  void disable() {
    if (enabled == nullptr) return;
    auto dp =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    dp.pRangeProfilerObject = enabled;
    cuptiRangeProfilerDisable(&dp);
    enabled = nullptr;
  }
  bool metric_known(const std::string& name) {
    auto p = params<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    p.pHostObject = host;
    p.pMetricName = name.c_str();
    return cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
  }
};

void CounterSession::Impl::setup(const std::vector<std::string>& metrics) {
  if (const auto tool = detail::injected_tool())
    throw ApiError("a CUDA tool is injected (" + *tool + ") and owns the counters");
  CSRGAT_CUDA_CHECK(cudaSetDevice(device));
  CSRGAT_CUDA_CHECK(cudaFree(nullptr));
  ctx = detail::current_context();
  const CUdevice cu_device = detail::current_cu_device();
  if (const std::string e = detail::preload_nvperf(); !e.empty()) throw ApiError(e);
  profiler_initialize();

  auto ds = params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  ds.cuDevice = cu_device;
  ds.api = CUPTI_PROFILER_RANGE_PROFILING;
  COUNTERS_CUPTI(cuptiProfilerDeviceSupported(&ds));
  if (ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::string parts;
    const std::pair<const char*, CUpti_Profiler_Support_Level> items[] = {
        {"architecture", ds.architecture},
        {"sli", ds.sli},
        {"vgpu", ds.vGpu},
        {"confidential_compute", ds.confidentialCompute},
        {"cmp", ds.cmp},
        {"wsl", ds.wsl}};
    for (const auto& [name, level] : items)
      if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        parts.append(parts.empty() ? "" : ", ").append(name).append(" ").append(level_text(level));
    throw ApiError("CUPTI range profiling is not supported on device " + std::to_string(device) +
                   " (" + parts + ")");
  }

  auto cn = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  cn.deviceIndex = static_cast<size_t>(device);
  COUNTERS_CUPTI(cuptiDeviceGetChipName(&cn));
  chip = cn.pChipName ? cn.pChipName : "";

  auto ca = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  ca.ctx = ctx;
  COUNTERS_CUPTI(cuptiProfilerGetCounterAvailability(&ca));
  availability.assign(ca.counterAvailabilityImageSize, 0);
  ca.pCounterAvailabilityImage = availability.data();
  COUNTERS_CUPTI(cuptiProfilerGetCounterAvailability(&ca));

  auto hi = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = chip.c_str();
  hi.pCounterAvailabilityImage = availability.data();
  COUNTERS_CUPTI(cuptiProfilerHostInitialize(&hi));
  host = hi.pHostObject;

  for (const std::string& m : metrics) {
    std::string use = m;
    bool known = metric_known(use);
    if (!known && m.rfind("sm__sass", 0) == 0) {  // some chips expose only the SMSP-level counter
      use = "smsp__" + m.substr(4);
      known = metric_known(use);
    }
    if (!known) {
      dropped.push_back(m + ": unknown on " + chip);
      continue;
    }
    requested.push_back(m);
    resolved.push_back(use);
  }
  if (resolved.empty()) throw ApiError("none of the requested metrics is known on " + chip);
  for (const std::string& r : resolved) resolved_ptrs.push_back(r.c_str());

  auto am = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  am.pHostObject = host;
  am.ppMetricNames = resolved_ptrs.data();
  am.numMetrics = resolved_ptrs.size();
  COUNTERS_CUPTI(cuptiProfilerHostConfigAddMetrics(&am));
  auto gs = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  gs.pHostObject = host;
  COUNTERS_CUPTI(cuptiProfilerHostGetConfigImageSize(&gs));
  config.assign(gs.configImageSize, 0);
  auto gi = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  gi.pHostObject = host;
  gi.configImageSize = config.size();
  gi.pConfigImage = config.data();
  COUNTERS_CUPTI(cuptiProfilerHostGetConfigImage(&gi));
  auto np = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  np.configImageSize = config.size();
  np.pConfigImage = config.data();
  COUNTERS_CUPTI(cuptiProfilerHostGetNumOfPasses(&np));
  passes = np.numOfPasses;

  CSRGAT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  available = true;
}

void CounterSession::Impl::collect(const CounterLaunchFn& launch,
                                   const CounterLaunchFn& before_pass, CounterResult& result) {
  StepClock clock(result.wall_s);
  CSRGAT_CUDA_CHECK(cudaSetDevice(device));
  {
    // Activity tracing off while CUPTI replays (a flush of its buffers), on again after.
    detail::ActivityTracer::Pause pause_tracing;
    clock.mark("pause");
    collect_paused(launch, before_pass, result, clock);
  }
  clock.mark("resume");
}

void CounterSession::Impl::collect_paused(const CounterLaunchFn& launch,
                                          const CounterLaunchFn& before_pass, CounterResult& result,
                                          StepClock& clock) {
  const bool user = options.replay == CounterOptions::Replay::user;

  const bool fresh = enabled == nullptr;
  if (fresh) {
    auto en =
        params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    en.ctx = ctx;
    COUNTERS_CUPTI(cuptiRangeProfilerEnable(&en));
    enabled = en.pRangeProfilerObject;
  }
  CUpti_RangeProfiler_Object* obj = enabled;
  // Stop (when started) on every path out, errors included, and disable unless the session
  // keeps the profiler enabled and the collection succeeded. The success path closes it before
  // returning, so that the result holds the disable step's time.
  struct Guard {
    Impl& impl;
    bool started = false;
    bool open = true;
    bool succeeded = false;
    void close() {
      if (!open) return;
      open = false;
      if (started) {
        auto sp =
            params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        sp.pRangeProfilerObject = impl.enabled;
        cuptiRangeProfilerStop(&sp);
      }
      if (!succeeded || !impl.options.stay_enabled) impl.disable();
    }
    ~Guard() { close(); }
  } guard{*this};
  clock.mark("enable");

  auto gs = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  gs.pRangeProfilerObject = obj;
  gs.pMetricNames = resolved_ptrs.data();
  gs.numMetrics = resolved_ptrs.size();
  gs.maxNumOfRanges = max_ranges;
  gs.maxNumRangeTreeNodes = max_ranges;
  COUNTERS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&gs));
  if (counter_data.size() != gs.counterDataSize) {
    // A kept-enabled object still points at the old buffer: only a fresh one may get a new one
    // (the size is the same for every collection of one session's metrics).
    if (!fresh) throw ApiError("the counter data size changed between collections");
    counter_data.assign(gs.counterDataSize, 0);
  }
  std::vector<uint8_t>& data = counter_data;  // initialised again for each collection
  auto ci = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  ci.pRangeProfilerObject = obj;
  ci.counterDataSize = data.size();
  ci.pCounterData = data.data();
  COUNTERS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci));

  auto sc = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  sc.pRangeProfilerObject = obj;
  sc.configSize = config.size();
  sc.pConfig = config.data();
  sc.counterDataImageSize = data.size();
  sc.pCounterDataImage = data.data();
  // KernelReplay requires AutoRange; UserReplay here uses one user range around the launch.
  sc.range = user ? CUPTI_UserRange : CUPTI_AutoRange;
  sc.replayMode = user ? CUPTI_UserReplay : CUPTI_KernelReplay;
  sc.maxRangesPerPass = max_ranges;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  COUNTERS_CUPTI(cuptiRangeProfilerSetConfig(&sc));
  clock.mark("configure");

  // Kernel replay: one Start/Stop, CUPTI runs the passes. User replay: one Start/Stop per pass,
  // each around a repeat of the launch, until CUPTI has every pass.
  static char range_name[] = "launch";
  const size_t max_iterations = user ? passes + 1 : 1;
  bool all_submitted = false;
  for (size_t it = 0; it < max_iterations && !all_submitted; ++it) {
    if (user && before_pass) {
      before_pass(stream);
      CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream));  // none of it inside the range
    }
    auto st =
        params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    st.pRangeProfilerObject = obj;
    COUNTERS_CUPTI(cuptiRangeProfilerStart(&st));
    guard.started = true;
    if (user) {
      auto pr = params<CUpti_RangeProfiler_PushRange_Params>(
          CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
      pr.pRangeProfilerObject = obj;
      pr.pRangeName = range_name;
      COUNTERS_CUPTI(cuptiRangeProfilerPushRange(&pr));
    }
    launch(stream);
    if (user) {
      auto pp = params<CUpti_RangeProfiler_PopRange_Params>(
          CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
      pp.pRangeProfilerObject = obj;
      COUNTERS_CUPTI(cuptiRangeProfilerPopRange(&pp));
    }
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(stream));
    auto sp = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = obj;
    guard.started = false;
    COUNTERS_CUPTI(cuptiRangeProfilerStop(&sp));
    all_submitted = sp.isAllPassSubmitted != 0;
  }
  if (!all_submitted)
    throw ApiError(std::string(user ? "CUPTI user replay" : "CUPTI kernel replay") +
                   " did not submit all " + std::to_string(passes) + " passes in " +
                   std::to_string(max_iterations) + (user ? " launches" : " launch"));
  clock.mark("replay");

  auto dd = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  dd.pRangeProfilerObject = obj;
  COUNTERS_CUPTI(cuptiRangeProfilerDecodeData(&dd));
  if (dd.numOfRangeDropped > 0)
    throw ApiError(std::to_string(dd.numOfRangeDropped) +
                   " kernel(s) dropped: a launch may have at most " + std::to_string(max_ranges) +
                   " kernels");
  auto di = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  di.pCounterDataImage = data.data();
  di.counterDataImageSize = data.size();
  COUNTERS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&di));
  if (di.numTotalRanges == 0) throw ApiError("the launch ran no kernel: nothing to count");

  std::vector<std::string> failed;
  for (size_t r = 0; r < di.numTotalRanges; ++r) {
    std::vector<double> v(resolved_ptrs.size(), nan_v);
    auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = r;
    ev.ppMetricNames = resolved_ptrs.data();
    ev.numMetrics = resolved_ptrs.size();
    ev.pMetricValues = v.data();
    if (cuptiProfilerHostEvaluateToGpuValues(&ev) != CUPTI_SUCCESS) {
      for (size_t i = 0; i < resolved_ptrs.size();
           ++i) {  // one by one, to keep the metrics that work
        ev.ppMetricNames = &resolved_ptrs[i];
        ev.numMetrics = 1;
        ev.pMetricValues = &v[i];
        if (cuptiProfilerHostEvaluateToGpuValues(&ev) != CUPTI_SUCCESS) {
          v[i] = nan_v;
          failed.push_back(requested[i]);
        }
      }
    }
    std::map<std::string, double> kernel;
    for (size_t i = 0; i < requested.size(); ++i) kernel[requested[i]] = v[i];
    result.per_kernel.push_back(std::move(kernel));
  }

  clock.mark("decode");
  guard.succeeded = true;
  guard.close();
  clock.mark("disable");

  result.kernels = static_cast<int>(result.per_kernel.size());
  size_t longest = 0;
  for (size_t k = 0; k < result.per_kernel.size(); ++k) {
    const auto& pk = result.per_kernel[k];
    const auto it = pk.find("gpu__time_duration.sum");
    if (it != pk.end() && it->second > result.per_kernel[longest].at("gpu__time_duration.sum"))
      longest = k;
  }
  for (const std::string& m : requested) {
    if (ends_with(m, ".sum")) {
      double sum = 0.0;
      for (const auto& pk : result.per_kernel) sum += pk.at(m);
      result.values[m] = sum;
    } else {
      result.values[m] = result.per_kernel[longest].at(m);
    }
  }
  result.ok = true;
  if (!failed.empty()) {
    result.reason = "could not evaluate:";
    for (const auto& f : failed) result.reason += " " + f;
  }
  if (!dropped.empty())
    for (const auto& d : dropped)
      result.reason.append(result.reason.empty() ? "" : "; ").append("dropped ").append(d);
}

CounterSession::CounterSession(int device, std::vector<std::string> metrics, CounterOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->device = device;
  impl_->options = options;
  try {
    impl_->setup(metrics);
  } catch (const std::exception& e) {
    impl_->available = false;
    impl_->why = e.what();
  }
}

CounterSession::~CounterSession() {
  impl_->disable();
  if (impl_->host) {
    auto hd = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    hd.pHostObject = impl_->host;
    cuptiProfilerHostDeinitialize(&hd);
  }
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

bool CounterSession::available() const {
  return impl_->available;
}
std::string CounterSession::why_unavailable() const {
  return impl_->why;
}
const std::vector<std::string>& CounterSession::metrics() const {
  return impl_->requested;
}
const std::vector<std::string>& CounterSession::dropped_metrics() const {
  return impl_->dropped;
}
std::string CounterSession::chip() const {
  return impl_->chip;
}
size_t CounterSession::passes() const {
  return impl_->passes;
}

const CounterOptions& CounterSession::options() const {
  return impl_->options;
}

CounterResult CounterSession::collect_enabled_once(const CounterLaunchFn& launch) {
  impl_->disable();
  CounterResult r = collect(launch);
  impl_->disable();
  return r;
}

CounterResult CounterSession::collect(const CounterLaunchFn& launch,
                                      const CounterLaunchFn& before_pass) {
  CounterResult result;
  if (!impl_->available) {
    result.reason = impl_->why;
    return result;
  }
  // A failed collection keeps the step times it took (wall_s) and drops what it read.
  auto failed = [&](std::string why) {
    impl_->disable();  // also where the failure came before the collection's own guard
    result.ok = false;
    result.reason = std::move(why);
    result.values.clear();
    result.per_kernel.clear();
    result.kernels = 0;
    return result;
  };
  try {
    impl_->collect(launch, before_pass, result);
    return result;
  } catch (const std::exception& e) {
    return failed(e.what());
  } catch (...) {
    return failed("unknown exception in the launch callback");
  }
}

namespace {
double value_or_nan(const CounterResult& r, const char* name) {
  const auto it = r.values.find(name);
  return it == r.values.end() ? nan_v : it->second;
}
nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}
}  // namespace

double dram_bytes(const CounterResult& r) {
  return value_or_nan(r, "dram__bytes_read.sum") + value_or_nan(r, "dram__bytes_write.sum");
}

double fp32_flops(const CounterResult& r) {
  return 2.0 * value_or_nan(r, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum") +
         value_or_nan(r, "sm__sass_thread_inst_executed_op_fadd_pred_on.sum") +
         value_or_nan(r, "sm__sass_thread_inst_executed_op_fmul_pred_on.sum");
}

double wall_seconds(const CounterResult& r) {
  double total = 0;
  for (const auto& [step, sec] : r.wall_s) total += sec;
  return total;
}

nlohmann::json to_json(const CounterResult& r) {
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [k, v] : r.values) values[k] = finite_or_null(v);
  nlohmann::json per_kernel = nlohmann::json::array();
  for (const auto& pk : r.per_kernel) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : pk) j[k] = finite_or_null(v);
    per_kernel.push_back(std::move(j));
  }
  return {{"ok", r.ok},
          {"reason", r.reason},
          {"kernels", r.kernels},
          {"values", values},
          {"dram_bytes", finite_or_null(dram_bytes(r))},
          {"fp32_flops", finite_or_null(fp32_flops(r))},
          {"per_kernel", per_kernel},
          {"wall_s", r.wall_s}};
}

}  // namespace csrgat::profiler
