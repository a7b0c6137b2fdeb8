// The production API (csrgat::aggregate through the tuned header the library was built with)
// against the float64 reference, with and without a precomputed Shape, and its error statuses.
#include <gtest/gtest.h>

#include "graphs/generate.h"
#include "production_check.h"

using namespace csrgat;

TEST(Production, SeedProblem) {
  const auto g = graphs::make_graph("seed:n=384,deg=18,seed=1");
  run_production(g, 1, 64, Storage::f32, true);
  run_production(g, 1, 64, Storage::f32, false);
}

TEST(Production, SkewedGraphWithLongRowSplit) {
  const auto g = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  run_production(g, 1, 64, Storage::f32, true);
  run_production(g, 2, 32, Storage::f32, true, Index::i64);
}

TEST(Production, Bf16Storage) {
  const auto g = graphs::make_graph("uniform:n=20000,deg=16,seed=4");
  run_production(g, 1, 64, Storage::bf16, true);
  run_production(g, 1, 100, Storage::bf16, false);
}

// Values rows a tuned kernel's vector loads cannot take (a base off their alignment, or F not a
// multiple of their width) go to the kernel's scalar twin: the vector kernel would trap.
TEST(Production, UnalignedValuesTakeTheScalarTwin) {
  const auto seed = graphs::make_graph("seed:n=384,deg=18,seed=1");
  run_production(seed, 1, 64, Storage::f32, true, Index::i32, 1);
  run_production(seed, 1, 64, Storage::f32, false, Index::i32, 2);
  run_production(seed, 1, 62, Storage::f32, true);
  const auto skewed = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  run_production(skewed, 1, 64, Storage::f32, true, Index::i32, 1);  // split rows, row order
  const auto uniform = graphs::make_graph("uniform:n=20000,deg=16,seed=4");
  run_production(uniform, 1, 64, Storage::bf16, true, Index::i32, 3);
}

TEST(Production, BadArgumentsReturnStatus) {
  GraphView gv{nullptr, nullptr, 10, 20, Index::i32};
  float* out = nullptr;
  EXPECT_EQ(aggregate(gv, nullptr, nullptr, Storage::f32, 1, 64, out, nullptr), Status::invalid_argument);
  gv.num_nodes = -1;
  EXPECT_EQ(aggregate(gv, nullptr, nullptr, Storage::f32, 1, 64, out, nullptr), Status::invalid_argument);
  Shape s;
  EXPECT_EQ(Shape::create(nullptr, 10, 1, 64, Storage::f32, Index::i32, &s), Status::invalid_argument);
}
