// The production dispatch picks the tuned variant: for every problem of the recorded H200 run,
// csrgat::Shape (built from the real graph) must name the variant of the first tuned rule whose
// bucket holds that problem, and aggregate() through it must be correct. Runs only when the
// library was built with the header emitted from that store (CSRGAT_TUNED_CONFIG).
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "csrgat/aggregate.h"
#include "csrgat/type_codes.h"
#include "graphs/generate.h"
#include "production_check.h"
#include "tuner/emit.h"
#include "tuner/select.h"
#include "tuner/store.h"
#include "variants/launch.h"
#include "variants/params.h"

namespace fs = std::filesystem;
using namespace csrgat;
using namespace csrgat::tuner;

#ifndef CSRGAT_TUNED_HEADER_PATH_FOR_TESTS
#define CSRGAT_TUNED_HEADER_PATH_FOR_TESTS "csrgat/tuned/default.h"
#endif
// The rules the library was built with (AColblockRuleRunsTheSweepWhereAShapeHoldsItsPlan).
#include CSRGAT_TUNED_HEADER_PATH_FOR_TESTS

namespace {
std::string source_dir() {
  if (const char* d = std::getenv("CSRGAT_SOURCE_DIR")) return d;
  return CSRGAT_SOURCE_DIR;
}
std::string read_file(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
// The header text minus its first two lines (which name the store file and its folder).
std::string body(const std::string& h) {
  size_t pos = 0;
  for (int i = 0; i < 2 && pos != std::string::npos; ++i) pos = h.find('\n', pos) + 1;
  std::string b = h.substr(pos);
  const auto s = b.find("#define CSRGAT_TUNED_SOURCE");
  if (s != std::string::npos) b.erase(s, b.find('\n', s) - s);
  return b;
}
}  // namespace

TEST(Dispatch, TunedHeaderRoutesEveryTunedGraphToItsRule) {
  // A folder of compressed stores, so read in memory (read-only): nothing is written beside it.
  const std::string store_path = source_dir() + "/tests/data/recorded/h200";
  const Store store(store_path, true);
  const auto run = store.latest_run();
  ASSERT_TRUE(run.has_value());
  const std::string built = read_file(CSRGAT_TUNED_HEADER_PATH_FOR_TESTS);
  if (body(built) != body(emit_header(store, run->id, "sm_90")))
    GTEST_SKIP() << "the library was built with " << CSRGAT_TUNED_HEADER_PATH_FOR_TESTS
                 << ", not the header of " << store_path;
  const auto rules = select_rules(store, run->id);
  int checked = 0;
  for (const auto& w : select_winners(store, run->id)) {
    const auto g = graphs::make_graph(w.spec);
    int64_t max_deg = 0;
    for (int64_t r = 0; r < g.num_nodes; ++r) max_deg = std::max(max_deg, g.degree(r));
    const double mean = g.num_nodes ? static_cast<double>(g.num_edges()) / g.num_nodes : 0;
    const RuleChoice* rule =
        first_match(rules, w.value, w.index, w.feat, w.heads, mean, max_deg, g.num_nodes);
    ASSERT_NE(rule, nullptr) << w.graph << ": no rule holds it";
    const std::string expected = rule->variant;
    const Storage st = storage_of(w.value);
    Shape shape;
    ASSERT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, w.heads, w.feat, st, index_of(w.index),
                            &shape),
              Status::ok);
    EXPECT_EQ(std::string(shape.variant_id()), expected) << w.graph << " F=" << w.feat << " " << to_string(w.value);
    // And the library computes it correctly through that variant (its row order and chunk
    // plan built by the Shape, as a caller's would be).
    run_production(g, w.heads, w.feat, st, true, index_of(w.index));
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// The library's column-blocked sweep: where the tuned header attaches one to a rule
// (Rule::colblock_rows), a Shape made from the graph's device arrays plans it and runs it, through
// aggregate() and a Call, correctly; a Shape from the host row_ptr alone, a graph at other
// pointers and unaligned values run the rule's family kernel, correctly too; a bad column is
// invalid_argument; a 16-bit out is refused (float32 values). Skipped, visibly, when the header
// attaches no sweep.
TEST(Dispatch, AColblockRuleRunsTheSweepWhereAShapeHoldsItsPlan) {
  const tuned::Rule* rule = nullptr;
  for (const auto& r : tuned::kRules)
    if (r.colblock_rows > 0 && r.value == 0 && r.index == 0 && r.feat_min <= 128 &&
        r.feat_max >= 128 && r.heads_min == 1) {
      rule = &r;
      break;
    }
  if (!rule) GTEST_SKIP() << CSRGAT_TUNED_HEADER_PATH_FOR_TESTS << " attaches no column-blocked sweep to a rule";
  // A uniform graph at the bucket's lower corner: every row of degree ceil(mean_degree_min).
  const int64_t n = std::max<int64_t>(rule->nodes_min, 1000);
  const int64_t deg = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(rule->mean_degree_min)));
  ASSERT_LT(static_cast<double>(deg), rule->mean_degree_max);
  ASSERT_GE(deg, rule->max_degree_min);
  ASSERT_LT(deg, rule->max_degree_max);
  const auto g = graphs::make_graph("uniform:n=" + std::to_string(n) + ",deg=" + std::to_string(deg) + ",seed=3");
  SCOPED_TRACE("uniform n=" + std::to_string(n) + " deg=" + std::to_string(deg) + " F=128");
  ProductionProblem pp(g, 1, 128, Storage::f32);
  Shape host_only, planned;
  ASSERT_EQ(Shape::create(g.row_ptr.data(), n, 1, 128, Storage::f32, Index::i32, &host_only), Status::ok);
  if (std::string(host_only.variant_id()) != rule->variant_id)
    GTEST_SKIP() << "an earlier rule takes this graph: " << host_only.variant_id();
  ASSERT_EQ(Shape::create(pp.graph(), g.row_ptr.data(), 1, 128, Storage::f32, &planned), Status::ok);
  EXPECT_EQ(std::string(planned.variant_id()), rule->colblock_id);
  EXPECT_EQ(std::string(dispatch_variant(pp.graph(), Storage::f32, 1, 128, &planned)), rule->colblock_id);

  // The sweep, through aggregate() and through a Call launched twice.
  ASSERT_EQ(aggregate(pp.graph(), pp.scores(), pp.values(), Storage::f32, 1, 128, pp.out(), nullptr, &planned),
            Status::ok);
  pp.check(rule->colblock_id);
  Call call;
  ASSERT_EQ(Call::create(pp.graph(), pp.scores(), pp.values(), Storage::f32, 1, 128, pp.out(), &planned, {}, &call),
            Status::ok);
  EXPECT_EQ(std::string(call.variant_id()), rule->colblock_id);
  for (int i = 0; i < 2; ++i) {
    pp.poison();
    ASSERT_EQ(call.launch(nullptr), Status::ok);
    pp.check(std::string("Call of ") + rule->colblock_id);
  }
  // 16-bit out goes with 16-bit values only: refused here (float32 values), plan or not.
  Call narrow;
  EXPECT_EQ(Call::create(pp.graph(), pp.scores(), pp.values(), Storage::f32, 1, 128,
                         pp.output(Storage::bf16), &planned, {}, &narrow),
            Status::unsupported);
  // Without the plan: the host-only Shape, and the same graph at other pointers.
  pp.poison();
  ASSERT_EQ(aggregate(pp.graph(), pp.scores(), pp.values(), Storage::f32, 1, 128, pp.out(), nullptr, &host_only),
            Status::ok);
  pp.check(rule->variant_id);
  int* col_copy = nullptr;
  const size_t col_bytes = static_cast<size_t>(g.num_edges()) * sizeof(int);
  ASSERT_EQ(cudaMalloc(&col_copy, col_bytes), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(col_copy, pp.graph().col, col_bytes, cudaMemcpyDeviceToDevice), cudaSuccess);
  GraphView moved = pp.graph();
  moved.col = col_copy;
  Call elsewhere;
  ASSERT_EQ(Call::create(moved, pp.scores(), pp.values(), Storage::f32, 1, 128, pp.out(), &planned, {}, &elsewhere),
            Status::ok);
  EXPECT_EQ(std::string(elsewhere.variant_id()), rule->variant_id);
  pp.poison();
  ASSERT_EQ(elsewhere.launch(nullptr), Status::ok);
  pp.check(std::string("a graph at other pointers: ") + rule->variant_id);
  // A column out of range: the plan says so.
  const int bad = static_cast<int>(n);
  ASSERT_EQ(cudaMemcpy(col_copy + 5, &bad, sizeof bad, cudaMemcpyHostToDevice), cudaSuccess);
  Shape refused;
  EXPECT_EQ(Shape::create(moved, g.row_ptr.data(), 1, 128, Storage::f32, &refused), Status::invalid_argument);
  EXPECT_EQ(std::string(refused.variant_id()), "");
  cudaFree(col_copy);
  // Values off 16-byte alignment: the family kernel's scalar twin.
  ProductionProblem unaligned(g, 1, 128, Storage::f32, Index::i32, 1);
  Shape planned2;
  ASSERT_EQ(Shape::create(unaligned.graph(), g.row_ptr.data(), 1, 128, Storage::f32, &planned2), Status::ok);
  Call twin;
  ASSERT_EQ(Call::create(unaligned.graph(), unaligned.scores(), unaligned.values(), Storage::f32, 1, 128,
                         unaligned.out(), &planned2, {}, &twin),
            Status::ok);
  EXPECT_EQ(std::string(twin.variant_id()), rule->variant_id);
  ASSERT_EQ(twin.launch(nullptr), Status::ok);
  unaligned.check(std::string("unaligned values: ") + rule->variant_id);
}

// A rule of bf16 values with a column-blocked sweep attached: with a Shape that holds its plan, a
// float32 out runs the sweep and a bf16 out the rule's `.o16` twin (the sweep writes float32
// only), both correct. Skipped, visibly, when the header attaches no sweep to a bf16 rule.
TEST(Dispatch, ABf16ColblockRuleTakesTheO16TwinForBf16Out) {
  const tuned::Rule* rule = nullptr;
  for (const auto& r : tuned::kRules)
    if (r.colblock_rows > 0 && r.value == 1 && r.index == 0 && r.feat_min <= 128 &&
        r.feat_max >= 128 && r.heads_min == 1) {
      rule = &r;
      break;
    }
  if (!rule)
    GTEST_SKIP() << CSRGAT_TUNED_HEADER_PATH_FOR_TESTS
                 << " attaches no column-blocked sweep to a bf16 rule";
  const int64_t n = std::max<int64_t>(rule->nodes_min, 1000);
  const int64_t deg = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(rule->mean_degree_min)));
  const auto g = graphs::make_graph("uniform:n=" + std::to_string(n) +
                                    ",deg=" + std::to_string(deg) + ",seed=3");
  ProductionProblem pp(g, 1, 128, Storage::bf16);
  Shape planned;
  ASSERT_EQ(Shape::create(pp.graph(), g.row_ptr.data(), 1, 128, Storage::bf16, &planned),
            Status::ok);
  if (std::string(planned.variant_id()) != rule->colblock_id)
    GTEST_SKIP() << "an earlier rule takes this graph: " << planned.variant_id();
  ASSERT_EQ(aggregate(pp.graph(), pp.scores(), pp.values(), Storage::bf16, 1, 128, pp.out(),
                      nullptr, &planned),
            Status::ok);
  pp.check(rule->colblock_id);
  Call narrow;
  ASSERT_EQ(Call::create(pp.graph(), pp.scores(), pp.values(), Storage::bf16, 1, 128,
                         pp.output(Storage::bf16), &planned, {}, &narrow),
            Status::ok);
  EXPECT_EQ(std::string(narrow.variant_id()), std::string(rule->variant_id) + ".o16");
  pp.poison();
  ASSERT_EQ(narrow.launch(nullptr), Status::ok);
  pp.check(std::string(rule->variant_id) + ".o16", Storage::bf16);
}
