// The production library's kernels are the tuner's machine code: csrgat_embed_cubins compiles
// the tuned header's kernels and the fallbacks through NVRTC at build time with the tuner's
// options, and the library embeds the cubins. No GPU needed: the table is complete and each
// cubin holds its kernels, and the SASS of sampled kernels is the same as a fresh compile by
// the tuner's NvrtcCompiler (the whole cubins differ only where -lineinfo records the NVRTC
// program's name, which is the variant id the tuner compiled first).
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "csrgat/aggregate.h"
#include "csrgat/colblock.h"
#include "csrgat/embedded_cubins.h"
#include "csrgat/fallback.h"
#include "tuner/colblock.h"
#include "tuner/nvrtc_compiler.h"
#include "variants/params.h"
#include CSRGAT_TUNED_HEADER_PATH_FOR_TESTS

namespace {

using csrgat::embedded::kKernels;
using csrgat::embedded::kNumKernels;

#define CSRGAT_COUNT(...) +1
constexpr int kNumHeaderKernels = 0 CSRGAT_TUNED_KERNELS(CSRGAT_COUNT);
#undef CSRGAT_COUNT

// The bytes of section `name` of an ELF64 little-endian file (a cubin); empty when absent.
std::string elf_section(const unsigned char* b, const unsigned char* e, const std::string& name) {
  auto u16 = [&](size_t o) { uint16_t v; std::memcpy(&v, b + o, 2); return v; };
  auto u32 = [&](size_t o) { uint32_t v; std::memcpy(&v, b + o, 4); return v; };
  auto u64 = [&](size_t o) { uint64_t v; std::memcpy(&v, b + o, 8); return v; };
  const size_t n = static_cast<size_t>(e - b);
  if (n < 64 || std::memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 2) return {};
  const uint64_t shoff = u64(0x28);
  const uint16_t shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
  if (shoff + static_cast<uint64_t>(shnum) * shentsize > n || shstrndx >= shnum) return {};
  const uint64_t strtab = u64(shoff + shstrndx * shentsize + 0x18);
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t h = shoff + static_cast<size_t>(i) * shentsize;
    const char* sname = reinterpret_cast<const char*>(b + strtab + u32(h));
    if (name == sname) {
      const uint64_t off = u64(h + 0x18), size = u64(h + 0x20);
      if (off + size > n) return {};
      return std::string(reinterpret_cast<const char*>(b + off), size);
    }
  }
  return {};
}

// CMAKE_CUDA_ARCHITECTURES as the table's tags: "90-real" -> 90, "90a" -> 90a, "100f-real" -> 100f.
std::vector<std::string> built_archs() {
  std::vector<std::string> out;
  std::stringstream want(CSRGAT_CUDA_ARCHS);
  for (std::string a; std::getline(want, a, ';');) {
    const size_t digits = a.find_first_not_of("0123456789");
    out.push_back(a.substr(
        0, digits < a.size() && (a[digits] == 'a' || a[digits] == 'f') ? digits + 1 : digits));
  }
  return out;
}

}  // namespace

// The library names the header it was built with (a production log line's provenance).
TEST(EmbeddedCubins, LibraryNamesItsTunedHeader) {
  EXPECT_STREQ(csrgat::tuned_source(), CSRGAT_TUNED_SOURCE);
  EXPECT_GT(std::strlen(csrgat::tuned_source()), 0u);
}

TEST(EmbeddedCubins, HoldEveryKernelOfTheHeaderAndTheFallbacksForEveryArchitecture) {
  // The header's rules name their kernels by index; each is the embedded kernel of that index.
  std::set<int> used;
  for (const auto& r : csrgat::tuned::kRules) {
    ASSERT_GE(r.kernel, 0);
    ASSERT_LT(r.kernel, kNumKernels);
    EXPECT_EQ(csrgat::VariantParams::parse(r.variant_id).kernel_name(), kKernels[r.kernel].name)
        << "rule for " << r.variant_id;
    used.insert(r.kernel);
  }
  const int n_header = kNumHeaderKernels;
  EXPECT_EQ(static_cast<int>(used.size()), n_header) << "every header kernel is some rule's";
  std::map<int, csrgat::VariantParams> by_kernel;  // each header kernel as some rule names it
  for (const auto& r : csrgat::tuned::kRules)
    by_kernel.emplace(r.kernel, csrgat::VariantParams::parse(r.variant_id));
  std::vector<csrgat::VariantParams> sixteen;  // the 16-bit-values kernels, in the table's order
  for (const auto& [k, p] : by_kernel)
    if (p.value != csrgat::ValueType::f32) sixteen.push_back(p);
  for (int v = 0; v < 3; ++v)
    for (int i = 0; i < 2; ++i) {
      const auto p = csrgat::VariantParams::parse(csrgat::kFallbackIds[v][i]);
      EXPECT_EQ(p.kernel_name(), kKernels[n_header + 2 * v + i].name);
      if (v > 0) sixteen.push_back(p);
    }
  // Then the `.o16` twin of each of them (16-bit out: the same template with OUT16 = 1).
  ASSERT_EQ(kNumKernels, n_header + 6 + static_cast<int>(sixteen.size()));
  for (size_t j = 0; j < sixteen.size(); ++j) {
    csrgat::VariantParams twin = sixteen[j];
    twin.out16 = 1;
    EXPECT_EQ(twin.kernel_name(), kKernels[n_header + 6 + j].name) << sixteen[j].id();
  }
  const auto archs = built_archs();
  ASSERT_EQ(static_cast<int>(archs.size()), csrgat::embedded::kArchsPerKernel);
  for (int k = 0; k < kNumKernels; ++k) {
    SCOPED_TRACE(kKernels[k].name);
    for (int a = 0; a < csrgat::embedded::kArchsPerKernel; ++a) {
      const auto& c = kKernels[k].cubins[a];
      EXPECT_EQ(std::to_string(c.arch) + (c.suffix ? std::string(1, c.suffix) : ""), archs[a]);
      ASSERT_GT(c.end - c.begin, 1024);
      EXPECT_FALSE(elf_section(c.begin, c.end, std::string(".text.") + kKernels[k].lowered).empty());
      if (kKernels[k].scalar_lowered[0]) {
        EXPECT_FALSE(elf_section(c.begin, c.end, std::string(".text.") + kKernels[k].scalar_lowered).empty());
      }
    }
  }
}

TEST(EmbeddedCubins, AreTheTunersMachineCode) {
  // A sample (each compile takes seconds): the first f32 rule's kernel, the first 16-bit
  // rule's, the f32 int32 fallback and the first `.o16` twin; each kernel's SASS and its scalar
  // twin's.
  std::vector<std::pair<csrgat::VariantParams, int>> sample;
  bool f32 = false, half = false;
  for (const auto& r : csrgat::tuned::kRules) {
    const auto p = csrgat::VariantParams::parse(r.variant_id);
    const bool is_f32 = p.value == csrgat::ValueType::f32;
    if ((is_f32 && !f32) || (!is_f32 && !half)) sample.emplace_back(p, r.kernel);
    (is_f32 ? f32 : half) = true;
  }
  sample.emplace_back(csrgat::VariantParams::parse(csrgat::kFallbackIds[0][0]), kNumHeaderKernels);
  // And the `.o16` twin of the first 16-bit-values header kernel (the first twin slot).
  std::map<int, csrgat::VariantParams> by_kernel;
  for (const auto& r : csrgat::tuned::kRules)
    by_kernel.emplace(r.kernel, csrgat::VariantParams::parse(r.variant_id));
  for (const auto& [k, p] : by_kernel)
    if (p.value != csrgat::ValueType::f32) {
      csrgat::VariantParams twin = p;
      twin.out16 = 1;
      sample.emplace_back(twin, kNumHeaderKernels + 6);
      break;
    }
  const auto archs = built_archs();
  for (size_t a = 0; a < archs.size(); ++a)  // each architecture's cubins, not the first's alone
    for (const auto& [p, k] : sample) {
      SCOPED_TRACE(p.id() + " for sm_" + archs[a]);
      const auto fresh = csrgat::tuner::NvrtcCompiler("sm_" + archs[a]).compile(p);
      const auto& c = kKernels[k].cubins[a];
      const auto* fb = reinterpret_cast<const unsigned char*>(fresh.cubin.data());
      const auto* fe = fb + fresh.cubin.size();
      EXPECT_EQ(fresh.lowered_name, kKernels[k].lowered);
      const std::string mine = elf_section(c.begin, c.end, ".text." + fresh.lowered_name);
      ASSERT_FALSE(mine.empty());
      EXPECT_TRUE(mine == elf_section(fb, fe, ".text." + fresh.lowered_name)) << "SASS differs";
      if (!fresh.scalar_lowered_name.empty()) {
        EXPECT_TRUE(elf_section(c.begin, c.end, ".text." + fresh.scalar_lowered_name) ==
                    elf_section(fb, fe, ".text." + fresh.scalar_lowered_name))
            << "scalar twin's SASS differs";
      }
    }
}

TEST(EmbeddedCubins, ArchListNamesTheEmbeddedArchitectures) {
  std::string want;
  for (int a = 0; a < csrgat::embedded::kArchsPerKernel; ++a) {
    const auto& c = kKernels[0].cubins[a];
    want +=
        (a ? "," : "") + std::to_string(c.arch * 10) + (c.suffix ? std::string(1, c.suffix) : "");
  }
  EXPECT_EQ(want, csrgat::compiled_archs());
}

// The header's sweeps are what their ids say: the geometry the library runs for a rule
// (colblock::rule_geometry, from its colblock_* fields) is the one the tuner timed under its
// colblock_id (a header edited by hand, say an id with `.l1p3` and its field left at 0, fails
// here rather than logging one sweep and running another).
TEST(TunedHeader, SweepsAreTheirIds) {
  int sweeps = 0;
  for (const csrgat::tuned::Rule& r : csrgat::tuned::kRules) {
    // A sweep's id with no rows would be logged and never run: every id has its geometry.
    EXPECT_EQ(r.colblock_rows > 0, r.colblock_id[0] != '\0')
        << r.variant_id << ": colblock_id '" << r.colblock_id << "', colblock_rows "
        << r.colblock_rows;
    if (r.colblock_rows <= 0) continue;
    ++sweeps;
    SCOPED_TRACE(r.colblock_id);
    const csrgat::colblock::Geometry run = csrgat::colblock::rule_geometry(r);
    const csrgat::VariantParams id = csrgat::VariantParams::parse(r.colblock_id);
    const csrgat::colblock::Geometry timed = csrgat::tuner::geometry_of(id);
    EXPECT_EQ(run.rows_per_warp, timed.rows_per_warp);
    EXPECT_EQ(run.part_shift, timed.part_shift);
    EXPECT_EQ(run.lag, timed.lag);
    // The pause each runs (a header from before the per-storage default writes float32's 4096
    // where its id names none).
    const bool f32 = id.value == csrgat::ValueType::f32;
    EXPECT_EQ(csrgat::colblock::poll_pause_ns_for(run.poll_pause_ns, f32),
              csrgat::colblock::poll_pause_ns_for(timed.poll_pause_ns, f32));
    EXPECT_EQ(run.l1_policy, timed.l1_policy);
    EXPECT_EQ(run.tensor_cores, timed.tensor_cores);
    EXPECT_EQ(run.spin_limit, timed.spin_limit);
  }
  std::cout << sweeps << " rule(s) with a sweep\n";
  // The committed H200 header attaches one (uniform 2M, F = 128): its loop above checked it.
  if (std::string(CSRGAT_TUNED_HEADER_PATH_FOR_TESTS).find("include/csrgat/tuned/sm_90.h") !=
      std::string::npos)
    EXPECT_GE(sweeps, 1) << CSRGAT_TUNED_HEADER_PATH_FOR_TESTS;
}

// rule_geometry reads every field: a pause of 0 is the library's default, the policy as written.
TEST(TunedHeader, RuleGeometryReadsEveryField) {
  csrgat::tuned::Rule r{};
  r.colblock_rows = 21;
  r.colblock_part_shift = 15;
  r.colblock_lag = 6;
  r.colblock_pause_ns = 0;
  r.colblock_l1_policy = 3;
  csrgat::colblock::Geometry g = csrgat::colblock::rule_geometry(r);
  EXPECT_EQ(g.rows_per_warp, 21);
  EXPECT_EQ(g.part_shift, 15);
  EXPECT_EQ(g.lag, 6);
  EXPECT_EQ(g.poll_pause_ns, 0);  // the value storage's default (poll_pause_ns_for)
  EXPECT_EQ(g.l1_policy, 3);
  EXPECT_FALSE(g.tensor_cores);
  r.colblock_pause_ns = 512;
  EXPECT_EQ(csrgat::colblock::rule_geometry(r).poll_pause_ns, 512);
  r.colblock_tensor_cores = 1;
  EXPECT_TRUE(csrgat::colblock::rule_geometry(r).tensor_cores);
}
