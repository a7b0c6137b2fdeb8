// The colblock plan (variants/colblock_plan.h): each warp batch's edges permuted in place into
// stable source-partition order, each item naming its source, its row within the batch and its
// edge's offset; and the plan's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "graphs/generate.h"
#include "variants/colblock_plan.h"

using namespace csrgat;
using namespace csrgat::colblock;

namespace {

// Checks every property of plan against the graph, batch by batch.
void expect_valid_plan(const graphs::Csr64& g, const std::vector<PlanItem>& plan, int R,
                       int shift) {
  ASSERT_EQ(static_cast<int64_t>(plan.size()), g.num_edges());
  for (int64_t r0 = 0; r0 < g.num_nodes; r0 += R) {
    const int64_t r1 = std::min(g.num_nodes, r0 + R), first = g.row_ptr[r0], last = g.row_ptr[r1];
    std::vector<bool> seen(static_cast<size_t>(last - first), false);
    for (int64_t k = first; k < last; ++k) {
      const PlanItem it = plan[k];
      const int64_t e = first + it.y, src = it.x & 0xffffffu, row = r0 + (it.x >> 24);
      ASSERT_LT(e, last) << "batch at row " << r0 << ", position " << k;
      ASSERT_FALSE(seen[it.y]) << "edge " << e << " planned twice";
      seen[it.y] = true;
      EXPECT_EQ(src, g.col[e]) << "edge " << e;
      ASSERT_LT(row, r1);
      EXPECT_TRUE(g.row_ptr[row] <= e && e < g.row_ptr[row + 1])
          << "edge " << e << " is not row " << row << "'s";
      if (k > first) {  // partitions ascend; within one, edges in order
        const PlanItem prev = plan[k - 1];
        const uint32_t p_prev = (prev.x & 0xffffffu) >> shift, p = (it.x & 0xffffffu) >> shift;
        ASSERT_LE(p_prev, p) << "position " << k;
        if (p_prev == p) {
          EXPECT_LT(prev.y, it.y) << "position " << k;
        }
      }
    }
  }
}

}  // namespace

TEST(ColblockPlan, UniformGraphIsPermutedIntoPartitionOrder) {
  const auto g = graphs::make_graph("uniform:n=5000,deg=9,seed=4");
  for (int R : {1, 7, 20, 31})
    for (int shift : {0, 6, 10, 13})
      expect_valid_plan(g, build_plan(g.row_ptr, g.col, g.num_nodes, R, shift), R, shift);
}

TEST(ColblockPlan, SkewedGraphWithEmptyRows) {
  auto g = graphs::make_graph("powerlaw:n=3000,deg=8,alpha=2.1,maxdeg=1500,seed=5");
  // Rows 100-199 emptied.
  const int64_t cut = g.row_ptr[200] - g.row_ptr[100];
  g.col.erase(g.col.begin() + g.row_ptr[100], g.col.begin() + g.row_ptr[200]);
  for (int64_t r = 101; r <= g.num_nodes; ++r)
    g.row_ptr[r] = r <= 200 ? g.row_ptr[100] : g.row_ptr[r] - cut;
  for (int R : {7, 20}) expect_valid_plan(g, build_plan(g.row_ptr, g.col, g.num_nodes, R, 8), R, 8);
}

TEST(ColblockPlan, RejectsWhatItCannotPack) {
  const auto g = graphs::make_graph("uniform:n=100,deg=3,seed=1");
  auto message = [&](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(
      message([&] { build_plan(g.row_ptr, g.col, g.num_nodes, 32, 4); }).find("rows_per_warp = 32"),
      std::string::npos);
  EXPECT_NE(
      message([&] { build_plan(g.row_ptr, g.col, g.num_nodes, 0, 4); }).find("rows_per_warp = 0"),
      std::string::npos);
  EXPECT_NE(plan_unsupported(kMaxNodes, 10, 20, 15).find("n < 2^24"), std::string::npos);
  EXPECT_EQ(plan_unsupported(kMaxNodes - 1, 10, 20, 15), "");
  auto bad_col = g;
  bad_col.col[17] = 100;
  EXPECT_NE(message([&] {
              build_plan(bad_col.row_ptr, bad_col.col, bad_col.num_nodes, 20, 4);
            }).find("col[17] = 100"),
            std::string::npos);
  auto bad_rp = g;
  bad_rp.row_ptr[50] = bad_rp.row_ptr[51] + 1;
  EXPECT_NE(message([&] {
              build_plan(bad_rp.row_ptr, bad_rp.col, bad_rp.num_nodes, 20, 4);
            }).find("row_ptr[51] < row_ptr[50]"),
            std::string::npos);
  EXPECT_NE(message([&] {
              build_plan(g.row_ptr, std::vector<int64_t>(5), g.num_nodes, 20, 4);
            }).find("n + 1"),
            std::string::npos);
}
