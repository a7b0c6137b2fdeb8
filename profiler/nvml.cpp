#include "profiler/nvml.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <type_traits>
#include <utility>

#if CSRGAT_HAVE_NVML
#include <nvml.h>
#endif

namespace csrgat::profiler {

bool is_throttled(uint64_t reasons) {
  return (reasons & clock_event::throttling) != 0;
}

std::string describe_clock_events(uint64_t reasons) {
  static constexpr std::pair<uint64_t, const char*> names[] = {
      {clock_event::gpu_idle, "gpu_idle"},
      {clock_event::applications_clocks, "applications_clocks"},
      {clock_event::sw_power_cap, "sw_power_cap"},
      {clock_event::hw_slowdown, "hw_slowdown"},
      {clock_event::sync_boost, "sync_boost"},
      {clock_event::sw_thermal, "sw_thermal"},
      {clock_event::hw_thermal, "hw_thermal"},
      {clock_event::hw_power_brake, "hw_power_brake"},
      {clock_event::display_clocks, "display_clocks"},
      {clock_event::board_limit, "board_limit"},
      {clock_event::reliability, "reliability"},
  };
  if (reasons == 0) return "none";
  std::string out;
  uint64_t known = 0;
  for (const auto& [bit, name] : names) {
    known |= bit;
    if (reasons & bit) out.append(out.empty() ? "" : "|").append(name);
  }
  if (const uint64_t rest = reasons & ~known) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(rest));
    out.append(out.empty() ? "" : "|").append(hex);
  }
  return out;
}

std::string format_gpu_uuid(const char* b) {
  const auto* u = reinterpret_cast<const unsigned char*>(b);
  char s[48];
  std::snprintf(s, sizeof s,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                u[14], u[15]);
  return s;
}

#if CSRGAT_HAVE_NVML

// Prototypes come from nvml.h; the addresses from dlsym.
struct Nvml::Api {
  decltype(&nvmlInit_v2) init = nullptr;
  decltype(&nvmlShutdown) shutdown = nullptr;
  decltype(&nvmlErrorString) error_string = nullptr;
  decltype(&nvmlDeviceGetHandleByUUID) by_uuid = nullptr;
  decltype(&nvmlDeviceGetHandleByPciBusId_v2) by_pci = nullptr;
  decltype(&nvmlDeviceGetClockInfo) clock = nullptr;
  decltype(&nvmlDeviceGetMaxClockInfo) max_clock = nullptr;
  decltype(&nvmlDeviceGetCurrentClocksEventReasons) events = nullptr;
  decltype(&nvmlSystemGetDriverVersion) driver = nullptr;

  std::string text(nvmlReturn_t r) const {
    const char* s = error_string ? error_string(r) : nullptr;
    return std::string(s ? s : "unknown NVML error") + " (" + std::to_string(static_cast<int>(r)) +
           ")";
  }
};

Nvml::Nvml(const std::string& library) {
  lib_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib_ == nullptr) {
    const char* e = dlerror();
    why_ = "nvml unavailable: dlopen(" + library + ") failed: " + (e ? e : "unknown error") +
           " (no NVIDIA driver on this machine?)";
    return;
  }
  api_ = new Api;
  std::string missing;
  auto resolve = [&](auto& fn, const char* name, bool required) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib_, name));
    if (fn == nullptr && required) missing.append(missing.empty() ? "" : ", ").append(name);
  };
  resolve(api_->init, "nvmlInit_v2", true);
  resolve(api_->shutdown, "nvmlShutdown", true);
  resolve(api_->error_string, "nvmlErrorString", true);
  resolve(api_->by_uuid, "nvmlDeviceGetHandleByUUID", true);
  resolve(api_->by_pci, "nvmlDeviceGetHandleByPciBusId_v2", false);
  resolve(api_->clock, "nvmlDeviceGetClockInfo", true);
  resolve(api_->max_clock, "nvmlDeviceGetMaxClockInfo", false);
  resolve(api_->events, "nvmlDeviceGetCurrentClocksEventReasons", false);
  if (api_->events == nullptr)  // drivers before the rename; same signature and bits
    api_->events = reinterpret_cast<decltype(api_->events)>(
        dlsym(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  resolve(api_->driver, "nvmlSystemGetDriverVersion", false);
  if (!missing.empty()) {
    why_ = "nvml unavailable: " + library + " lacks " + missing;
    return;
  }
  if (const nvmlReturn_t r = api_->init(); r != NVML_SUCCESS) {
    why_ = "nvml unavailable: nvmlInit_v2 failed: " + api_->text(r);
    return;
  }
  available_ = true;
}

Nvml::~Nvml() {
  if (available_ && api_ && api_->shutdown) api_->shutdown();
  delete api_;
  if (lib_) dlclose(lib_);
}

bool Nvml::fail(const std::string& what) {
  last_error_ = what;
  return false;
}

void* Nvml::device_handle(int cuda_device) {
  if (!available_) return nullptr;
  if (auto it = handles_.find(cuda_device); it != handles_.end()) return it->second;
  nvmlDevice_t h = nullptr;
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, cuda_device); e != cudaSuccess) {
    fail("nvml: cudaGetDeviceProperties(" + std::to_string(cuda_device) +
         ") failed: " + cudaGetErrorName(e));
    return nullptr;
  }
  const std::string uuid = format_gpu_uuid(prop.uuid.bytes);
  nvmlReturn_t r = api_->by_uuid(uuid.c_str(), &h);
  if (r != NVML_SUCCESS && api_->by_pci != nullptr) {  // e.g. MIG, where CUDA reports a MIG UUID
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_device) == cudaSuccess)
      r = api_->by_pci(bus, &h);
  }
  if (r != NVML_SUCCESS) {
    fail("nvml: no NVML device for CUDA device " + std::to_string(cuda_device) + " (" + uuid +
         "): " + api_->text(r));
    h = nullptr;
  }
  handles_[cuda_device] = h;  // cache failures too: the lookup will not start working
  return h;
}

std::optional<unsigned> Nvml::sm_clock_mhz(int cuda_device) {
  auto* h = static_cast<nvmlDevice_t>(device_handle(cuda_device));
  if (h == nullptr) return std::nullopt;
  unsigned mhz = 0;
  if (const nvmlReturn_t r = api_->clock(h, NVML_CLOCK_SM, &mhz); r != NVML_SUCCESS) {
    fail("nvmlDeviceGetClockInfo failed: " + api_->text(r));
    return std::nullopt;
  }
  return mhz;
}

std::optional<unsigned> Nvml::max_sm_clock_mhz(int cuda_device) {
  auto* h = static_cast<nvmlDevice_t>(device_handle(cuda_device));
  if (h == nullptr || api_->max_clock == nullptr) return std::nullopt;
  unsigned mhz = 0;
  if (const nvmlReturn_t r = api_->max_clock(h, NVML_CLOCK_SM, &mhz); r != NVML_SUCCESS) {
    fail("nvmlDeviceGetMaxClockInfo failed: " + api_->text(r));
    return std::nullopt;
  }
  return mhz;
}

std::optional<uint64_t> Nvml::throttle_reasons(int cuda_device) {
  auto* h = static_cast<nvmlDevice_t>(device_handle(cuda_device));
  if (h == nullptr) return std::nullopt;
  if (api_->events == nullptr) {
    fail("nvml: driver has no nvmlDeviceGetCurrentClocksEventReasons");
    return std::nullopt;
  }
  unsigned long long reasons = 0;
  if (const nvmlReturn_t r = api_->events(h, &reasons); r != NVML_SUCCESS) {
    fail("nvmlDeviceGetCurrentClocksEventReasons failed: " + api_->text(r));
    return std::nullopt;
  }
  return static_cast<uint64_t>(reasons);
}

std::optional<std::string> Nvml::driver_version() {
  if (!available_ || api_->driver == nullptr) return std::nullopt;
  char v[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  if (const nvmlReturn_t r = api_->driver(v, sizeof v); r != NVML_SUCCESS) {
    fail("nvmlSystemGetDriverVersion failed: " + api_->text(r));
    return std::nullopt;
  }
  return std::string(v);
}

#else  // !CSRGAT_HAVE_NVML

struct Nvml::Api {};

Nvml::Nvml(const std::string&) {
  why_ = "nvml unavailable: header not found at build time";
}
Nvml::~Nvml() = default;
bool Nvml::fail(const std::string& what) {
  last_error_ = what;
  return false;
}
void* Nvml::device_handle(int) {
  return nullptr;
}
std::optional<unsigned> Nvml::sm_clock_mhz(int) {
  return std::nullopt;
}
std::optional<unsigned> Nvml::max_sm_clock_mhz(int) {
  return std::nullopt;
}
std::optional<uint64_t> Nvml::throttle_reasons(int) {
  return std::nullopt;
}
std::optional<std::string> Nvml::driver_version() {
  return std::nullopt;
}

#endif

}  // namespace csrgat::profiler
