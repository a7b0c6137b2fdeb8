// Build-time tool of the production library: compiles the kernels the tuned header names, and
// the library's fallback kernels, through NVRTC exactly as the tuner does (NvrtcCompiler: the
// same source, options and NVRTC, so the same cubin bytes the tuner timed), for each
// architecture asked, and writes them into OUT_DIR with embedded_cubins.cpp, which embeds them
// in the library (.incbin) with their lowered names (csrgat/embedded_cubins.h). Needs no GPU.
//
//   csrgat_embed_cubins OUT_DIR sm_90 [sm_90a sm_100f ...]
//
// (Until the twenty-fifth session nvcc compiled these kernels into the library: its SASS was
// not NVRTC's, and 0-1.4% slower on the tuned rules, docs/perf-notes.md.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "csrgat/fallback.h"
#include "graphs/hash.h"
#include "tuner/nvrtc_compiler.h"
#include "variants/arch.h"
#include "variants/params.h"

#ifndef CSRGAT_TUNED_HEADER
#define CSRGAT_TUNED_HEADER "csrgat/tuned/default.h"
#endif
#include CSRGAT_TUNED_HEADER

namespace {
namespace fs = std::filesystem;
using csrgat::VariantParams;

template <class IDX, class VAL>
VariantParams params(int tpr, int fl, int rpb, int vec, int tiles, int epl, int ilp, int minb,
                     int smem, int online, int lpt, int sliced) {
  VariantParams p;
  p.tpr = tpr;
  p.fl = fl;
  p.rpb = rpb;
  p.vec = vec;
  p.tiles = tiles;
  p.epl = epl;
  p.ilp = ilp;
  p.minb = minb;
  p.smem = smem;
  p.softmax = online ? csrgat::Softmax::online : csrgat::Softmax::two_pass;
  p.lpt = lpt;
  p.slices = sliced ? 2 : 1;  // any T > 1 names the SLICED kernel (kernel_name)
  p.index = std::is_same_v<IDX, long long> ? csrgat::IndexType::i64 : csrgat::IndexType::i32;
  p.value = std::is_same_v<VAL, float>           ? csrgat::ValueType::f32
            : std::is_same_v<VAL, __nv_bfloat16> ? csrgat::ValueType::bf16
                                                 : csrgat::ValueType::f16;
  return p;
}

// The header's kernels in its order, then the fallbacks in kFallbackIds' order, then the `.o16`
// twins: the library's tables index them the same way (csrgat/aggregate.cpp).
std::vector<VariantParams> kernels() {
#define CSRGAT_PARAMS(name, TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, SLICED, IDX, VAL) \
  params<IDX, VAL>(TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, SLICED),
  std::vector<VariantParams> out = {CSRGAT_TUNED_KERNELS(CSRGAT_PARAMS)};
#undef CSRGAT_PARAMS
  for (const auto& row : csrgat::kFallbackIds)
    for (const char* id : row) out.push_back(VariantParams::parse(id));
  // Then the `.o16` twin (16-bit out in the values' type) of each 16-bit-values kernel above, in
  // their order (the library's Tables::twin).
  const size_t n = out.size();
  for (size_t k = 0; k < n; ++k)
    if (out[k].value != csrgat::ValueType::f32) {
      out.push_back(out[k]);
      out.back().out16 = 1;
    }
  return out;
}

// An architecture's table entry and symbol part: sm_90 -> {90, 0} and "90", sm_90a -> {90, 'a'}
// and "90a" (the forms CMake's CUDA architectures and NVRTC take; the tuner's own check).
csrgat::ArchTarget arch_target(const std::string& arch) {
  if (const std::string why = csrgat::tuner::NvrtcCompiler::arch_problem(arch); !why.empty())
    throw std::invalid_argument("architecture: " + why);
  return *csrgat::parse_arch(arch);
}
std::string suffix_text(const csrgat::ArchTarget& t) {
  return t.suffix ? std::string(1, t.suffix) : "";
}
std::string arch_tag(const csrgat::ArchTarget& t) {
  return std::to_string(t.cc) + suffix_text(t);
}

// A C string literal of s (lowered names and template names: printable ASCII).
std::string c_literal(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR sm_XY[a|f] [sm_XY[a|f] ...]\n", argv[0]);
    return 2;
  }
  try {
    const fs::path out = argv[1];
    std::vector<std::string> archs(argv + 2, argv + argc);
    std::vector<csrgat::ArchTarget> targets;
    for (const auto& a : archs) targets.push_back(arch_target(a));
    fs::create_directories(out);
    const auto ks = kernels();
    // Every (kernel, arch) compile, spread over the cores.
    struct Job {
      size_t kernel, arch;
      csrgat::tuner::CompiledKernel result;
      std::string error;
    };
    std::vector<Job> jobs;
    for (size_t k = 0; k < ks.size(); ++k)
      for (size_t a = 0; a < archs.size(); ++a) jobs.push_back({k, a, {}, {}});
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t j; (j = next++) < jobs.size();) {
        try {
          jobs[j].result = csrgat::tuner::NvrtcCompiler(archs[jobs[j].arch]).compile(ks[jobs[j].kernel]);
        } catch (const csrgat::tuner::CompileError& e) {
          jobs[j].error = std::string(e.what()) + "\n" + e.log();
        } catch (const std::exception& e) {
          jobs[j].error = e.what();
        }
      }
    };
    const unsigned n_threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                               static_cast<unsigned>(jobs.size())));
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < n_threads; ++i) pool.emplace_back(work);
    for (auto& t : pool) t.join();
    int failed = 0;
    for (const auto& j : jobs)
      if (!j.error.empty()) {
        std::fprintf(stderr, "csrgat_embed_cubins: %s for %s: %s\n", ks[j.kernel].id().c_str(),
                     archs[j.arch].c_str(), j.error.c_str());
        ++failed;
      }
    if (failed) return 1;

    std::string asm_text, decls, table, all_bytes;
    for (const auto& j : jobs) {
      all_bytes.append(j.result.cubin.data(), j.result.cubin.size());
      const std::string sym =
          "csrgat_cubin_" + std::to_string(j.kernel) + "_" + arch_tag(targets[j.arch]);
      const fs::path file = out / (sym + ".cubin");
      const fs::path tmp = out / (sym + ".cubin.tmp");
      {
        std::ofstream f(tmp, std::ios::binary);
        f.write(j.result.cubin.data(), static_cast<std::streamsize>(j.result.cubin.size()));
        if (!f) throw std::runtime_error("cannot write " + tmp.string());
      }
      fs::rename(tmp, file);
      asm_text += "    \".globl " + sym + "\\n.hidden " + sym + "\\n.balign 16\\n" + sym + ":\\n.incbin \\\"" +
                  fs::absolute(file).string() + "\\\"\\n.globl " + sym + "_end\\n.hidden " + sym +
                  "_end\\n" + sym + "_end:\\n\"\n";
      decls += "extern \"C\" const unsigned char " + sym + "[], " + sym + "_end[];\n";
    }
    for (size_t k = 0; k < ks.size(); ++k) {
      const auto& first = jobs[k * archs.size()].result;
      table += "    {" + c_literal(ks[k].kernel_name()) + ", " + c_literal(first.lowered_name) + ", " +
               c_literal(first.scalar_lowered_name) + ", {";
      for (size_t a = 0; a < archs.size(); ++a) {
        const std::string sym = "csrgat_cubin_" + std::to_string(k) + "_" + arch_tag(targets[a]);
        const std::string suffix = suffix_text(targets[a]);
        table += "{" + std::to_string(targets[a].cc) + ", " +
                 (suffix.empty() ? "0" : "'" + suffix + "'") + ", " + sym + ", " + sym + "_end}, ";
      }
      table += "}},\n";
    }
    std::string arch_list;
    for (size_t a = 0; a < archs.size(); ++a)
      arch_list += (a ? "," : "") + std::to_string(targets[a].cc * 10) + suffix_text(targets[a]);
    const std::string src =
        "// Generated by csrgat_embed_cubins (csrgat/embed_cubins.cpp). Do not edit.\n"
        "// Cubins' hash (a new one rebuilds this object, which .incbin's them): " +
        csrgat::fnv1a_hex(all_bytes) + "\n"
        "#include \"csrgat/embedded_cubins.h\"\n\n"
        "__asm__(\".section .rodata\\n\"\n" + asm_text + "    \".previous\\n\");\n\n" + decls +
        "\nnamespace csrgat::embedded {\n"
        "static_assert(kArchsPerKernel == " + std::to_string(archs.size()) + ", \"CSRGAT_EMBEDDED_ARCHS\");\n"
        "const Kernel kKernels[] = {\n" + table + "};\n"
        "const int kNumKernels = " + std::to_string(ks.size()) + ";\n"
        "const char* const kArchList = " + c_literal(arch_list) + ";\n"
        "}  // namespace csrgat::embedded\n";
    const fs::path cpp = out / "embedded_cubins.cpp";
    std::string old;
    if (fs::exists(cpp)) {
      std::ifstream f(cpp);
      old.assign(std::istreambuf_iterator<char>(f), {});
    }
    if (old != src) {  // the cubins' paths are stable: rewrite only what changed
      std::ofstream f(cpp.string() + ".tmp");
      f << src;
      if (!f) throw std::runtime_error("cannot write " + cpp.string());
      f.close();
      fs::rename(cpp.string() + ".tmp", cpp);
    }
    std::printf("csrgat_embed_cubins: %zu kernels for %s in %s\n", ks.size(), arch_list.c_str(),
                out.string().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "csrgat_embed_cubins: %s\n", e.what());
    return 1;
  }
  return 0;
}
