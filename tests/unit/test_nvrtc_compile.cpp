// Every variant of every config in configs/ compiles through NVRTC for sm_90 (no GPU needed),
// and a kernel that does not compile is reported with NVRTC's log, never a crash.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <set>
#include <thread>

#include "tuner/config.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/space.h"
#include "tuner/verify.h"
#include "variants/kernel_args.h"

namespace fs = std::filesystem;
using namespace csrgat;
using namespace csrgat::tuner;

// The kernels' parameters start at constant-bank offset 0x210 on sm_90; the row path's fields
// must stay in the two 64-byte lines 0x200 and 0x240 (kernel_args.h, perf-notes' thirteenth
// session), and the struct at 144 bytes (feat_ld's), whose code for the header kernels is the
// code they were measured with at 136 but for the parameters' offsets.
TEST(KernelArgsLayout, RowPathParametersShareTwoConstantBankLines) {
  constexpr size_t base = 0x210, end_of_second_line = 0x280;
  const std::pair<const char*, size_t> row_path[] = {
      {"row_ptr", offsetof(KernelArgs, row_ptr) + sizeof(void*)},
      {"col", offsetof(KernelArgs, col) + sizeof(void*)},
      {"scores", offsetof(KernelArgs, scores) + sizeof(void*)},
      {"values", offsetof(KernelArgs, values) + sizeof(void*)},
      {"out", offsetof(KernelArgs, out) + sizeof(void*)},
      {"row_order", offsetof(KernelArgs, row_order) + sizeof(void*)},
      {"num_rows", offsetof(KernelArgs, num_rows) + sizeof(long long)},
      {"heads", offsetof(KernelArgs, heads) + sizeof(int)},
      {"feat", offsetof(KernelArgs, feat) + sizeof(int)},
      {"split_threshold", offsetof(KernelArgs, split_threshold) + sizeof(long long)},
      {"num_chunks", offsetof(KernelArgs, num_chunks) + sizeof(long long)},
      {"prefetch", offsetof(KernelArgs, prefetch) + sizeof(int)},
      {"overlapped", offsetof(KernelArgs, overlapped) + sizeof(int)},
      {"fault", offsetof(KernelArgs, fault) + sizeof(int)},
      {"slow_percent", offsetof(KernelArgs, slow_percent) + sizeof(unsigned)},
      {"delay_ns", offsetof(KernelArgs, delay_ns) + sizeof(unsigned)},
      {"feat_ld", offsetof(KernelArgs, feat_ld) + sizeof(int)},
      {"block_merge", offsetof(KernelArgs, block_merge) + sizeof(int)},  // the chunk path's
  };
  for (const auto& [name, end] : row_path)
    EXPECT_LE(base + end, end_of_second_line) << "KernelArgs::" << name << " left the row path's two lines";
  // 144 since feat_ld (twenty-ninth session): every header kernel's SASS the same as at 136 but
  // for the parameters' offsets (scripts/sass-diff.sh --mask-params); at 128 ptxas had compiled
  // the seed rule's kernel differently.
  EXPECT_EQ(sizeof(KernelArgs), 144u) << "a new size: check the header kernels' SASS (sass-diff.sh --mask-params)";
}

TEST(NvrtcCompile, EveryVariantOfEveryConfigCompilesForSm90) {
  std::set<std::string> ids;
  int configs = 0;
  for (const auto& e : fs::directory_iterator(std::string(CSRGAT_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    ++configs;
    for (const auto& v : unique_variants(load_config(e.path().string())))
      if (v.family != Family::colblock) ids.insert(v.id());  // nvcc-built into the library
  }
  ASSERT_GE(configs, 3);
  std::vector<VariantParams> variants;
  for (const auto& id : ids) variants.push_back(VariantParams::parse(id));
  // The cache lives in the build tree: a rerun compiles only what changed.
  const NvrtcCompiler compiler("sm_90", fs::current_path().string() + "/nvrtc-cache");
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto out = compile_all(compiler, variants, threads);
  int ok = 0, capped = 0, capped_spilling = 0;
  for (const auto& o : out) {
    if (o.ok) {
      ++ok;
      EXPECT_FALSE(o.kernel.cubin.empty()) << o.params.id();
      EXPECT_GT(o.kernel.registers, 0) << o.params.id() << ": no ptxas report";
      // Every fused kernel with vector loads has its scalar twin in its module.
      if (o.params.family == Family::fused && o.params.vec > 1) {
        EXPECT_TRUE(!o.kernel.scalar_lowered_name.empty() &&
                    o.kernel.scalar_lowered_name != o.kernel.lowered_name)
            << o.params.id() << ": no scalar twin";
      }
      if (o.params.minb == 0) {
        // Left to itself ptxas never spills this family.
        EXPECT_EQ(o.kernel.spill_bytes, 0) << o.params.id() << " spills registers";
      } else {
        // A register cap (minb) may spill: a trade the tuner measures (on the H200 the
        // spilling tpr128.fl8.t2.mb8 won wiki-vote). The cap itself must hold.
        ++capped;
        capped_spilling += o.kernel.spill_bytes > 0;
        EXPECT_LE(o.kernel.registers * o.params.block_threads() * o.params.minb, 65536)
            << o.params.id() << ": " << o.kernel.registers << " registers";
      }
    } else {
      ADD_FAILURE() << o.params.id() << ": " << o.error;
    }
  }
  std::printf("%d of %zu variants compiled for sm_90; %d with a register cap (minb), %d of them "
              "spilling\n",
              ok, out.size(), capped, capped_spilling);
}

// The module of a vector kernel holds its scalar twin (the kernel for values rows that are not
// vec-aligned), and ptxas's figures are the vector kernel's own: the same as that kernel
// compiled alone, whichever entry ptxas reports first.
TEST(NvrtcCompile, ScalarTwinSharesTheModuleAndNotTheFigures) {
  const NvrtcCompiler compiler("sm_90", "");
  const VariantParams p =
      VariantParams::parse("csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem3.online.split0.i32.f32");
  const auto both = compiler.compile(p);
  EXPECT_EQ(both.scalar_kernel_name, "csrgat_fused<8, 8, 16, 1, 1, 1, 1, 0, 0, 1, 0, int, float>");
  ASSERT_FALSE(both.scalar_lowered_name.empty());
  const std::string src = "#include \"variants/csrgat_fused.cuh\"\n";
  const auto vector_alone = compiler.compile_source(src, p.kernel_name(), "vector");
  const auto twin_alone = compiler.compile_source(src, both.scalar_kernel_name, "twin");
  EXPECT_EQ(both.lowered_name, vector_alone.lowered_name);
  EXPECT_EQ(both.scalar_lowered_name, twin_alone.lowered_name);
  EXPECT_EQ(both.registers, vector_alone.registers);
  EXPECT_EQ(both.static_smem, vector_alone.static_smem);
  // The twin stages nothing in shared memory (smem 3 becomes 0): the figures tell them apart.
  EXPECT_GT(vector_alone.static_smem, twin_alone.static_smem);
  EXPECT_NE(both.log.find(both.scalar_lowered_name), std::string::npos) << both.log;
}

// The test-only knobs (KernelArgs::fault, slow_percent, delay_ns) are code only in the kernels
// that use them: a fault or delay variant, or a run that slows its rows; the same kernel of a
// tuned variant has none of it (twentieth session).
TEST(NvrtcCompile, TestKnobsAreCompiledOnlyWhereUsed) {
  EXPECT_TRUE(test_knob_defines(0).empty());
  EXPECT_EQ(test_knob_defines(10), std::vector<std::string>{"CSRGAT_TEST_KNOBS"});
  const NvrtcCompiler compiler("sm_90", "");
  const std::string id = "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32";
  const auto plain = compiler.compile(VariantParams::parse(id));
  const auto fault = compiler.compile(VariantParams::parse(id + ".fault1"));
  const auto delay = compiler.compile(VariantParams::parse(id + ".delay1000"));
  const auto slowed = NvrtcCompiler("sm_90", "", test_knob_defines(10)).compile(VariantParams::parse(id));
  EXPECT_EQ(plain.kernel_name, fault.kernel_name);  // one template: the knobs are launch values
  EXPECT_NE(plain.cache_key, fault.cache_key);
  EXPECT_GT(fault.cubin.size(), plain.cubin.size());
  // One build with the knobs for all three (the key leaves out the label, which the cubin's line
  // table names).
  EXPECT_EQ(fault.cache_key, delay.cache_key);
  EXPECT_EQ(fault.cache_key, slowed.cache_key);
  EXPECT_EQ(fault.registers, slowed.registers);
}

TEST(NvrtcCompile, BrokenKernelReportsTheCompilerLog) {
  const NvrtcCompiler compiler("sm_90", "");
  try {
    compiler.compile_source("#include \"variants/kernel_args.h\"\n"
                            "template <int N> __global__ void broken(csrgat::KernelArgs a) { a.out[0] = undeclared_name; }\n",
                            "broken<1>", "test.broken");
    FAIL() << "a broken kernel compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("test.broken"), std::string::npos) << e.what();
    EXPECT_NE(e.log().find("undeclared_name"), std::string::npos) << e.log();
  }
}

TEST(NvrtcCompile, InvalidParametersAreRejectedBeforeCompiling) {
  const NvrtcCompiler compiler("sm_90", "");
  VariantParams p;
  p.tpr = 24;  // not a power of two
  EXPECT_THROW(compiler.compile(p), CompileError);
}

TEST(NvrtcCompile, CacheReturnsTheSameCubin) {
  const std::string dir = (fs::temp_directory_path() / "csrgat-nvrtc-cache-test").string();
  fs::remove_all(dir);
  const NvrtcCompiler compiler("sm_90", dir);
  const VariantParams p = VariantParams::parse("csrgat.tpr16.fl16.rpb4.vec4.t1.smem0.twopass.split0.i32.f32");
  const auto a = compiler.compile(p);
  const auto b = compiler.compile(p);
  EXPECT_FALSE(a.from_cache);
  EXPECT_TRUE(b.from_cache);
  EXPECT_EQ(a.cubin, b.cubin);
  EXPECT_EQ(a.lowered_name, b.lowered_name);
  EXPECT_EQ(a.registers, b.registers);
  // A cubin cut short (or replaced) under its entry is recompiled, not loaded.
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cubin") fs::resize_file(e.path(), 100);
  const auto c = compiler.compile(p);
  EXPECT_FALSE(c.from_cache);
  EXPECT_GT(c.cubin.size(), 100u);
  EXPECT_EQ(c.lowered_name, a.lowered_name);
  EXPECT_TRUE(compiler.compile(p).from_cache);  // and the entry is whole again
  fs::remove_all(dir);
}

// Variants that differ only in launch-time options (split, prefetch) are one kernel: compiled
// once, however many threads, and each twin gets the result under its own id.
TEST(NvrtcCompile, LaunchTimeTwinsCompileOnce) {
  const std::string dir = (fs::temp_directory_path() / "csrgat-nvrtc-twins-test").string();
  fs::remove_all(dir);
  const NvrtcCompiler compiler("sm_90", dir);
  const std::string base = "csrgat.tpr16.fl16.rpb4.vec4.t1.smem0.twopass";
  std::vector<VariantParams> v;
  for (const char* tail : {".split0.i32.f32", ".split64.i32.f32", ".split0.pf.i32.f32", ".split64.pf.i32.f32"})
    v.push_back(VariantParams::parse(base + tail));
  VariantParams bad = v[0];
  bad.tpr = 24;  // invalid: its own entry, its own error
  v.push_back(bad);
  EXPECT_EQ(distinct_kernels(v), 2u);
  const auto out = compile_all(compiler, v, 4);
  ASSERT_EQ(out.size(), v.size());
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(out[i].ok) << out[i].error;
    EXPECT_EQ(out[i].params, v[i]);
    EXPECT_EQ(out[i].kernel.cubin, out[0].kernel.cubin);
    // Compiled once: each twin holds the first one's compile (a compile names its variant).
    EXPECT_EQ(out[i].kernel.variant_id, v[0].id()) << i;
  }
  EXPECT_FALSE(out[4].ok);
  EXPECT_NE(out[4].error.find("tpr must be a power of two"), std::string::npos) << out[4].error;
  int cubins = 0;
  for (const auto& e : fs::directory_iterator(dir)) cubins += e.path().extension() == ".cubin";
  EXPECT_EQ(cubins, 1);
  fs::remove_all(dir);
}

// The `.o16` kernels (16-bit out) compile, with their scalar twins, for both 16-bit types and
// every store path's kind of kernel (sliced, split and block-merged, multi-warp, 64-bit).
TEST(NvrtcCompile, SixteenBitOutKernelsCompile) {
  const NvrtcCompiler compiler("sm_90", fs::current_path().string() + "/nvrtc-cache");
  std::vector<VariantParams> vs;
  for (const char* id :
       {"csrgat.tpr16.fl16.rpb8.vec8.t1.e2.g4.mb8.smem3.online.split512.i32.bf16.o16",
        "csrgat.tpr8.fl8.rpb16.vec8.t1.g4.mb8.smem3.online.split0.fs2.i32.f16.o16",
        "csrgat.tpr32.fl8.rpb4.vec8.t1.g4.smem0.online.split32.pf.bm.i32.bf16.o16",
        "csrgat.tpr128.fl32.rpb1.vec8.t1.smem1.twopass.split1024.i64.bf16.o16"})
    vs.push_back(VariantParams::parse(id));
  for (const auto& o : compile_all(compiler, vs, 2)) {
    EXPECT_TRUE(o.ok) << o.params.id() << ": " << o.error;
    EXPECT_FALSE(o.kernel.scalar_lowered_name.empty()) << o.params.id();
  }
}
