#include "profiler/cupti_support.h"

#include "profiler/check.h"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace csrgat::profiler::detail {

std::optional<std::string> injected_tool() {
  for (const char* var : {"NV_NSIGHT_INJECTION_TRANSPORT_TYPE", "CUDA_INJECTION64_PATH"})
    if (const char* v = std::getenv(var); v != nullptr && *v != '\0')
      return std::string(var) + "=" + v;
  return std::nullopt;
}

std::string cupti_hint(CUptiResult r) {
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "GPU performance counters are restricted to admin users (RmProfilingAdminOnly=1): run "
             "as root "
             "or load the driver with NVreg_RestrictProfilingToAdminUsers=0, see "
             "https://developer.nvidia.com/ERR_NVGPUCTRPERM";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      return "virtualised GPU (vGPU): profiling not supported";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "the hypervisor does not allow profiling on this vGPU";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      return "MIG instance: profiling not supported";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      return "confidential-computing mode is on";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "another CUPTI client is attached (running under nsys, ncu or a debugger?)";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "the counters are held by another profiler (ncu, or DCGM profiling / dcgm-exporter)";
    case CUPTI_ERROR_NOT_INITIALIZED:
      return "CUPTI could not initialise: driver older than this CUPTI, or libnvperf_host.so / "
             "libnvperf_target.so not found";
    case CUPTI_ERROR_NOT_COMPATIBLE:
      return "CUPTI and the driver are not compatible";
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      return "metric unknown on this chip";
    default:
      return "";
  }
}

std::string cupti_failure(const char* call, CUptiResult r) {
  std::string s = std::string(call) + " failed: " + cupti_error_text(r);
  if (const std::string h = cupti_hint(r); !h.empty()) s += "; " + h;
  return s;
}

namespace {

template <typename Fn>
Fn driver_entry(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  const cudaError_t e =
      cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &status);
  if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || fn == nullptr)
    throw ApiError(std::string("cudaGetDriverEntryPointByVersion(\"") + symbol + "\") failed: " +
                   (e != cudaSuccess ? cuda_error_text(e)
                                     : "symbol not found (status " +
                                           std::to_string(static_cast<int>(status)) + ")") +
                   " at " + __FILE__ + ":" + std::to_string(__LINE__));
  return reinterpret_cast<Fn>(fn);
}

}  // namespace

CUcontext current_context() {
  static const auto get = driver_entry<CUresult (*)(CUcontext*)>("cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  if (get(&ctx) != CUDA_SUCCESS || ctx == nullptr) {
    CSRGAT_CUDA_CHECK(cudaFree(nullptr));  // the runtime creates the primary context lazily
    if (get(&ctx) != CUDA_SUCCESS || ctx == nullptr)
      throw ApiError(std::string("cuCtxGetCurrent returned no context at ") + __FILE__ + ":" +
                     std::to_string(__LINE__));
  }
  return ctx;
}

CUdevice current_cu_device() {
  static const auto get = driver_entry<CUresult (*)(CUdevice*)>("cuCtxGetDevice");
  current_context();
  CUdevice dev = 0;
  if (const CUresult r = get(&dev); r != CUDA_SUCCESS)
    throw ApiError("cuCtxGetDevice failed: CUresult " + std::to_string(static_cast<int>(r)) +
                   " at " + __FILE__ + ":" + std::to_string(__LINE__));
  return dev;
}

uint32_t cupti_stream_id(cudaStream_t stream) {
  uint32_t id = 0;
  CSRGAT_CUPTI_CHECK(
      cuptiGetStreamIdEx(current_context(), reinterpret_cast<CUstream>(stream), 0, &id));
  return id;
}

std::string preload_nvperf() {
  static const std::string result = [] {
    std::string dir;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
          const char* name = info->dlpi_name;
          if (name == nullptr || std::strstr(name, "libcupti.so") == nullptr) return 0;
          std::string path(name);
          *static_cast<std::string*>(out) = path.substr(0, path.rfind('/'));
          return 1;
        },
        &dir);
    std::string missing;
    for (const char* lib : {"libnvperf_host.so", "libnvperf_target.so"}) {
      void* h = dir.empty() ? nullptr : dlopen((dir + "/" + lib).c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (h == nullptr) h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
      if (h == nullptr) {
        const char* e = dlerror();
        missing.append(missing.empty() ? "" : "; ")
            .append(lib)
            .append(": ")
            .append(e ? e : "not found");
      }
      // The handle is kept for the life of the process, as CUPTI keeps its own.
    }
    if (missing.empty()) return std::string();
    return "cannot load the PerfWorks libraries CUPTI needs (looked beside libcupti in '" + dir +
           "' and on the loader path): " + missing;
  }();
  return result;
}

std::optional<double> span_of_records(const std::vector<ActivityRecord>& records,
                                      int& expected_kernels, std::string& why) {
  int k = 0;
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& r : records) {
    const bool complete = r.start != 0 && r.end >= r.start;
    if (r.kernel) {
      ++k;
      if (!complete) {  // a kernel of the launch whose time is unknown: no span of the whole
        why = "CUPTI delivered a kernel record without timestamps";
        return std::nullopt;
      }
    }
    if (!complete) continue;  // a copy or memset without timestamps
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  if (k == 0) {
    why = "CUPTI delivered no kernel record for the launch";
    return std::nullopt;
  }
  if (k < expected_kernels) {
    why = "CUPTI delivered " + std::to_string(k) + " of the launch's " +
          std::to_string(expected_kernels) + " kernel records";
    return std::nullopt;
  }
  expected_kernels = std::max(expected_kernels, k);  // a launch seen with more kernels
  if (last <= first) {
    why = "CUPTI kernel records carried no timestamps";
    return std::nullopt;
  }
  return static_cast<double>(last - first) * 1e-3;
}

ActivityTracer& ActivityTracer::instance() {
  // Never destroyed: CUPTI may deliver buffers while the process exits.
  static ActivityTracer* tracer = new ActivityTracer;
  return *tracer;
}

namespace {
constexpr size_t buffer_bytes = size_t(1) << 20;  // ~4000 kernel records
constexpr size_t pool_max = 32;
}  // namespace

void CUPTIAPI ActivityTracer::buffer_requested(uint8_t** buffer, size_t* size,
                                               size_t* max_records) {
  ActivityTracer& self = instance();
  uint8_t* b = nullptr;
  {
    std::lock_guard<std::mutex> lock(self.pool_mu_);
    if (!self.pool_.empty()) {
      b = self.pool_.back();
      self.pool_.pop_back();
    }
  }
  if (b == nullptr)
    b = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, buffer_bytes));
  *buffer = b;
  *size = b ? buffer_bytes : 0;  // no buffer: CUPTI drops records and counts them
  *max_records = 0;
}

void CUPTIAPI ActivityTracer::buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t* buffer,
                                               size_t, size_t valid_size) {
  ActivityTracer& self = instance();
  std::vector<ActivityRecord> got;
  CUpti_Activity* rec = nullptr;
  while (buffer && cuptiActivityGetNextRecord(buffer, valid_size, &rec) == CUPTI_SUCCESS) {
    ActivityRecord r;
    switch (rec->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(rec);
        r = {k->start, k->end, k->deviceId, k->streamId, k->correlationId, true};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(rec);
        r = {m->start, m->end, m->deviceId, m->streamId, m->correlationId, false};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(rec);
        r = {m->start, m->end, m->deviceId, m->streamId, m->correlationId, false};
        break;
      }
      default:
        continue;
    }
    got.push_back(r);
  }
  // ctx is always NULL (global buffers since CUDA 6.0, cupti_activity.h): NULL asks the
  // global queue, which is where records are dropped when buffer_requested has no buffer.
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream_id, &dropped) != CUPTI_SUCCESS) dropped = 0;
  {
    std::lock_guard<std::mutex> lock(self.pool_mu_);
    if (buffer != nullptr && self.pool_.size() < pool_max)
      self.pool_.push_back(buffer);
    else
      std::free(buffer);
  }
  std::lock_guard<std::mutex> lock(self.records_mu_);
  // Between measurements nobody takes records (events-only or graph timing, verification runs):
  // bound the backlog. A measurement discards before each sample, so it only loses records if
  // one sample alone made more than this many, and then it notices the shortfall.
  if (self.records_.size() > (size_t(1) << 20)) self.records_.clear();
  self.records_.insert(self.records_.end(), got.begin(), got.end());
  self.dropped_ += dropped;
}

bool ActivityTracer::ensure_enabled(std::string& why) {
  std::lock_guard<std::mutex> lock(state_mu_);
  if (!tried_) {
    tried_ = true;
    if (const auto tool = injected_tool()) {
      why_ = "a CUDA tool is injected (" + *tool + "): CUPTI activity is left to it";
    } else if (const CUptiResult r =
                   cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
               r != CUPTI_SUCCESS) {
      why_ = cupti_failure("cuptiActivityRegisterCallbacks", r);
    } else if (const CUptiResult r2 = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
               r2 != CUPTI_SUCCESS) {
      why_ = cupti_failure("cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)", r2);
    } else {
      enabled_ = true;
      kinds_ = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL};
      for (int i = 0; i < 4; ++i)  // pages faulted in now, not during the first samples
        if (auto* b = static_cast<uint8_t*>(
                std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, buffer_bytes))) {
          std::memset(b, 0, buffer_bytes);
          std::lock_guard<std::mutex> pool_lock(pool_mu_);
          pool_.push_back(b);
        }
      for (CUpti_ActivityKind k : {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET})
        if (cuptiActivityEnable(k) == CUPTI_SUCCESS) kinds_.push_back(k);
    }
  }
  if (!enabled_)
    why = why_;
  else if (paused_ > 0)
    why = "CUPTI activity is paused (range profiling or an events-only measurement runs)";
  return enabled_ && paused_ == 0;
}

void ActivityTracer::flush_forced() {
  CSRGAT_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
}

void ActivityTracer::discard() {
  flush_forced();
  uint64_t now = 0;
  CSRGAT_CUPTI_CHECK(cuptiGetTimestamp(&now));  // the records' own clock
  std::lock_guard<std::mutex> lock(records_mu_);
  records_.clear();
  dropped_ = 0;
  since_ = now;
}

std::vector<ActivityRecord> ActivityTracer::take() {
  flush_forced();
  std::vector<ActivityRecord> all;
  std::lock_guard<std::mutex> lock(records_mu_);
  all.swap(records_);
  // A record of work that started before the last discard() (which follows a synchronisation)
  // is an earlier sample's that CUPTI delivered late, not the current one's: counted here it
  // would stretch the span back to that work and raise the launch's expected kernel count.
  std::erase_if(all, [&](const ActivityRecord& r) { return r.start != 0 && r.start < since_; });
  return all;
}

uint64_t ActivityTracer::dropped() {
  std::lock_guard<std::mutex> lock(records_mu_);
  return dropped_;
}

std::string ActivityTracer::kinds() const {
  std::lock_guard<std::mutex> lock(state_mu_);
  std::string s;
  for (CUpti_ActivityKind k : kinds_) {
    const char* name = k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ? "concurrent_kernel"
                       : k == CUPTI_ACTIVITY_KIND_MEMCPY          ? "memcpy"
                                                                  : "memset";
    s.append(s.empty() ? "" : ",").append(name);
  }
  return s;
}

ActivityTracer::Pause::Pause() {
  ActivityTracer& t = instance();
  std::lock_guard<std::mutex> lock(t.state_mu_);
  if (!t.enabled_) return;
  active_ = true;
  if (t.paused_++ > 0) return;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind k : t.kinds_) cuptiActivityDisable(k);
}

ActivityTracer::Pause::~Pause() {
  if (!active_) return;
  ActivityTracer& t = instance();
  std::lock_guard<std::mutex> lock(t.state_mu_);
  if (--t.paused_ > 0 || !t.enabled_) return;
  for (CUpti_ActivityKind k : t.kinds_) {
    if (const CUptiResult r = cuptiActivityEnable(k); r != CUPTI_SUCCESS) {
      t.enabled_ = false;
      t.why_ = "re-enabling CUPTI activity after range profiling: " +
               cupti_failure("cuptiActivityEnable", r);
      for (CUpti_ActivityKind other : t.kinds_) cuptiActivityDisable(other);
      break;
    }
  }
}

}  // namespace csrgat::profiler::detail
