// tuner bench's colblock implementation (tuner/colblock.h) against the float64 reference, with
// the output poisoned before each launch: uniform graphs over several partitions and batches
// (n not a multiple of the rows a warp, so the last warp's batch is partial), a skewed graph,
// masked (-inf) edges and rows (rows longer than one block of 16 statistics loads among them),
// batches that mix empty and non-empty rows, the partition size's extremes, repeated launches,
// the plan built on the host as well, +Inf values that reach only the rows that gather them; the
// plan built on the device against the host's, item for item, and its errors; and, outside the
// sanitizer runs (scripts/gpu-check.sh leaves it out: a tool's slow warps may time out), that the
// barrier never gives up a wait.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "graphs/generate.h"
#include "tests/masked_sources.h"
#include "tuner/colblock.h"
#include "tuner/device_problem.h"
#include "variants/colblock_plan.h"
#include "variants/compare_rule.h"
#include "variants/reference.h"

using namespace csrgat;
using namespace csrgat::tuner;

namespace {

// Launches colblock `launches` times on (g, in) and checks each output; returns its description.
nlohmann::json expect_correct(const graphs::Csr64& g, const graphs::Inputs& in, int launches = 2,
                              ColblockOptions o = {}) {
  DeviceProblem dp(g, in);
  dp.set_reference(reference_aggregate(g, in));
  EXPECT_EQ(ColblockKernel::unsupported(g, 1, 128, 0, o), "");
  const bool bf16 = o.value == colblock::kBfloat16;
  ColblockKernel k(g, static_cast<const int*>(dp.row_ptr(IndexType::i32)),
                   static_cast<const int*>(dp.col(IndexType::i32)), dp.scores(),
                   dp.values(bf16 ? ValueType::bf16 : ValueType::f32), dp.out(), 0, o);
  for (int i = 0; i < launches; ++i) {
    dp.poison_output();
    k.launch(nullptr);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Comparison c = dp.compare_output(bf16 ? 1e-2 : 1e-5);
    EXPECT_TRUE(c.pass) << g.name << " launch " << i << ": " << c.summary;
  }
  const auto d = k.describe();
  EXPECT_GT(d.at("blocks").get<int>(), 0);
  EXPECT_EQ(d.at("plan_bytes").get<size_t>(), static_cast<size_t>(g.num_edges()) * 8);
  return d;
}

// Small partitions, so that even a small graph is swept in several.
ColblockOptions small_partitions() {
  ColblockOptions o;
  o.part_shift = 10;  // 1024 sources a partition
  o.lag = 3;
  return o;
}

// Empties every row r with r % every == 0 and rows [from, n): batches of empty and non-empty
// rows mixed.
graphs::Csr64 with_empty_rows(graphs::Csr64 g, int64_t every, int64_t from) {
  graphs::Csr64 out;
  out.name = g.name + ", rows emptied";
  out.num_nodes = g.num_nodes;
  out.row_ptr.assign(1, 0);
  for (int64_t r = 0; r < g.num_nodes; ++r) {
    if (r % every != 0 && r < from)
      out.col.insert(out.col.end(), g.col.begin() + g.row_ptr[r], g.col.begin() + g.row_ptr[r + 1]);
    out.row_ptr.push_back(static_cast<int64_t>(out.col.size()));
  }
  return out;
}

// Uniform degree 24 with masked scores: every third edge's -inf, and rows 0-49 wholly masked.
struct MaskedUniform {
  graphs::Csr64 g = graphs::make_graph("uniform:n=5003,deg=24,seed=13");
  graphs::Inputs in = graphs::make_inputs(g, 1, 128, 8);
  MaskedUniform() {
    const float ninf = -std::numeric_limits<float>::infinity();
    for (size_t e = 0; e < in.scores.size(); e += 3) in.scores[e] = ninf;  // some edges masked
    for (size_t e = 0; e < 24 * 50; ++e) in.scores[e] = ninf;              // 50 rows fully masked
  }
  // Sources s % 97 == 0 hold +Inf (in feature k % 128 of each edge k from one), and every edge
  // from one is masked: the reference skips those edges, so every row stays finite, where adding
  // such an edge would make 0 x Inf = NaN. Returns the edges masked so.
  int64_t poison_masked_sources() {
    return csrgat::test_inputs::mask_nonfinite_sources(g, in, 97, false);
  }
};

}  // namespace

TEST(Colblock, UniformGraphManyPartitions) {
  const auto g = graphs::make_graph("uniform:n=20011,deg=16,seed=3");
  expect_correct(g, graphs::make_inputs(g, 1, 128, 5), 3, small_partitions());
}

// More rows than one batch of the persistent grid holds (132 SMs x 20 warps x 19 rows = 50160).
// bfloat16 values (256-byte rows in the ring, widened as they are added): uniform over many
// partitions and batches, skewed, and masked rows, within bf16's 1e-2.
TEST(Colblock, Bfloat16Values) {
  ColblockOptions o = small_partitions();
  o.value = colblock::kBfloat16;
  const auto u = graphs::make_graph("uniform:n=120007,deg=6,seed=3");
  const auto d = expect_correct(u, graphs::make_inputs(u, 1, 128, 5), 2, o);
  EXPECT_EQ(d.at("value").get<std::string>(), "bf16");
  // The bfloat16 instance is trim 127's in groups of 8 (tma_gather<16, 8, ..., unsigned short, 0,
  // 127>, mangled "ILi16ELi8E" ... "EtLi0ELi127EE").
  EXPECT_NE(d.at("kernel").get<std::string>().find("ILi16ELi8E"), std::string::npos)
      << d.at("kernel");
  EXPECT_NE(d.at("kernel").get<std::string>().find("EtLi0ELi127EE"), std::string::npos)
      << d.at("kernel");
  EXPECT_GT(d.at("batches").get<int>(), 1);
  const auto p = graphs::make_graph("powerlaw:n=30001,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  expect_correct(p, graphs::make_inputs(p, 1, 128, 7), 2, o);
  const MaskedUniform m;
  expect_correct(m.g, m.in, 2, o);
}

// A +Inf in a gathered value reaches only the output rows that gather it, as in the reference:
// both sweeps add only the slots their own rows took (mma_gather, the probe's tensor-core sweep,
// keeps this only with its trim's bit 5: colblock_probe --poison). Sources 0, 997, 1994, ...
// hold +Inf in feature s % 128; every element is then the reference's +Inf exactly, or within
// the storage's bound of its finite value (compare_rule.h's outside_bound, with the finite
// elements' rms; compare_output counts any non-finite output bad).
// Degrees 10-16 with empty rows mixed in: batches end in partial groups of the ring, where a
// slot may still hold an earlier batch's row. The tensor-core sweep (`.mma`) as well: there a
// group's product spreads 0 x Inf = NaN over all its rows, and its bit 5 sums those rows again.
// (An edge masked by a -inf score whose source holds +Inf: MaskedEdgesFromInfiniteSourcesStayOut.)
TEST(Colblock, InfiniteValuesReachOnlyTheRowsThatGatherThem) {
  const auto g = with_empty_rows(graphs::make_graph("seed:n=20011,deg=13,seed=5"), 7, 19000);
  auto in = graphs::make_inputs(g, 1, 128, 9);
  for (int64_t s = 0; s < g.num_nodes; s += 997)
    in.values[s * 128 + s % 128] = std::numeric_limits<float>::infinity();
  const std::vector<double> ref = reference_aggregate(g, in);
  double sum_sq = 0;
  int64_t n_finite = 0, n_inf = 0;
  for (const double x : ref) {
    if (std::isfinite(x)) {
      sum_sq += x * x;
      ++n_finite;
    } else {
      ASSERT_EQ(x, std::numeric_limits<double>::infinity());  // finite weights: +Inf, never NaN
      ++n_inf;
    }
  }
  ASSERT_GT(n_inf, 100);  // 21 sources, each gathered by ~12 of the rows left
  const double rms = std::sqrt(sum_sq / static_cast<double>(n_finite));
  for (const int sweep : {0, 1, 2}) {  // float32, bfloat16, bfloat16 on the tensor cores
    ColblockOptions o = small_partitions();
    o.value = sweep == 0 ? colblock::kFloat32 : colblock::kBfloat16;
    o.tensor_cores = sweep == 2;
    if (o.tensor_cores) o.rows_per_warp = colblock::kMmaMaxRowsPerWarp;
    const bool bf16 = o.value == colblock::kBfloat16;
    const char* const name = sweep == 0 ? "f32" : sweep == 1 ? "bf16" : "bf16 mma";
    DeviceProblem dp(g, in);
    ColblockKernel k(g, static_cast<const int*>(dp.row_ptr(IndexType::i32)),
                     static_cast<const int*>(dp.col(IndexType::i32)), dp.scores(),
                     dp.values(bf16 ? ValueType::bf16 : ValueType::f32), dp.out(), 0, o);
    for (int launch = 0; launch < 2; ++launch) {
      dp.poison_output();
      k.launch(nullptr);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const std::vector<float> out = dp.download_output();
      ASSERT_EQ(out.size(), ref.size());
      const ElementBound bound{rms, false, bf16 ? 1e-2 : 1e-5};
      int64_t bad = 0, first_bad = -1;
      for (size_t i = 0; i < ref.size(); ++i) {
        const bool ok = std::isinf(ref[i]) ? static_cast<double>(out[i]) == ref[i]
                                           : !outside_bound(out[i], ref[i], bound);
        if (!ok && bad++ == 0) first_bad = static_cast<int64_t>(i);
      }
      EXPECT_EQ(bad, 0) << name << " launch " << launch << ": first at row " << first_bad / 128
                        << " feature " << first_bad % 128 << ": " << out[first_bad] << " against "
                        << ref[first_bad];
    }
  }
}

// The bfloat16 sweep's adds on the tensor cores (Geometry::tensor_cores, `.mma`: mma_gather, R at
// most 24, 3 blocks an SM): uniform over several batches and partitions with R 24 and 19 (row
// tiles part empty), the plan built on the host too, a skewed graph, masked edges and rows, empty
// rows mixed in; float32 values and R 25 refused (masked edges from +Inf sources:
// MaskedEdgesFromInfiniteSourcesStayOut).
TEST(Colblock, TensorCoreSweep) {
  ColblockOptions o = small_partitions();
  o.value = colblock::kBfloat16;
  o.tensor_cores = true;
  o.rows_per_warp = 24;
  const auto u = graphs::make_graph("uniform:n=120007,deg=6,seed=3");
  const auto ui = graphs::make_inputs(u, 1, 128, 5);
  const auto d = expect_correct(u, ui, 2, o);
  EXPECT_NE(d.at("kernel").get<std::string>().find("mma_gather"), std::string::npos)
      << d.at("kernel");
  EXPECT_GT(d.at("batches").get<int>(), 1);
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  EXPECT_EQ(d.at("blocks").get<int>(), 3 * sms);  // 168 registers a thread: 3 blocks an SM
  ColblockOptions host = o;
  host.plan_on_device = false;
  expect_correct(u, ui, 1, host);
  ColblockOptions r19 = o;
  r19.rows_per_warp = 19;
  expect_correct(u, ui, 2, r19);
  const auto p = graphs::make_graph("powerlaw:n=30001,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  expect_correct(p, graphs::make_inputs(p, 1, 128, 7), 2, o);
  const auto e = with_empty_rows(graphs::make_graph("seed:n=20011,deg=13,seed=5"), 7, 19000);
  expect_correct(e, graphs::make_inputs(e, 1, 128, 9), 2, o);
  const MaskedUniform m;
  expect_correct(m.g, m.in, 2, o);
  ColblockOptions f32 = o;
  f32.value = colblock::kFloat32;
  EXPECT_NE(ColblockKernel::unsupported(u, 1, 128, 0, f32).find("bfloat16 values only"),
            std::string::npos);
  ColblockOptions r25 = o;
  r25.rows_per_warp = 25;
  EXPECT_NE(ColblockKernel::unsupported(u, 1, 128, 0, r25).find("with mma (tensor_cores) = 25"),
            std::string::npos);
}

// The L1 policies of the item and score loads (`.l1p<N>`): the same sums, over several batches,
// a skewed graph and masked rows; bfloat16 values take policy 0 only.
TEST(Colblock, L1PoliciesGiveTheSameOutput) {
  const auto u = graphs::make_graph("uniform:n=120007,deg=6,seed=3");
  const auto p = graphs::make_graph("powerlaw:n=30001,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  const auto m = graphs::make_graph("uniform:n=5003,deg=24,seed=13");
  auto masked = graphs::make_inputs(m, 1, 128, 8);
  for (size_t e = 0; e < masked.scores.size(); e += 3)
    masked.scores[e] = -std::numeric_limits<float>::infinity();
  for (int policy = 1; policy <= colblock::kMaxL1Policy; ++policy) {
    SCOPED_TRACE("l1_policy " + std::to_string(policy));
    ColblockOptions o = small_partitions();
    o.l1_policy = policy;
    const auto d = expect_correct(u, graphs::make_inputs(u, 1, 128, 5), 2, o);
    EXPECT_EQ(d.at("l1_policy").get<int>(), policy);
    // The instance launched is the policy's (tma_gather<..., float, L1P, kTrim>, mangled
    // "EfLi<L1P>ELi<kTrim>EE").
    EXPECT_NE(d.at("kernel").get<std::string>().find("EfLi" + std::to_string(policy) + "ELi"),
              std::string::npos)
        << d.at("kernel");
    EXPECT_GT(d.at("batches").get<int>(), 1);
    expect_correct(p, graphs::make_inputs(p, 1, 128, 7), 2, o);
    expect_correct(m, masked, 2, o);
    o.value = colblock::kBfloat16;
    EXPECT_NE(ColblockKernel::unsupported(u, 1, 128, 0, o).find("float32 values only"),
              std::string::npos);
  }
}

TEST(Colblock, SeveralBatches) {
  const auto g = graphs::make_graph("uniform:n=120007,deg=4,seed=9");
  const auto d = expect_correct(g, graphs::make_inputs(g, 1, 128, 6));
  EXPECT_GT(d.at("batches").get<int>(), 1);
}

TEST(Colblock, SkewedGraph) {
  const auto g = graphs::make_graph("powerlaw:n=30001,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  expect_correct(g, graphs::make_inputs(g, 1, 128, 7), 2, small_partitions());
}

TEST(Colblock, MaskedEdgesAndRows) {
  MaskedUniform m;
  const graphs::Csr64& g = m.g;
  graphs::Inputs& in = m.in;
  const float ninf = -std::numeric_limits<float>::infinity();
  // Rows 100-149: their first 16 scores masked, the rest finite (the statistics' first block of
  // 16 loads sees only -inf, the second finite scores).
  for (int64_t r = 100; r < 150; ++r)
    for (int64_t e = g.row_ptr[r]; e < g.row_ptr[r] + 16; ++e) in.scores[e] = ninf;
  expect_correct(g, in, 2, small_partitions());
}

// An edge masked by a -inf score whose source holds +Inf stays out of its row, as in the reference
// (weight 0 x Inf would be NaN), in all three sweeps: in a batch where an item weighed 0,
// tma_gather sums the rows that came out NaN again without such items (rows_again), as the
// tensor-core sweep's bit 5 does for its non-finite rows. Every third edge and rows 0-49 are
// masked too (MaskedUniform), so rows summed again sit beside masked rows that are not; R 31
// puts such rows in every pass of tma_gather's walk (8 rows a pass: rows 24-30 the fourth).
TEST(Colblock, MaskedEdgesFromInfiniteSourcesStayOut) {
  MaskedUniform m;
  ASSERT_GT(m.poison_masked_sources(), 1000);
  const std::vector<double> ref = reference_aggregate(m.g, m.in);
  ASSERT_TRUE(std::all_of(ref.begin(), ref.end(), [](double x) { return std::isfinite(x); }));
  struct Sweep {
    const char* name;
    int value;
    bool tensor_cores;
    int rows_per_warp;
  };
  const int r = ColblockOptions{}.rows_per_warp;
  for (const Sweep& sw :
       {Sweep{"f32", colblock::kFloat32, false, r}, Sweep{"bf16", colblock::kBfloat16, false, r},
        Sweep{"bf16 mma", colblock::kBfloat16, true, colblock::kMmaMaxRowsPerWarp},
        Sweep{"f32 R 31", colblock::kFloat32, false, 31},
        Sweep{"bf16 R 31", colblock::kBfloat16, false, 31}}) {
    SCOPED_TRACE(sw.name);
    ColblockOptions o = small_partitions();
    o.value = sw.value;
    o.tensor_cores = sw.tensor_cores;
    o.rows_per_warp = sw.rows_per_warp;
    expect_correct(m.g, m.in, 2, o);
  }
}

TEST(Colblock, EmptyRowsMixedInBatches) {
  const auto g = with_empty_rows(graphs::make_graph("uniform:n=6007,deg=10,seed=21"), 7, 3011);
  expect_correct(g, graphs::make_inputs(g, 1, 128, 9));
}

TEST(Colblock, PartitionSizeExtremes) {
  const auto g = graphs::make_graph("uniform:n=4001,deg=8,seed=31");
  const auto in = graphs::make_inputs(g, 1, 128, 10);
  ColblockOptions o;
  o.part_shift = 0;  // a source a partition: 4001 partitions
  o.lag = 31;
  expect_correct(g, in, 1, o);
  o.part_shift = 24;  // one partition
  o.lag = 1;
  expect_correct(g, in, 1, o);
}

TEST(Colblock, BarrierNeverGivesUp) {
  const auto g = graphs::make_graph("uniform:n=120007,deg=8,seed=41");
  const auto d = expect_correct(g, graphs::make_inputs(g, 1, 128, 11), 3, small_partitions());
  EXPECT_EQ(d.at("barrier_timeouts").get<unsigned>(), 0u);
}

TEST(Colblock, HostPlanGivesTheSameOutput) {
  const auto g = graphs::make_graph("powerlaw:n=20011,deg=10,alpha=2.1,maxdeg=3000,seed=17");
  ColblockOptions o = small_partitions();
  o.plan_on_device = false;
  const auto d = expect_correct(g, graphs::make_inputs(g, 1, 128, 12), 2, o);
  EXPECT_EQ(d.at("plan_built_on").get<std::string>(), "host");
}

namespace {

// The device's plan of g, downloaded.
std::vector<colblock::PlanItem> device_plan(const graphs::Csr64& g, int R, int shift) {
  DeviceProblem dp(g, graphs::make_inputs(g, 1, 4, 1));
  void* plan = nullptr;
  EXPECT_EQ(cudaMalloc(&plan, std::max<size_t>(16, g.col.size() * 8)), cudaSuccess);
  build_plan_on_device(static_cast<const int*>(dp.row_ptr(IndexType::i32)),
                       static_cast<const int*>(dp.col(IndexType::i32)), g.num_nodes, g.num_edges(),
                       R, shift, plan);
  std::vector<colblock::PlanItem> out(g.col.size());
  EXPECT_EQ(cudaMemcpy(out.data(), plan, out.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(plan);
  return out;
}

}  // namespace

TEST(Colblock, DevicePlanIsTheHostPlan) {
  const auto skewed = graphs::make_graph("powerlaw:n=30001,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  const auto mixed = with_empty_rows(graphs::make_graph("uniform:n=6007,deg=10,seed=21"), 7, 3011);
  for (const auto* g : {&skewed, &mixed})
    for (const auto& [R, shift] : {std::pair{20, 15}, {7, 6}, {31, 0}, {1, 10}}) {
      const auto host = colblock::build_plan(g->row_ptr, g->col, g->num_nodes, R, shift);
      const auto dev = device_plan(*g, R, shift);
      ASSERT_EQ(host.size(), dev.size());
      size_t first_diff = host.size();
      for (size_t k = 0; k < host.size() && first_diff == host.size(); ++k)
        if (host[k].x != dev[k].x || host[k].y != dev[k].y) first_diff = k;
      EXPECT_EQ(first_diff, host.size())
          << g->name << " R " << R << " shift " << shift << ": first different item " << first_diff;
    }
}

TEST(Colblock, DevicePlanNamesWhatIsWrong) {
  auto g = graphs::make_graph("uniform:n=3000,deg=5,seed=3");
  g.col[1234] = 3000;  // out of range
  DeviceProblem dp(g, graphs::make_inputs(g, 1, 4, 1));
  void* plan = nullptr;
  ASSERT_EQ(cudaMalloc(&plan, g.col.size() * 8), cudaSuccess);
  const int* row_ptr = static_cast<const int*>(dp.row_ptr(IndexType::i32));
  // What build_plan_on_device says of (rp, E), "" when it takes them.
  auto plan_error = [&](const int* rp, int64_t e) {
    try {
      build_plan_on_device(rp, static_cast<const int*>(dp.col(IndexType::i32)), g.num_nodes, e, 20,
                           8, plan);
    } catch (const std::invalid_argument& ex) {
      return std::string(ex.what());
    }
    return std::string();
  };
  std::string what = plan_error(row_ptr, g.num_edges());
  EXPECT_NE(what.find("col[1234] = 3000 is outside [0, 3000)"), std::string::npos) << what;
  what = plan_error(row_ptr, g.num_edges() - 1);  // E given wrong: row_ptr[n] is not E
  EXPECT_NE(what.find("row_ptr must run from 0 to E = 14999; it runs from 0 to 15000"),
            std::string::npos)
      << what;
  // A row_ptr whose row 1 ends past E (and row 2 then runs backwards): named before the bad
  // column above (build_plan's order: the columns are found through row_ptr), and nothing is
  // written through it (memcheck runs this test: gpu-check.sh).
  std::vector<int> rp(g.row_ptr.begin(), g.row_ptr.end());
  rp[2] = static_cast<int>(g.num_edges()) + 1000;
  int* bad_rp = nullptr;
  ASSERT_EQ(cudaMalloc(&bad_rp, rp.size() * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(bad_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  what = plan_error(bad_rp, g.num_edges());
  EXPECT_NE(what.find("row 1's edges [5, 16000) are not inside [0, E = 15000)"), std::string::npos) << what;
  rp[2] = 2;  // row 1 runs backwards: [5, 2)
  ASSERT_EQ(cudaMemcpy(bad_rp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  what = plan_error(bad_rp, g.num_edges());
  EXPECT_NE(what.find("row_ptr[2] < row_ptr[1]"), std::string::npos) << what;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(bad_rp);
  cudaFree(plan);
}

TEST(Colblock, SaysWhatItCannotRun) {
  const auto g = graphs::make_graph("uniform:n=1000,deg=4,seed=1");
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 64, 0).find("F = 128 only"), std::string::npos);
  EXPECT_NE(ColblockKernel::unsupported(g, 2, 128, 0).find("one head"), std::string::npos);
  ColblockOptions o;
  o.value = 2;  // float16
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 128, 0, o).find("float32 or bfloat16"), std::string::npos);
  o = {};
  o.rows_per_warp = 32;
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 128, 0, o).find("r (rows_per_warp) = 32: 10"),
            std::string::npos);
  o = {};
  o.lag = 0;
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 128, 0, o).find("lag = 0"), std::string::npos);
  const auto big = graphs::make_graph("uniform:n=5000,deg=1,seed=2");
  o = {};
  o.part_shift = 0;  // 5000 partitions
  EXPECT_NE(ColblockKernel::unsupported(big, 1, 128, 0, o).find("5000 partitions"),
            std::string::npos);
}
