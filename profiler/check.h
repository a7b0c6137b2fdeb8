// Checking macros for the CUDA runtime and CUPTI: a failed call throws ApiError whose text
// names the call, the API's error string, the file and the line, e.g.
//   "cudaMalloc(&p, n) failed: cudaErrorMemoryAllocation (out of memory) at timer.cpp:42".
// The tuner catches ApiError per trial; tools let it reach main().
#pragma once

#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <stdexcept>
#include <string>

namespace csrgat::profiler {

class ApiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

// Inline and only odr-used by CSRGAT_CUPTI_CHECK, so code that includes this header for
// CSRGAT_CUDA_CHECK alone does not need libcupti.
inline std::string cupti_error_text(CUptiResult r) {
  const char* name = nullptr;
  if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || name == nullptr) name = "CUPTI_ERROR_?";
  std::string text = std::string(name) + " (" + std::to_string(static_cast<int>(r)) + ")";
  const char* message = nullptr;
  if (cuptiGetErrorMessage(r, &message) == CUPTI_SUCCESS && message != nullptr && *message != '\0')
    text += ": " + std::string(message);
  return text;
}

[[noreturn]] inline void throw_api_error(const char* expr, const std::string& error,
                                         const char* file, int line) {
  throw ApiError(std::string(expr) + " failed: " + error + " at " + file + ":" +
                 std::to_string(line));
}

}  // namespace detail
}  // namespace csrgat::profiler

#define CSRGAT_CUDA_CHECK(expr)                                                               \
  do {                                                                                        \
    const cudaError_t csrgat_e_ = (expr);                                                     \
    if (csrgat_e_ != cudaSuccess)                                                             \
      ::csrgat::profiler::detail::throw_api_error(                                            \
          #expr, ::csrgat::profiler::detail::cuda_error_text(csrgat_e_), __FILE__, __LINE__); \
  } while (0)

#define CSRGAT_CUPTI_CHECK(expr)                                                               \
  do {                                                                                         \
    const CUptiResult csrgat_r_ = (expr);                                                      \
    if (csrgat_r_ != CUPTI_SUCCESS)                                                            \
      ::csrgat::profiler::detail::throw_api_error(                                             \
          #expr, ::csrgat::profiler::detail::cupti_error_text(csrgat_r_), __FILE__, __LINE__); \
  } while (0)
