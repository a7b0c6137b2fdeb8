// Compiles one variant through NVRTC into a cubin for one architecture, with an on-disk cache
// keyed by the kernel sources, the instantiation, the architecture, the options and the NVRTC
// version. Needs no GPU. Register, spill and shared-memory figures come from ptxas's report.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "variants/arch.h"
#include "variants/params.h"

namespace csrgat::tuner {

class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& what, std::string log)
      : std::runtime_error(what), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

struct CompiledKernel {
  std::string variant_id;
  std::string kernel_name;    // the template instantiation
  std::string lowered_name;   // its mangled symbol in the cubin
  // Its scalar twin, in the same cubin (VariantParams::scalar_kernel_name; empty: none).
  std::string scalar_kernel_name;
  std::string scalar_lowered_name;
  std::vector<char> cubin;  // empty for a colblock variant (nvcc-built: csrgat/colblock.h)
  std::string log;            // NVRTC + ptxas log
  // ptxas's figures for kernel_name (not the twin):
  int registers = -1;
  int spill_bytes = 0;        // spill stores + loads reported by ptxas
  int stack_bytes = 0;
  int static_smem = 0;
  bool from_cache = false;
  double compile_seconds = 0;
  std::string cache_key;
};

class NvrtcCompiler {
 public:
  // arch: "sm_90"; cache_dir: "" disables the disk cache; defines: extra -D options for
  // diagnostic builds (tuner timeline's -DCSRGAT_TIMELINE), part of each kernel's cache key.
  explicit NvrtcCompiler(std::string arch = "sm_90", std::string cache_dir = "",
                         std::vector<std::string> defines = {});
  // Throws CompileError (with the NVRTC log) on a failed compile.
  CompiledKernel compile(const VariantParams& p) const;
  // Compiles arbitrary source text that includes the kernel sources (tests use this to check
  // that a broken kernel reports its error); with scalar_kernel_name, that kernel too.
  CompiledKernel compile_source(const std::string& source, const std::string& kernel_name,
                                const std::string& label,
                                const std::string& scalar_kernel_name = "") const;
  const std::string& arch() const { return arch_; }
  static std::string nvrtc_version();
  // The compute capabilities this NVRTC compiles for (nvrtcGetSupportedArchs: 75, 80, ..., 121
  // for NVRTC 13.0), ascending.
  static std::vector<int> supported_archs();
  // Why NVRTC cannot compile for `arch` ("" when it can): the form sm_<cc> with an optional
  // lowercase a or f suffix (sm_90a), cc one NVRTC lists. Checked where an architecture is
  // given (a config's arch, compile --arch), so that it is named there rather than in every
  // variant's compile log.
  static std::string arch_problem(const std::string& arch);
  // An architecture's compute capability and suffix (variants/arch.h's parse_arch).
  using ArchTarget = csrgat::ArchTarget;
  static std::optional<ArchTarget> parse_arch(const std::string& arch);
  // Whether code compiled for `arch` (one arch_problem passes) runs on a device of compute
  // capability major.minor (variants/arch.h's arch_runs_on; false for text parse_arch refuses).
  static bool arch_runs_on(const std::string& arch, int major, int minor);

 private:
  std::string arch_;
  std::string cache_dir_;
  std::vector<std::string> defines_;
};

// The defines of a run's kernels for its test-only knobs: -DCSRGAT_TEST_KNOBS when the run
// slows its row tasks (test_only.slow_percent > 0), else none. (Fault and delay variants get
// it from compile() itself, by their ids.) Kernels without it never read the knobs.
std::vector<std::string> test_knob_defines(unsigned slow_percent);

// What a tuning run's kernels are made from, as a stable hash: the embedded kernel sources, the
// NVRTC version, the target and the compile options. Two runs with equal hashes compiled the
// same kernels (tuner run resumes or continues only such runs).
std::string kernel_sources_hash(const std::string& arch);

}  // namespace csrgat::tuner
