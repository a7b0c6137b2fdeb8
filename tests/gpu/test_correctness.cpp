// Every variant of configs/smoke.yaml and both baselines against the float64 reference, on
// generated and real graphs and the edge cases, with fresh random inputs every run and the
// output poisoned before each launch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>

#include "graphs/generate.h"
#include "graphs/io.h"
#include "tests/masked_sources.h"
#include "tuner/config.h"
#include "tuner/device_problem.h"
#include "tuner/space.h"
#include "tuner/verify.h"
#include "variants/reference.h"

namespace fs = std::filesystem;
using namespace csrgat;
using namespace csrgat::tuner;

namespace {

std::string graphs_dir() {
  if (const char* d = std::getenv("CSRGAT_GRAPHS_DIR")) return d;
  return CSRGAT_SHARED_GRAPHS;
}

// The checkout's root: $CSRGAT_SOURCE_DIR where the binary travelled, else the build's.
std::string source_dir() {
  if (const char* d = std::getenv("CSRGAT_SOURCE_DIR")) return d;
  return CSRGAT_SOURCE_DIR;
}

uint64_t fresh_seed() {
  static const uint64_t base = std::random_device{}();
  static uint64_t n = 0;
  return base + 0x9e3779b97f4a7c15ull * ++n;
}

// Variants under test, compiled: by default (get) everything configs/smoke.yaml compiles
// (smoke_variants: fused and baselines).
struct Lab {
  std::vector<VariantParams> variants;
  std::map<std::string, std::unique_ptr<LoadedKernel>> kernels;
  std::vector<std::string> compile_failures;
  explicit Lab(std::vector<VariantParams> vs) : variants(std::move(vs)) {
    NvrtcCompiler compiler("sm_90", source_dir() + "/.gpu/cache");
    for (auto& o : compile_all(compiler, variants, 16)) {
      if (!o.ok) {
        compile_failures.push_back(o.params.id() + ": " + o.error);
        continue;
      }
      kernels[o.params.id()] = std::make_unique<LoadedKernel>(o.kernel);
    }
  }
  static std::vector<VariantParams> smoke_variants() {
    return unique_variants(load_config(source_dir() + "/configs/smoke.yaml"));
  }
  static Lab& get() {
    static Lab lab(smoke_variants());
    return lab;
  }
};

struct Case {
  std::string name;
  graphs::Csr64 graph;
};

// Runs every variant (of the given value type) on g with F and H, out read as `out` (16-bit: a
// lab of `.o16` kernels); returns failures as text.
std::vector<std::string> run_all(const graphs::Csr64& g, int feat, int heads,
                                 const std::function<void(graphs::Inputs&)>& edit = {},
                                 Lab& lab = Lab::get(), ValueType out = ValueType::f32) {
  std::vector<std::string> failures;
  graphs::Inputs in = graphs::make_inputs(g, heads, feat, fresh_seed());
  if (edit) edit(in);
  DeviceProblem dp(g, in);
  dp.set_reference(reference_aggregate(g, in));
  dp.set_out_storage(out);
  int checked = 0;
  for (const auto& p : lab.variants) {
    if (p.fault) continue;
    auto it = lab.kernels.find(p.id());
    if (it == lab.kernels.end()) {  // a compile failure fails every check it would have been in
      failures.push_back(p.id() +
                         ": not compiled (GpuCorrectness.AllSmokeVariantsCompile says why)");
      continue;
    }
    const double tol = out == ValueType::f32 ? default_tolerance(p.value) : default_tolerance(out);
    const auto r = verify_variant(dp, *it->second, p, tol);
    if (r.status == TrialStatus::unsupported) {
      // Only the seed's documented limits may make a variant unsupported here.
      if (p.family != Family::seed) failures.push_back(p.id() + ": unsupported: " + r.detail);
      continue;
    }
    ++checked;
    if (r.status != TrialStatus::ok)
      failures.push_back(p.id() + " on " + g.name + " F=" + std::to_string(feat) +
                         " H=" + std::to_string(heads) + " out " + to_string(out) + ": " +
                         to_string(r.status) + ": " + r.detail);
  }
  EXPECT_GT(checked, 0);
  return failures;
}

void expect_all_correct(const graphs::Csr64& g, int feat, int heads = 1,
                        const std::function<void(graphs::Inputs&)>& edit = {}) {
  const auto failures = run_all(g, feat, heads, edit);
  for (const auto& f : failures) ADD_FAILURE() << f;
}

// A random graph of n rows: row r gets degree(r) edges, each to the column col() draws; both
// draw from one generator seeded afresh (degree first, then the row's columns).
graphs::Csr64 random_graph(const char* name, int64_t n,
                           const std::function<int64_t(std::mt19937_64&, int64_t)>& degree,
                           const std::function<int64_t(std::mt19937_64&)>& col) {
  graphs::Csr64 g;
  g.name = name;
  g.num_nodes = n;
  g.row_ptr.assign(n + 1, 0);
  std::mt19937_64 rng(fresh_seed());
  for (int64_t r = 0; r < n; ++r) {
    const int64_t d = degree(rng, r);
    for (int64_t k = 0; k < d; ++k) g.col.push_back(col(rng));
    g.row_ptr[r + 1] = static_cast<int64_t>(g.col.size());
  }
  return g;
}

}  // namespace

TEST(GpuCorrectness, AllSmokeVariantsCompile) {
  for (const auto& f : Lab::get().compile_failures) ADD_FAILURE() << f;
  EXPECT_GE(Lab::get().kernels.size(), 10u);
}

TEST(GpuCorrectness, SeedShapeEveryFeatureWidth) {
  const auto g = graphs::make_graph("seed:n=384,deg=18,seed=3");
  for (int f : {1, 3, 16, 64, 100, 256}) expect_all_correct(g, f);
}

TEST(GpuCorrectness, GeneratedGraphs) {
  for (const char* spec : {"uniform:n=5000,deg=16,seed=5", "powerlaw:n=20000,deg=16,alpha=2.1,maxdeg=6000,seed=7",
                           "rmat:scale=12,ef=8,seed=9"}) {
    const auto g = graphs::make_graph(spec);
    expect_all_correct(g, 64);
    expect_all_correct(g, 100);
  }
}

TEST(GpuCorrectness, MultiHead) {
  const auto g = graphs::make_graph("powerlaw:n=4000,deg=12,alpha=2.1,maxdeg=3000,seed=11");
  expect_all_correct(g, 16, 4);
  expect_all_correct(g, 3, 2);
}

TEST(GpuCorrectness, RealGraphs) {
  int seen = 0;
  for (const auto& e : fs::directory_iterator(graphs_dir())) {
    if (e.path().extension() != ".gz") continue;
    const auto g = graphs::read_graph_file(e.path().string());
    expect_all_correct(g, 64);
    ++seen;
  }
  EXPECT_EQ(seen, 7) << "expected the 7 graphs of " << graphs_dir();
}

TEST(GpuCorrectness, EmptyRows) {
  const auto g = random_graph(
      "empty-rows", 1000,
      [](std::mt19937_64& rng, int64_t r) { return r % 3 == 0 ? 0 : static_cast<int64_t>(rng() % 40); },
      [](std::mt19937_64& rng) { return static_cast<int64_t>(rng() % 1000); });
  expect_all_correct(g, 64);
  expect_all_correct(g, 3);
}

TEST(GpuCorrectness, OneRowOfAMillionEdges) {
  const int64_t n = 2048;
  const auto g = random_graph(
      "row-1e6", n,
      [](std::mt19937_64& rng, int64_t r) { return r == 17 ? 1000000 : 1 + static_cast<int64_t>(rng() % 8); },
      [n](std::mt19937_64& rng) { return static_cast<int64_t>(rng() % n); });
  expect_all_correct(g, 64);
}

// Split rows merged inside their block (`.bm`, nineteenth session): chunks of 8-32 edges on a
// skewed graph, so that blocks pack several rows, hold padding entries, and leave the longest
// rows to the fence-and-atomic hand-off; 1, 2 and 4 heads (a block holds RPB / H chunks, so
// tpr32 rpb4 packs nothing at 4 heads), F 64 and 48. Each id beside its twin without .bm.
TEST(GpuCorrectness, BlockMergedSplitRows) {
  std::vector<VariantParams> vs;
  for (const char* id : {"csrgat.tpr32.fl8.rpb4.vec4.t2.g4.mb7.smem0.online.split32.pf.bm.i32.f32",
                         "csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem0.online.split16.lpt.pf.bm.i32.f32",
                         "csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem0.online.split8.lpt.pf.bm.i32.f32",
                         "csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split8.lpt.pf.bm.i32.f32",
                         "csrgat.tpr16.fl8.rpb8.vec4.t2.g4.smem0.online.split16.lpt.pf.bm.i32.f32",
                         // Blocks of 8 warps: rows of 1-4 chunks and of 5-8 merge from shared
                         // memory in one group of 4 chunks or two (F 64 and 48), or from global
                         // memory (F 47: merge_block_chunks and merge_chunks) in the same block.
                         "csrgat.tpr32.fl8.rpb8.vec4.t2.g4.smem0.online.split32.pf.bm.i32.f32",
                         "csrgat.tpr32.fl16.rpb8.vec4.t1.g4.mb3.smem0.online.split16.pf.bm.i32.f32"}) {
    vs.push_back(VariantParams::parse(id));
    vs.push_back(vs.back());
    vs.back().bm = 0;
  }
  Lab lab(vs);
  for (const auto& f : lab.compile_failures) ADD_FAILURE() << f;
  ASSERT_EQ(lab.kernels.size(), vs.size());
  const auto g = graphs::make_graph("powerlaw:n=4000,deg=4,alpha=2.1,maxdeg=300,seed=17");
  // Heads 3 leave no whole block of chunks at RPB 4-16 (no packing, so no block merges: plan.h),
  // and F = 47 puts the chunks' (max, sum) pairs at odd offsets when C * H is odd. F = 64 and
  // 48 fit a pass of these kernels (block-merged partials in shared memory, strided by H), F = 47
  // goes to the scalar twins, whose passes it does not fit (partials in global memory).
  for (int heads : {1, 2, 3, 4})
    for (int feat : {64, 48, 47})
      for (const auto& f : run_all(g, feat, heads, {}, lab)) ADD_FAILURE() << f;
}

// Feature slices (.fs<T>): T launches, each on F / T features of every row, against the
// reference: sub-warp and warp kernels, cp.async staging, long rows split with and without block
// merges, rows longest first, 16-bit values, 64-bit indices, several heads (slices inside each
// head's row), and slices that are not a whole vector (F = 24 at 8 slices: 3 features, the
// scalar twins). F = 30 at 4 slices is refused (unsupported), never computed.
TEST(GpuCorrectness, FeatureSlices) {
  std::vector<VariantParams> vs;
  for (const char* id : {"csrgat.tpr8.fl8.rpb16.vec4.t1.g4.smem3.online.split0.fs2.i32.f32",
                         "csrgat.tpr8.fl8.rpb16.vec4.t1.g2.mb8.smem0.online.split64.lpt.fs2.i32.f32",
                         "csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem3.online.split0.fs4.i32.f32",
                         "csrgat.tpr32.fl8.rpb4.vec4.t1.g4.smem0.online.split32.pf.bm.fs2.i32.f32",
                         "csrgat.tpr16.fl8.rpb8.vec4.t1.g4.smem0.online.split16.lpt.pf.bm.fs8.i32.f32",
                         "csrgat.tpr32.fl16.rpb1.vec4.t1.smem0.twopass.split0.fs2.i64.f32",
                         "csrgat.tpr8.fl8.rpb16.vec8.t1.g4.mb8.smem3.online.split0.fs2.i32.bf16"}) {
    vs.push_back(VariantParams::parse(id));
  }
  Lab lab(vs);
  for (const auto& f : lab.compile_failures) ADD_FAILURE() << f;
  ASSERT_EQ(lab.kernels.size(), vs.size());
  const auto g = graphs::make_graph("powerlaw:n=4000,deg=6,alpha=2.1,maxdeg=600,seed=23");
  for (int heads : {1, 3})
    for (int feat : {64, 128, 24})
      for (const auto& f : run_all(g, feat, heads, {}, lab)) ADD_FAILURE() << f;
  graphs::Inputs in = graphs::make_inputs(g, 1, 30, fresh_seed());
  DeviceProblem dp(g, in);
  dp.set_reference(reference_aggregate(g, in));
  const auto r = verify_variant(dp, *lab.kernels.at(vs[2].id()), vs[2], default_tolerance(vs[2].value));
  EXPECT_EQ(r.status, TrialStatus::unsupported);
  EXPECT_NE(r.detail.find("not a multiple of the variant's 4 feature slices"), std::string::npos) << r.detail;
}

// 16-bit out (the `.o16` kernels: out in the values' type): the twin of every 16-bit-values
// variant of the smoke space (bf16 there: sub-warp to multi-warp groups, every smem mode, vector
// widths 1-4, both index types; split 0 only, which the smoke constraints ask of 16-bit values:
// the split, block-merge and `.lpt` twins are SixteenBitOutIsTheFloat32ResultRounded's) at F 64,
// 47 and 6 (both: the scalar twins' scalar stores), one head and three; and the baselines and
// mismatched kernels refuse a bf16 out.
TEST(GpuCorrectness, SixteenBitOutEveryVariant) {
  std::vector<VariantParams> twins;
  for (VariantParams p : Lab::get().variants)
    if (p.family == Family::fused && p.value != ValueType::f32 && !p.fault) {
      p.out16 = 1;
      twins.push_back(p);
    }
  ASSERT_GE(twins.size(), 10u);
  Lab lab(twins);
  for (const auto& f : lab.compile_failures) ADD_FAILURE() << f;
  const auto g = graphs::make_graph("powerlaw:n=3000,deg=6,alpha=2.1,maxdeg=1500,seed=31");
  for (int heads : {1, 3})
    for (int feat : {64, 47, 6})
      for (const auto& f : run_all(g, feat, heads, {}, lab, ValueType::bf16)) ADD_FAILURE() << f;
  const graphs::Inputs in = graphs::make_inputs(g, 1, 64, fresh_seed());
  DeviceProblem dp(g, in);
  dp.set_out_storage(ValueType::bf16);
  for (const char* id : {"seed.i32.bf16", "cusparse.i32.f32",
                         "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i32.bf16",
                         "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i32.f16.o16"}) {
    const std::string why = dp.unsupported_reason(VariantParams::parse(id));
    EXPECT_FALSE(why.empty()) << id << " was not refused with bf16 out";
  }
}

// A 16-bit out is the float32 result rounded to nearest even, bit for bit: each kernel and its
// `.o16` twin on the same inputs (their sums are in a fixed order) against the host's rounding
// of the float32 output, through each store path: a row's 8-byte and scalar stores, chunks merged
// through global memory and in their block, feature slices, bfloat16 and float16, 64-bit indices.
TEST(GpuCorrectness, SixteenBitOutIsTheFloat32ResultRounded) {
  std::vector<VariantParams> vs;
  for (const char* id : {"csrgat.tpr8.fl8.rpb16.vec8.t1.g4.mb8.smem3.online.split0.fs2.i32.bf16",
                         "csrgat.tpr32.fl8.rpb4.vec8.t1.g4.smem0.online.split32.pf.bm.i32.bf16",
                         "csrgat.tpr32.fl8.rpb4.vec8.t1.g4.smem0.online.split32.pf.i32.bf16",
                         "csrgat.tpr16.fl16.rpb8.vec8.t1.e2.g4.mb8.smem3.online.split512.i32.bf16",
                         "csrgat.tpr8.fl8.rpb16.vec8.t1.g4.mb8.smem3.online.split64.lpt.i32.f16",
                         "csrgat.tpr32.fl16.rpb1.vec8.t1.smem0.twopass.split0.i64.f16"}) {
    vs.push_back(VariantParams::parse(id));
    vs.push_back(vs.back());
    vs.back().out16 = 1;
  }
  Lab lab(vs);
  for (const auto& f : lab.compile_failures) ADD_FAILURE() << f;
  ASSERT_EQ(lab.kernels.size(), vs.size());
  const auto g = graphs::make_graph("powerlaw:n=3000,deg=6,alpha=2.1,maxdeg=1500,seed=37");
  for (int heads : {1, 3}) {
    for (int feat : {64, 46}) {
      const graphs::Inputs in = graphs::make_inputs(g, heads, feat, fresh_seed());
      DeviceProblem dp(g, in);
      dp.set_reference(reference_aggregate(g, in));
      for (size_t v = 0; v < vs.size(); v += 2) {
        const VariantParams& p = vs[v];
        const VariantParams& twin = vs[v + 1];
        SCOPED_TRACE(twin.id() + " H=" + std::to_string(heads) + " F=" + std::to_string(feat));
        dp.set_out_storage(ValueType::f32);
        const auto r32 = verify_variant(dp, *lab.kernels.at(p.id()), p, default_tolerance(p.value));
        ASSERT_EQ(r32.status, TrialStatus::ok) << r32.detail;
        const std::vector<float> wide = dp.download_output();
        dp.set_out_storage(p.value);
        const auto r16 =
            verify_variant(dp, *lab.kernels.at(twin.id()), twin, default_tolerance(p.value));
        ASSERT_EQ(r16.status, TrialStatus::ok) << r16.detail;
        const std::vector<float> narrow = dp.download_output();
        ASSERT_EQ(narrow.size(), wide.size());
        size_t differ = 0, first = 0;
        for (size_t i = 0; i < wide.size(); ++i) {
          const float want = p.value == ValueType::bf16
                                 ? __bfloat162float(__float2bfloat16_rn(wide[i]))
                                 : __half2float(__float2half_rn(wide[i]));
          if (narrow[i] != want && differ++ == 0) first = i;
        }
        EXPECT_EQ(differ, 0u) << "first at " << first << ": " << narrow[first]
                              << ", the float32 result " << wide[first] << " rounded";
      }
    }
  }
}

TEST(GpuCorrectness, NegativeInfinityScores) {
  const auto g = graphs::make_graph("uniform:n=3000,deg=12,seed=13");
  expect_all_correct(g, 64, 1, [](graphs::Inputs& in) {
    const float ninf = -std::numeric_limits<float>::infinity();
    for (size_t e = 0; e < in.scores.size(); e += 3) in.scores[e] = ninf;  // some edges masked
    for (size_t e = 0; e < 12 * 50; ++e) in.scores[e] = ninf;               // 50 rows fully masked
  });
}

// Value rows that no edge reads may hold NaN and infinities, and no output may see them. The
// gathers a slot issues before the softmax load row 0 for an entry it does not take (and its
// own first piece past F) and only add the taken ones (perf-notes, eighteenth session), so
// here row 0 and one more row are non-finite and no edge points at either; F = 48 leaves
// pieces past F in the 64-wide passes, F = 64 none.
TEST(GpuCorrectness, NonFiniteValuesOfRowsNoEdgeReads) {
  const int64_t n = 3000, unread = 1234;
  const auto g = random_graph(
      "unread-nonfinite", n,
      // 0-39 edges: first batches part full
      [](std::mt19937_64& rng, int64_t) { return static_cast<int64_t>(rng() % 40); },
      [n](std::mt19937_64& rng) {  // never row 0 or `unread`
        const int64_t c = 1 + static_cast<int64_t>(rng() % (n - 1));
        return c == unread ? unread + 1 : c;
      });
  for (const int heads : {1, 2})
    for (const int feat : {64, 48})
      expect_all_correct(g, feat, heads, [&](graphs::Inputs& in) {
        const size_t row = static_cast<size_t>(in.heads) * in.feat;
        for (size_t i = 0; i < row; ++i) {
          in.values[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN()
                               : std::numeric_limits<float>::infinity();
          in.values[unread * row + i] = -std::numeric_limits<float>::infinity();
        }
      });
}

// An edge masked by a -inf score adds nothing, even from a source whose value row holds +Inf or
// NaN (a padding node with NaN features, masked out): the reference skips such an edge, and so
// must every kernel of the library's families (the fused one here, configs/smoke.yaml's
// variants; the column-blocked sweep: Colblock.MaskedEdgesFromInfiniteSourcesStayOut), rather
// than add 0 x Inf = NaN. Every edge from a source s % 97 == 0 is masked in every head, and each
// such edge poisons one element of its source's row (+Inf or NaN): the reference stays finite.
// A skewed graph too, whose long rows take the block-wide and split paths. The two baselines are
// peers, not the library, and are not run: the seed kernel and softmax + cuSPARSE SpMM add 0 x
// Inf (as PyTorch Geometric's softmax + scatter does) and give NaN in those rows (the
// sixty-second session's call 24, every seed and cusparse variant; every fused one correct).
TEST(GpuCorrectness, MaskedEdgesFromNonFiniteSources) {
  std::vector<VariantParams> fused;
  for (const auto& p : Lab::smoke_variants())
    if (p.family == Family::fused) fused.push_back(p);
  Lab lab(fused);
  for (const auto& f : lab.compile_failures) ADD_FAILURE() << f;
  ASSERT_FALSE(lab.kernels.empty());
  for (const char* spec :
       {"uniform:n=3000,deg=12,seed=13", "powerlaw:n=3000,deg=10,alpha=2.1,maxdeg=2000,seed=17"}) {
    const auto g = graphs::make_graph(spec);
    const auto poison = [&g](graphs::Inputs& in) {
      ASSERT_GT(csrgat::test_inputs::mask_nonfinite_sources(g, in, 97, true), 100) << g.name;
    };
    for (const int heads : {1, 2})
      for (const int feat : {64, 48})
        for (const auto& failure : run_all(g, feat, heads, poison, lab)) ADD_FAILURE() << failure;
  }
}

TEST(GpuCorrectness, HugeMagnitudeScores) {
  const auto g = graphs::make_graph("powerlaw:n=3000,deg=10,alpha=2.1,maxdeg=2000,seed=17");
  expect_all_correct(g, 64, 1, [](graphs::Inputs& in) {
    for (size_t e = 0; e < in.scores.size(); ++e) in.scores[e] *= (e % 2 ? 1e30f : -1e30f);
  });
}

TEST(GpuCorrectness, DegreeOneRows) {
  const auto g = graphs::make_graph("uniform:n=10000,deg=1,seed=19");
  expect_all_correct(g, 64);
  expect_all_correct(g, 1);
}
