// tuner bench's colblock implementation (tuner/colblock.h) against the float64 reference, with
// the output poisoned before each launch: a uniform graph over several partitions and batches,
// a skewed one, masked (-inf) rows and edges, empty rows, and repeated launches (the barrier's
// counters are zeroed by each call).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <limits>

#include "graphs/generate.h"
#include "tuner/colblock.h"
#include "tuner/device_problem.h"
#include "variants/reference.h"

using namespace csrgat;
using namespace csrgat::tuner;

namespace {

// Launches colblock `launches` times on (g, in) with small partitions (so that even a small
// graph is swept in several) and checks each output.
void expect_correct(const graphs::Csr64& g, const graphs::Inputs& in, int launches = 2,
                    ColblockOptions o = {}) {
  DeviceProblem dp(g, in);
  dp.set_reference(reference_aggregate(g, in));
  ASSERT_EQ(ColblockKernel::unsupported(g, 1, 128, true, 0, o), "");
  ColblockKernel k(g, static_cast<const int*>(dp.row_ptr(IndexType::i32)), dp.scores(),
                   static_cast<const float*>(dp.values(ValueType::f32)), dp.out(), 0, o);
  for (int i = 0; i < launches; ++i) {
    dp.poison_output();
    k.launch(nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Comparison c = dp.compare_output(1e-5);
    EXPECT_TRUE(c.pass) << g.name << " launch " << i << ": " << c.summary;
  }
  const auto d = k.describe();
  EXPECT_GT(d.at("blocks").get<int>(), 0);
  EXPECT_EQ(d.at("plan_bytes").get<size_t>(), static_cast<size_t>(g.num_edges()) * 8);
}

ColblockOptions small_partitions() {
  ColblockOptions o;
  o.part_shift = 10;  // 1024 sources a partition
  o.lag = 3;
  return o;
}

}  // namespace

TEST(Colblock, UniformGraphManyPartitions) {
  const auto g = graphs::make_graph("uniform:n=20000,deg=16,seed=3");
  expect_correct(g, graphs::make_inputs(g, 1, 128, 5), 3, small_partitions());
}

// More rows than one batch of the persistent grid holds (132 SMs x 20 warps x 20 rows = 52800).
TEST(Colblock, SeveralBatches) {
  const auto g = graphs::make_graph("uniform:n=120000,deg=4,seed=9");
  expect_correct(g, graphs::make_inputs(g, 1, 128, 6));
}

TEST(Colblock, SkewedGraph) {
  const auto g = graphs::make_graph("powerlaw:n=30000,deg=12,alpha=2.1,maxdeg=8000,seed=7");
  expect_correct(g, graphs::make_inputs(g, 1, 128, 7), 2, small_partitions());
}

TEST(Colblock, MaskedEdgesAndRows) {
  const auto g = graphs::make_graph("uniform:n=5000,deg=12,seed=13");
  auto in = graphs::make_inputs(g, 1, 128, 8);
  const float ninf = -std::numeric_limits<float>::infinity();
  for (size_t e = 0; e < in.scores.size(); e += 3) in.scores[e] = ninf;  // some edges masked
  for (size_t e = 0; e < 12 * 50; ++e) in.scores[e] = ninf;              // 50 rows fully masked
  expect_correct(g, in, 2, small_partitions());
}

TEST(Colblock, EmptyRows) {
  // Rows 0..n/2 of a generated graph keep their edges, the rest have none.
  auto g = graphs::make_graph("uniform:n=6000,deg=10,seed=21");
  const int64_t half = g.num_nodes / 2;
  g.col.resize(static_cast<size_t>(g.row_ptr[half]));
  for (int64_t r = half + 1; r <= g.num_nodes; ++r) g.row_ptr[r] = g.row_ptr[half];
  g.name = "uniform, second half empty";
  expect_correct(g, graphs::make_inputs(g, 1, 128, 9));
}

TEST(Colblock, SaysWhatItCannotRun) {
  const auto g = graphs::make_graph("uniform:n=1000,deg=4,seed=1");
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 64, true, 0).find("F = 128 only"), std::string::npos);
  EXPECT_NE(ColblockKernel::unsupported(g, 2, 128, true, 0).find("one head"), std::string::npos);
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 128, false, 0).find("float32"), std::string::npos);
  ColblockOptions o;
  o.rows_per_warp = 32;
  EXPECT_NE(ColblockKernel::unsupported(g, 1, 128, true, 0, o).find("rows_per_warp"),
            std::string::npos);
}
