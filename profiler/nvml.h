// SM clock and clock-throttle reasons through NVML, loaded at run time.
//
// libnvidia-ml is never linked: the tuner must start on machines without an NVIDIA driver. The
// library is dlopen()ed and the few functions used are resolved with dlsym. When nvml.h was not
// found at build time (scripts/setup-nvml.sh installs it), every instance is unavailable with
// "nvml unavailable: header not found at build time".
//
// CUDA device ordinals map to NVML handles by UUID (then by PCI bus id), never by index: NVML
// ignores CUDA_VISIBLE_DEVICES, so index i of one is not index i of the other.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace csrgat::profiler {

// NVML "clocks event reason" bits (nvmlClocksEventReason* in nvml.h), fixed by the NVML ABI.
namespace clock_event {
inline constexpr uint64_t gpu_idle = 0x1;
inline constexpr uint64_t applications_clocks = 0x2;
inline constexpr uint64_t sw_power_cap = 0x4;
inline constexpr uint64_t hw_slowdown = 0x8;
inline constexpr uint64_t sync_boost = 0x10;
inline constexpr uint64_t sw_thermal = 0x20;
inline constexpr uint64_t hw_thermal = 0x40;
inline constexpr uint64_t hw_power_brake = 0x80;
inline constexpr uint64_t display_clocks = 0x100;
inline constexpr uint64_t board_limit = 0x200;
inline constexpr uint64_t reliability = 0x400;
// Reasons that lower the SM clock below what the workload asked for. Idle, application-clock
// settings, sync boost and display clocks are states, not throttling.
inline constexpr uint64_t throttling = sw_power_cap | hw_slowdown | sw_thermal | hw_thermal |
                                       hw_power_brake | board_limit | reliability;
}  // namespace clock_event

// True when any of clock_event::throttling is set.
bool is_throttled(uint64_t reasons);
// "none", or the set bits joined by '|', e.g. "sw_power_cap|hw_thermal" (unknown bits in hex).
std::string describe_clock_events(uint64_t reasons);
// NVML's UUID spelling of CUDA's 16 UUID bytes: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::string format_gpu_uuid(const char* bytes16);

// Not thread-safe. Every query returns nullopt when NVML is unavailable or fails; last_error()
// then says why.
class Nvml {
 public:
  explicit Nvml(const std::string& library = "libnvidia-ml.so.1");
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool available() const { return available_; }
  const std::string& why_unavailable() const { return why_; }
  const std::string& last_error() const { return last_error_; }

  std::optional<unsigned> sm_clock_mhz(int cuda_device);
  std::optional<unsigned> max_sm_clock_mhz(int cuda_device);
  std::optional<uint64_t> throttle_reasons(int cuda_device);
  std::optional<std::string> driver_version();

 private:
  struct Api;
  void* device_handle(int cuda_device);  // nvmlDevice_t, cached; nullptr when it cannot be mapped
  bool fail(const std::string& what);

  void* lib_ = nullptr;
  Api* api_ = nullptr;
  bool available_ = false;
  std::string why_;
  std::string last_error_;
  std::map<int, void*> handles_;
};

}  // namespace csrgat::profiler
