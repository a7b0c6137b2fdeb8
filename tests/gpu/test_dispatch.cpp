// The production dispatch picks the tuned variant: for every problem of the recorded H200 run,
// csrgat::Shape (built from the real graph) must name the variant of the first tuned rule whose
// bucket holds that problem, and aggregate() through it must be correct. Runs only when the
// library was built with the header emitted from that store (CSRGAT_TUNED_CONFIG).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "csrgat/aggregate.h"
#include "variants/launch.h"
#include "variants/params.h"
#include "graphs/generate.h"
#include "production_check.h"
#include "tuner/emit.h"
#include "tuner/select.h"
#include "tuner/store.h"

namespace fs = std::filesystem;
using namespace csrgat;
using namespace csrgat::tuner;

#ifndef CSRGAT_TUNED_HEADER_PATH_FOR_TESTS
#define CSRGAT_TUNED_HEADER_PATH_FOR_TESTS ""
#endif

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
  // Compressed, so read in memory (read-only): nothing is written beside it.
  const std::string store_path = source_dir() + "/tests/data/recorded/h200.sqlite.gz";
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
    std::string expected;
    for (const auto& r : rules) {
      const VariantParams p = VariantParams::parse(r.variant);
      if (r.bucket.value == static_cast<int>(w.value) && r.bucket.index == static_cast<int>(w.index) &&
          r.bucket.contains(w.feat, w.heads, mean, max_deg, g.num_nodes) &&
          slices_fit(p.slices, p.vec, w.feat)) {  // as the library's choose()
        expected = r.variant;
        break;
      }
    }
    ASSERT_FALSE(expected.empty()) << w.graph << ": no rule holds it";
    const Storage st = w.value == ValueType::f32 ? Storage::f32 : w.value == ValueType::bf16 ? Storage::bf16 : Storage::f16;
    Shape shape;
    ASSERT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, w.heads, w.feat, st,
                            w.index == IndexType::i64 ? Index::i64 : Index::i32, &shape),
              Status::ok);
    EXPECT_EQ(std::string(shape.variant_id()), expected) << w.graph << " F=" << w.feat << " " << to_string(w.value);
    // And the library computes it correctly through that variant (its row order and chunk
    // plan built by the Shape, as a caller's would be).
    run_production(g, w.heads, w.feat, st, true, w.index == IndexType::i64 ? Index::i64 : Index::i32);
    ++checked;
  }
  EXPECT_GE(checked, 10);
}
