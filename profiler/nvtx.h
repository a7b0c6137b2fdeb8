// NVTX ranges around the tuner's phases, named "csrgat/<graph>/<variant>/<phase>".
//
// Ranges are push/pop ranges of NVTX's default domain (no named domain), so tools filter on the
// name alone. NVTX calls are no-ops unless a tool (nsys, ncu, or CUPTI through
// NVTX_INJECTION64_PATH) is attached.
//
// Filtering. Nsight Compute's --nvtx-include treats '/' as the push/pop nesting delimiter, and
// '@ , [ ] * +' as quantifiers, so the slashes inside our names are escaped with '\' and a
// trailing '/' marks the config as a push/pop range:
//   ncu --nvtx --nvtx-include 'csrgat\/cora\/csrgat.tpr8.rpb4.vec4.smem0.online\/profile/' ./tuner
//   ... ncu --nvtx --nvtx-include 'regex:csrgat\/cora\/.*\/profile/' ./tuner ...      (every
//   variant)
// Nsight Systems records every range with --trace=nvtx; to start capturing at a range:
//   NSYS_NVTX_PROFILER_REGISTER_ONLY=0 nsys profile --trace=cuda,nvtx --capture-range=nvtx
//       --nvtx-capture='csrgat/cora/<variant>/measure' ./tuner ...
// (nsys matches non-registered strings only with NSYS_NVTX_PROFILER_REGISTER_ONLY=0; our ranges
// use nvtxRangePushA, i.e. non-registered strings.)
//
// Components are sanitised so that every name has exactly four levels and a filter needs no
// escapes beyond the three separators: '/', '\\', '@', ',', '[', ']', '*', '+' and control
// characters inside graph and variant names become '_'.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <string>
#include <string_view>

namespace csrgat::profiler {

enum class Phase { verify, warmup, measure, counters, profile };

std::string_view to_string(Phase phase);

// "csrgat/<graph>/<variant>/<phase>".
std::string range_name(std::string_view graph, std::string_view variant, Phase phase);
// Same, with the phase given by name; throws std::invalid_argument for an unknown phase.
std::string range_name(std::string_view graph, std::string_view variant, std::string_view phase);

// RAII push/pop range on the calling thread. Not copyable or movable: a range must pop on the
// thread and in the scope that pushed it.
class ScopedRange {
 public:
  explicit ScopedRange(const char* name) { nvtxRangePushA(name); }
  explicit ScopedRange(const std::string& name) : ScopedRange(name.c_str()) {}
  ScopedRange(std::string_view graph, std::string_view variant, Phase phase)
      : ScopedRange(range_name(graph, variant, phase)) {}
  ~ScopedRange() { nvtxRangePop(); }
  ScopedRange(const ScopedRange&) = delete;
  ScopedRange& operator=(const ScopedRange&) = delete;
};

}  // namespace csrgat::profiler
