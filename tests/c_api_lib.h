// libcsrgat_c.so (include/csrgat/c_api.h) loaded with dlopen, as a ctypes caller loads it: the
// unit tests check its exports and argument checks, the GPU test runs it in a process that has
// its own CUDA runtime (as PyTorch's has). Where it is: $CSRGAT_C_LIB, else beside the running
// executable (a staged .gpu/bin), else the build's (CSRGAT_C_LIB_BUILT).
#pragma once

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "csrgat/c_api.h"

namespace csrgat::test {

struct CApiLib {
  void* handle = nullptr;
  std::string path;
  std::string error;  // why it did not load
  decltype(&csrgat_shape_create) shape_create = nullptr;
  decltype(&csrgat_shape_destroy) shape_destroy = nullptr;
  decltype(&csrgat_shape_variant) shape_variant = nullptr;
  decltype(&csrgat_aggregate) aggregate = nullptr;
  decltype(&csrgat_aggregate_out) aggregate_out = nullptr;
  decltype(&csrgat_call_create) call_create = nullptr;
  decltype(&csrgat_call_create_out) call_create_out = nullptr;
  decltype(&csrgat_call_launch) call_launch = nullptr;
  decltype(&csrgat_call_destroy) call_destroy = nullptr;
  decltype(&csrgat_call_variant) call_variant = nullptr;
  decltype(&csrgat_status_string) status_string = nullptr;
  decltype(&csrgat_compiled_archs) compiled_archs = nullptr;
  decltype(&csrgat_tuned_source) tuned_source = nullptr;
  decltype(&csrgat_last_cuda_error) last_cuda_error = nullptr;
  decltype(&csrgat_last_cuda_error_string) last_cuda_error_string = nullptr;
  decltype(&csrgat_last_error_message) last_error_message = nullptr;

  CApiLib() {
    path = where();
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      error = dlerror();
      return;
    }
    bool ok =
        sym(shape_create, "csrgat_shape_create") && sym(shape_destroy, "csrgat_shape_destroy") &&
        sym(shape_variant, "csrgat_shape_variant") && sym(aggregate, "csrgat_aggregate") &&
        sym(aggregate_out, "csrgat_aggregate_out") && sym(call_create, "csrgat_call_create") &&
        sym(call_create_out, "csrgat_call_create_out") && sym(call_launch, "csrgat_call_launch") &&
        sym(call_destroy, "csrgat_call_destroy") && sym(call_variant, "csrgat_call_variant") &&
        sym(status_string, "csrgat_status_string") &&
        sym(compiled_archs, "csrgat_compiled_archs") && sym(tuned_source, "csrgat_tuned_source") &&
        sym(last_cuda_error, "csrgat_last_cuda_error") &&
        sym(last_cuda_error_string, "csrgat_last_cuda_error_string") &&
        sym(last_error_message, "csrgat_last_error_message");
    if (!ok) aggregate = nullptr;
  }
  ~CApiLib() {
    if (handle) dlclose(handle);
  }
  CApiLib(const CApiLib&) = delete;
  CApiLib& operator=(const CApiLib&) = delete;
  bool loaded() const { return aggregate != nullptr; }
  // Whether the library exports `name` (its version script exports csrgat_* only).
  bool exports(const char* name) const { return handle && dlsym(handle, name) != nullptr; }

 private:
  template <class F>
  bool sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(handle, name));
    if (!f) error = std::string("no symbol ") + name + " in " + path;
    return f != nullptr;
  }
  static std::string where() {
    if (const char* env = std::getenv("CSRGAT_C_LIB"); env && *env) return env;
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
      std::string dir(exe, static_cast<size_t>(n));
      dir = dir.substr(0, dir.rfind('/') + 1);
      const std::string beside = dir + "libcsrgat_c.so";
      if (access(beside.c_str(), R_OK) == 0) return beside;
    }
#if defined(CSRGAT_C_LIB_BUILT)
    return CSRGAT_C_LIB_BUILT;
#else
    return "libcsrgat_c.so";
#endif
  }
};

}  // namespace csrgat::test
