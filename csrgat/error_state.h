// The library's per-thread failure state (csrgat::last_error_message(), last_cuda_error()),
// shared with the C interface, whose own argument checks (its enumerations as ints, its null
// handles) report through it too. Internal to the library.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "csrgat/aggregate.h"

namespace csrgat::detail {

// Keeps `what` (then `more`) as this thread's latest failure (and e as its CUDA error:
// cudaSuccess for one that is not a CUDA error) and returns s. Never throws: the text is joined
// inside, and without memory for it the failure reads "out of memory".
Status record_failure(Status s, const char* what, const char* more = "",
                      cudaError_t e = cudaSuccess) noexcept;
Status record_failure(Status s, const std::string& what, cudaError_t e = cudaSuccess) noexcept;

// This thread's latest failure text with `where` in front ("where: text"), and st returned
// (ok: nothing done). Without memory for the longer text the text stays as it was.
Status name_failure(const char* where, Status st) noexcept;

// While one lives, the library's public entries on this thread name `name` in front of their
// failures instead of their own C++ names ("aggregate: ...", "Shape::create: ..."): the C
// interface's functions are the entries its callers know ("csrgat_aggregate: ..."). The
// innermost one counts; `name` must outlive it.
class EntryName {
 public:
  explicit EntryName(const char* name) noexcept;
  ~EntryName();
  EntryName(const EntryName&) = delete;
  EntryName& operator=(const EntryName&) = delete;

 private:
  const char* previous_;
};

}  // namespace csrgat::detail
