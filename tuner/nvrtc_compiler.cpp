#include "tuner/nvrtc_compiler.h"

#include <nvrtc.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "graphs/hash.h"
#include "variants/sources.h"

#ifndef CSRGAT_CUDA_INCLUDE_DIR
#define CSRGAT_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace csrgat::tuner {
namespace fs = std::filesystem;

#define CSRGAT_NVRTC_CHECK(expr)                                                              \
  do {                                                                                        \
    nvrtcResult r_ = (expr);                                                                  \
    if (r_ != NVRTC_SUCCESS)                                                                  \
      throw CompileError(std::string(#expr) + " failed: " + nvrtcGetErrorString(r_) + " at " + \
                             __FILE__ + ":" + std::to_string(__LINE__),                        \
                         "");                                                                 \
  } while (0)

std::string NvrtcCompiler::nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> NvrtcCompiler::supported_archs() {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return {};
  std::vector<int> archs(static_cast<size_t>(n));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
  std::sort(archs.begin(), archs.end());
  return archs;
}

std::string NvrtcCompiler::arch_problem(const std::string& arch) {
  const auto archs = supported_archs();
  std::string listed;
  for (int a : archs) listed += (listed.empty() ? "sm_" : ", sm_") + std::to_string(a);
  const std::string expected =
      "expected sm_<compute capability> with an optional a suffix (sm_90 and later) or f suffix "
      "(sm_100 and later), one that NVRTC " +
      nvrtc_version() + " compiles for (" + listed + "); found '" + arch + "'";
  const auto t = parse_arch(arch);
  if (!t || std::find(archs.begin(), archs.end(), t->cc) == archs.end()) return expected;
  // Architecture-specific targets (a) began with sm_90, family ones (f) with sm_100: NVRTC
  // refuses sm_80a or sm_90f at every compile.
  if ((t->suffix == 'a' && t->cc < 90) || (t->suffix == 'f' && t->cc < 100)) return expected;
  return "";
}

std::optional<NvrtcCompiler::ArchTarget> NvrtcCompiler::parse_arch(const std::string& arch) {
  return csrgat::parse_arch(arch);
}

bool NvrtcCompiler::arch_runs_on(const std::string& arch, int major, int minor) {
  const auto t = parse_arch(arch);
  return t && csrgat::arch_runs_on(*t, major, minor);
}

NvrtcCompiler::NvrtcCompiler(std::string arch, std::string cache_dir, std::vector<std::string> defines)
    : arch_(std::move(arch)), cache_dir_(std::move(cache_dir)), defines_(std::move(defines)) {}

namespace {

// The CUDA headers NVRTC needs (cuda_bf16.h, cuda_fp16.h): $CUDA_HOME, then the build's toolkit.
std::string cuda_include_dir() {
  for (const char* env : {"CSRGAT_CUDA_INCLUDE", "CUDA_HOME", "CUDA_PATH"}) {
    if (const char* v = std::getenv(env)) {
      fs::path p = v;
      if (fs::exists(p / "cuda_bf16.h")) return p.string();
      if (fs::exists(p / "include" / "cuda_bf16.h")) return (p / "include").string();
    }
  }
  for (const char* d : {CSRGAT_CUDA_INCLUDE_DIR, "/usr/local/cuda/include"})
    if (fs::exists(fs::path(d) / "cuda_bf16.h")) return d;
  return CSRGAT_CUDA_INCLUDE_DIR;
}

std::vector<std::string> compile_options(const std::string& arch) {
  return {"--gpu-architecture=" + arch, "--std=c++17", "-default-device",
          "--ptxas-options=-v", "--include-path=" + cuda_include_dir(), "-lineinfo"};
}

// ptxas's report on k's kernel: its section of the log (from "Compiling entry function
// '<lowered name>'" to the next entry's), or the whole log when it has no such header and one
// kernel; with its scalar twin in the module and no header, no figures (-1 registers) rather
// than perhaps the twin's.
void parse_ptxas_report(CompiledKernel& k) {
  std::string text = k.log;
  const std::string entry = "Compiling entry function '";
  const size_t at = k.log.find(entry + k.lowered_name + "'");
  if (at != std::string::npos) {
    const size_t next = k.log.find(entry, at + entry.size());
    text = k.log.substr(at, next == std::string::npos ? std::string::npos : next - at);
  } else if (!k.scalar_lowered_name.empty()) {
    return;
  }
  std::smatch m;
  static const std::regex regs(R"(Used (\d+) registers)");
  static const std::regex spill(R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex stack(R"((\d+) bytes stack frame)");
  static const std::regex smem(R"((\d+) bytes smem)");
  if (std::regex_search(text, m, regs)) k.registers = std::stoi(m[1]);
  if (std::regex_search(text, m, spill)) k.spill_bytes = std::stoi(m[1]) + std::stoi(m[2]);
  if (std::regex_search(text, m, stack)) k.stack_bytes = std::stoi(m[1]);
  if (std::regex_search(text, m, smem)) k.static_smem = std::stoi(m[1]);
}

}  // namespace

std::string kernel_sources_hash(const std::string& arch) {
  std::string text = NvrtcCompiler::nvrtc_version() + '\n' + arch;
  // The options, less the CUDA include folder: where a machine keeps its toolkit is not part of
  // what is compiled (its version is, through NVRTC's).
  for (const auto& o : compile_options(arch))
    if (o.rfind("--include-path=", 0) != 0) text += '\n' + o;
  for (const auto& h : embedded_sources()) text += std::string("\n") + h.name + '\n' + h.content;
  return fnv1a_hex(text);
}

std::vector<std::string> test_knob_defines(unsigned slow_percent) {
  if (slow_percent == 0) return {};
  return {"CSRGAT_TEST_KNOBS"};
}

CompiledKernel NvrtcCompiler::compile(const VariantParams& p) const {
  const std::string reason = p.invalid_reason();
  if (!reason.empty()) throw CompileError(p.id() + ": " + reason, "");
  if (p.family == Family::colblock) {  // nvcc-built into the library: nothing for NVRTC
    CompiledKernel k;
    k.variant_id = p.id();
    return k;
  }
  const std::string src =
      "#include \"variants/csrgat_fused.cuh\"\n#include \"variants/baselines.cuh\"\n";
  // A fault or delay variant reads its knob (KernelArgs::fault, delay_ns): only its kernel has
  // the code for them.
  if ((p.fault != 0 || p.delay_ns != 0) &&
      std::find(defines_.begin(), defines_.end(), "CSRGAT_TEST_KNOBS") == defines_.end()) {
    NvrtcCompiler with_knobs(*this);
    with_knobs.defines_.push_back("CSRGAT_TEST_KNOBS");
    return with_knobs.compile_source(src, p.kernel_name(), p.id(), p.scalar_kernel_name());
  }
  return compile_source(src, p.kernel_name(), p.id(), p.scalar_kernel_name());
}

CompiledKernel NvrtcCompiler::compile_source(const std::string& source,
                                             const std::string& kernel_name,
                                             const std::string& label,
                                             const std::string& scalar_kernel_name) const {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& headers = embedded_sources();
  auto opts = compile_options(arch_);
  for (const auto& d : defines_) opts.push_back("-D" + d);

  std::string key_text = source + '\n' + kernel_name + '\n' + nvrtc_version();
  if (!scalar_kernel_name.empty()) key_text += "\nscalar twin " + scalar_kernel_name;
  for (const auto& o : opts) key_text += '\n' + o;
  for (const auto& h : headers) key_text += std::string("\n") + h.name + '\n' + h.content;
  CompiledKernel k;
  k.variant_id = label;
  k.kernel_name = kernel_name;
  k.scalar_kernel_name = scalar_kernel_name;
  k.cache_key = fnv1a_hex(key_text);

  const fs::path cubin_path = cache_dir_.empty() ? fs::path() : fs::path(cache_dir_) / (k.cache_key + ".cubin");
  const fs::path meta_path = cache_dir_.empty() ? fs::path() : fs::path(cache_dir_) / (k.cache_key + ".json");
  if (!cache_dir_.empty() && fs::exists(cubin_path) && fs::exists(meta_path)) {
    try {
      std::ifstream mf(meta_path);
      const auto meta = nlohmann::json::parse(mf);
      std::ifstream cf(cubin_path, std::ios::binary);
      k.cubin.assign(std::istreambuf_iterator<char>(cf), {});
      // The cubin must be the one the entry describes: a truncated or replaced file (or an
      // entry from before the hash was kept) is recompiled, never loaded.
      Fnv1a h;
      h.add(k.cubin.data(), k.cubin.size());
      if (meta.value("cubin_bytes", int64_t{-1}) != static_cast<int64_t>(k.cubin.size()) ||
          meta.value("cubin_fnv1a", std::string()) != h.hex())
        throw std::runtime_error("cache entry's cubin does not match its record");
      k.lowered_name = meta.at("lowered_name");
      k.scalar_lowered_name = meta.value("scalar_lowered_name", "");
      k.log = meta.at("log");
      parse_ptxas_report(k);
      k.from_cache = !k.cubin.empty() && k.scalar_lowered_name.empty() == scalar_kernel_name.empty();
      if (k.from_cache) return k;
    } catch (const std::exception&) {
      // A damaged cache entry is recompiled and overwritten.
    }
    // Recompiled from scratch: nothing read from a rejected entry stays.
    CompiledKernel fresh;
    fresh.variant_id = k.variant_id;
    fresh.kernel_name = k.kernel_name;
    fresh.scalar_kernel_name = k.scalar_kernel_name;
    fresh.cache_key = k.cache_key;
    k = std::move(fresh);
  }

  std::vector<const char*> hdr_src, hdr_name;
  for (const auto& h : headers) {
    hdr_src.push_back(h.content);
    hdr_name.push_back(h.name);
  }
  nvrtcProgram prog;
  CSRGAT_NVRTC_CHECK(nvrtcCreateProgram(&prog, source.c_str(), (label + ".cu").c_str(),
                                        static_cast<int>(headers.size()), hdr_src.data(),
                                        hdr_name.data()));
  struct Destroy {
    nvrtcProgram* p;
    ~Destroy() { nvrtcDestroyProgram(p); }
  } destroy{&prog};
  CSRGAT_NVRTC_CHECK(nvrtcAddNameExpression(prog, kernel_name.c_str()));
  if (!scalar_kernel_name.empty())
    CSRGAT_NVRTC_CHECK(nvrtcAddNameExpression(prog, scalar_kernel_name.c_str()));
  std::vector<const char*> copts;
  for (const auto& o : opts) copts.push_back(o.c_str());
  const nvrtcResult cr = nvrtcCompileProgram(prog, static_cast<int>(copts.size()), copts.data());
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  k.log.assign(log_size, '\0');
  if (log_size) nvrtcGetProgramLog(prog, k.log.data());
  while (!k.log.empty() && k.log.back() == '\0') k.log.pop_back();
  if (cr != NVRTC_SUCCESS)
    throw CompileError(label + ": NVRTC compile failed (" + nvrtcGetErrorString(cr) + ")", k.log);
  size_t cubin_size = 0;
  CSRGAT_NVRTC_CHECK(nvrtcGetCUBINSize(prog, &cubin_size));
  k.cubin.resize(cubin_size);
  CSRGAT_NVRTC_CHECK(nvrtcGetCUBIN(prog, k.cubin.data()));
  const char* lowered = nullptr;
  CSRGAT_NVRTC_CHECK(nvrtcGetLoweredName(prog, kernel_name.c_str(), &lowered));
  k.lowered_name = lowered;
  if (!scalar_kernel_name.empty()) {
    CSRGAT_NVRTC_CHECK(nvrtcGetLoweredName(prog, scalar_kernel_name.c_str(), &lowered));
    k.scalar_lowered_name = lowered;
  }
  parse_ptxas_report(k);
  k.compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (!cache_dir_.empty()) {
    // Write to temporaries and rename, so a killed run never leaves a torn entry.
    std::error_code ec;
    fs::create_directories(cache_dir_, ec);
    const std::string tmp = "." + std::to_string(::getpid());
    Fnv1a h;
    h.add(k.cubin.data(), k.cubin.size());
    bool written = !ec;
    {
      std::ofstream cf(cubin_path.string() + tmp, std::ios::binary);
      cf.write(k.cubin.data(), static_cast<std::streamsize>(k.cubin.size()));
      written = written && static_cast<bool>(cf.flush());
    }
    {
      std::ofstream mf(meta_path.string() + tmp);
      mf << nlohmann::json{{"variant", label},
                           {"cubin_bytes", static_cast<int64_t>(k.cubin.size())},
                           {"cubin_fnv1a", h.hex()},
                           {"kernel", kernel_name},
                           {"lowered_name", k.lowered_name},
                           {"scalar_kernel", scalar_kernel_name},
                           {"scalar_lowered_name", k.scalar_lowered_name},
                           {"log", k.log},
                           {"arch", arch_},
                           {"nvrtc", nvrtc_version()}}
                .dump(1);
    }
    fs::rename(cubin_path.string() + tmp, cubin_path, ec);
    written = written && !ec;
    fs::rename(meta_path.string() + tmp, meta_path, ec);
    written = written && !ec;
    // Said once a process: a cache that cannot be written costs every later run its compiles.
    static std::atomic<bool> warned{false};
    if (!written && !warned.exchange(true))
      std::fprintf(stderr,
                   "tuner: warning: the compile cache '%s' cannot be written; compiling without "
                   "it\n",
                   cache_dir_.c_str());
  }
  return k;
}

}  // namespace csrgat::tuner
