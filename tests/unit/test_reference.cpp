// variants/reference: the float64 CPU reference against an independent naive implementation,
// its defined edge cases, and compare_to_reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generate.h"
#include "tests/masked_sources.h"
#include "tuner/device_compare.h"
#include "variants/reference.h"

using namespace csrgat;
using namespace csrgat::graphs;

namespace {

constexpr float inf = std::numeric_limits<float>::infinity();

// The definition written out as plainly as possible, in long double.
std::vector<double> naive(const Csr64& g, const Inputs& in) {
  const int64_t H = in.heads, F = in.feat;
  std::vector<double> out(g.num_nodes * H * F, 0.0);
  for (int64_t d = 0; d < g.num_nodes; ++d) {
    for (int64_t h = 0; h < H; ++h) {
      long double m = -std::numeric_limits<long double>::infinity();
      for (int64_t e = g.row_ptr[d]; e < g.row_ptr[d + 1]; ++e)
        m = std::max(m, static_cast<long double>(in.scores[e * H + h]));
      if (m == -std::numeric_limits<long double>::infinity()) continue;  // empty or all -inf
      long double sum = 0;
      for (int64_t e = g.row_ptr[d]; e < g.row_ptr[d + 1]; ++e)
        sum += std::exp(in.scores[e * H + h] - m);
      for (int64_t f = 0; f < F; ++f) {
        long double acc = 0;
        for (int64_t e = g.row_ptr[d]; e < g.row_ptr[d + 1]; ++e)
          acc += std::exp(in.scores[e * H + h] - m) / sum * in.values[(g.col[e] * H + h) * F + f];
        out[(d * H + h) * F + f] = static_cast<double>(acc);
      }
    }
  }
  return out;
}

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(b[i])));
  return worst;
}

Csr64 make_csr(int64_t n, std::vector<int64_t> row_ptr, std::vector<int64_t> col) {
  Csr64 g;
  g.num_nodes = n;
  g.row_ptr = std::move(row_ptr);
  g.col = std::move(col);
  return g;
}

}  // namespace

TEST(Reference, MatchesNaiveOnGeneratedGraphs) {
  const char* specs[] = {"seed:n=120,deg=18", "uniform:n=150,deg=7",
                         "powerlaw:n=300,deg=6,alpha=2.1", "rmat:scale=7,ef=4"};
  for (const char* spec : specs) {
    const Csr64 g = make_graph(spec);
    for (int heads : {1, 4}) {
      for (int feat : {1, 3, 16, 64, 100}) {
        SCOPED_TRACE(std::string(spec) + " H=" + std::to_string(heads) +
                     " F=" + std::to_string(feat));
        const Inputs in = make_inputs(g, heads, feat, 42);
        const auto ref = reference_aggregate(g, in);
        ASSERT_EQ(ref.size(), static_cast<size_t>(g.num_nodes * heads * feat));
        EXPECT_LT(max_rel_diff(ref, naive(g, in)), 1e-12);
      }
    }
  }
}

TEST(Reference, Int32AndThreadCountGiveIdenticalResults) {
  const Csr64 g = make_graph("powerlaw:n=3000,deg=10,alpha=2.1");
  const Inputs in = make_inputs(g, 2, 8, 1);
  const auto one = reference_aggregate(g, in, 1);
  EXPECT_EQ(one, reference_aggregate(g, in, 3));
  EXPECT_EQ(one, reference_aggregate(to_int32(g), in, 2));
}

TEST(Reference, EdgeCases) {
  // Rows: 0 empty; 1 degree 1; 2 has a -inf score; 3 all -inf; 4 huge magnitudes; 5 huge equal.
  const Csr64 g = make_csr(6, {0, 0, 1, 4, 6, 8, 10}, {3, 0, 1, 2, 4, 5, 1, 2, 0, 5});
  Inputs in;
  in.heads = 1;
  in.feat = 2;
  in.scores = {5.0f, 0.0f, -inf, 0.0f, -inf, -inf, 1e30f, -1e30f, 1e30f, 1e30f};
  in.values = {1, 2, 3, 4, 5, 6, 7, 8, 1e30f, -1e30f, 9, 10};
  ASSERT_NO_THROW(validate_inputs(g, in));
  const auto out = reference_aggregate(g, in);
  const std::vector<double> want = {0, 0,   // empty row
                                    7, 8,   // degree 1: the value itself
                                    3, 4,   // mean of nodes 0 and 2, node 1 weighs 0
                                    0, 0,   // all -inf
                                    3, 4,   // 1e30 beats -1e30 by everything
                                    5, 6};  // equal 1e30 scores: mean of nodes 0 and 5
  ASSERT_EQ(out.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ(out[i], want[i]) << i;
  EXPECT_LT(max_rel_diff(out, naive(g, in)), 1e-12);

  // Huge values do not overflow in double.
  Inputs big = in;
  big.values = std::vector<float>(12, 3e38f);
  for (double v : reference_aggregate(g, big))
    EXPECT_TRUE(v == 0 || std::abs(v - 3e38) < 1e32) << v;
}

TEST(Reference, AllowedPositiveInfinityAndNan) {
  const Csr64 g = make_csr(2, {0, 3, 5}, {0, 1, 1, 0, 1});
  Inputs in;
  in.heads = 2;
  in.feat = 1;
  // scores: (E, H). Row 0 head 0 has two +inf entries; row 1 head 1 has a NaN.
  in.scores = {inf, 0, 1, 0, inf, 0, 0, 0, 0, NAN};
  in.values = {10, 20, 30, 40};  // (N, H, F): node 0 -> (10, 20), node 1 -> (30, 40)
  EXPECT_THROW(validate_inputs(g, in), GraphError);
  EXPECT_NO_THROW(validate_inputs(g, in, {.allow_nan = true, .allow_pos_inf = true}));
  const auto out = reference_aggregate(g, in);
  EXPECT_DOUBLE_EQ(out[0], 20);  // +inf at edges 0 (node 0) and 2 (node 1): (10 + 30) / 2
  EXPECT_NEAR(out[1], (20 + 40 + 40) / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(out[2], 20);  // equal scores over nodes 0 and 1
  EXPECT_TRUE(std::isnan(out[3]));
}

// test_inputs::mask_nonfinite_sources (tests/masked_sources.h: the GPU tests' masked edges from
// +Inf and NaN sources): exactly the elements it promises set (each masked edge k's score in every
// head -inf; element k % (H x F) of its source's row NaN for odd k, +Inf for even, or +Inf only),
// nothing else touched; and the reference skips a masked edge, so it gives what it gives on the
// graph without those edges and the values unpoisoned, finite everywhere.
TEST(Reference, MaskedEdgesFromNonFiniteSourcesAreSkipped) {
  const Csr64 g = make_graph("uniform:n=600,deg=7,seed=5");
  const Inputs clean = make_inputs(g, 2, 6, 11);
  // The reference on the same graph less every edge from a source s % 13 == 0.
  Csr64 kept = g;
  Inputs kept_in = clean;
  kept.col.clear();
  kept_in.scores.clear();
  for (int64_t d = 0; d < g.num_nodes; ++d) {
    for (int64_t e = g.row_ptr[d]; e < g.row_ptr[d + 1]; ++e) {
      if (g.col[e] % 13 == 0) continue;
      kept.col.push_back(g.col[e]);
      kept_in.scores.insert(kept_in.scores.end(), clean.scores.begin() + e * 2,
                            clean.scores.begin() + e * 2 + 2);
    }
    kept.row_ptr[d + 1] = static_cast<int64_t>(kept.col.size());
  }
  const auto want_out = reference_aggregate(kept, kept_in);
  for (const bool nan_on_odd : {true, false}) {
    SCOPED_TRACE(nan_on_odd ? "NaN on odd edges" : "+Inf only");
    Inputs masked = clean;
    const int64_t n_masked = csrgat::test_inputs::mask_nonfinite_sources(g, masked, 13, nan_on_odd);
    // What it should have written, edge by edge (a later edge from the same source may write
    // the same element again: the last write stands, as in the loop it stands for).
    Inputs want = clean;
    int64_t n_want = 0;
    for (int64_t k = 0; k < g.num_edges(); ++k) {
      if (g.col[k] % 13 != 0) continue;
      ++n_want;
      want.scores[k * 2] = want.scores[k * 2 + 1] = -inf;
      want.values[g.col[k] * 12 + k % 12] = nan_on_odd && k % 2 == 1 ? NAN : inf;
    }
    EXPECT_EQ(n_masked, n_want);
    EXPECT_GT(n_masked, 200);
    ASSERT_EQ(masked.scores.size(), want.scores.size());
    for (size_t i = 0; i < want.scores.size(); ++i)
      ASSERT_EQ(masked.scores[i], want.scores[i]) << i;
    ASSERT_EQ(masked.values.size(), want.values.size());
    int64_t nan = 0, pos_inf = 0;
    for (size_t i = 0; i < want.values.size(); ++i) {
      if (std::isnan(want.values[i])) {
        ASSERT_TRUE(std::isnan(masked.values[i])) << i;
        ++nan;
      } else {
        ASSERT_EQ(masked.values[i], want.values[i]) << i;
        pos_inf += want.values[i] == inf;
      }
    }
    EXPECT_EQ(nan > 0, nan_on_odd);
    EXPECT_GT(pos_inf, 0);

    const auto out = reference_aggregate(g, masked);
    for (double v : out) ASSERT_TRUE(std::isfinite(v));
    EXPECT_LT(max_rel_diff(out, want_out), 1e-12);
  }

  // A row whose every edge is masked comes out 0; a row with one edge left, that edge's source.
  const Csr64 small = make_csr(3, {0, 2, 4, 4}, {0, 2, 1, 2});
  Inputs in;
  in.heads = 1;
  in.feat = 2;
  in.scores = {1, 2, 3, 4};
  in.values = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(csrgat::test_inputs::mask_nonfinite_sources(small, in, 2, true), 3);
  const auto out = reference_aggregate(small, in);
  const std::vector<double> want = {0, 0, 3, 4, 0, 0};  // row 1 keeps its edge from node 1
  ASSERT_EQ(out.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ(out[i], want[i]) << i;

  Inputs wrong = clean;
  wrong.values.pop_back();
  EXPECT_THROW(csrgat::test_inputs::mask_nonfinite_sources(g, wrong, 13, true),
               std::invalid_argument);
  Inputs fine = clean;
  EXPECT_THROW(csrgat::test_inputs::mask_nonfinite_sources(g, fine, 0, true),
               std::invalid_argument);
}

TEST(Reference, RejectsMismatchedInputs) {
  const Csr64 g = make_csr(2, {0, 1, 2}, {1, 0});
  Inputs in;
  in.heads = 1;
  in.feat = 2;
  in.scores = {0, 0};
  in.values = {1, 2, 3};
  EXPECT_THROW(reference_aggregate(g, in), GraphError);
}

// ---- compare_to_reference -----------------------------------------------------------------

namespace {

std::vector<double> sample_reference() {
  const Csr64 g = make_graph("uniform:n=200,deg=5");
  return reference_aggregate(g, make_inputs(g, 2, 16, 3));
}

std::vector<float> to_float(const std::vector<double>& v, double scale = 1) {
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<float>(v[i] * scale);
  return out;
}

}  // namespace

TEST(ReferenceCompare, PassesAFloatRoundingOfTheReference) {
  const auto ref = sample_reference();
  const auto out = to_float(ref);
  const Comparison c = compare_to_reference(out.data(), ref, 1e-5);
  EXPECT_TRUE(c.pass) << c.summary;
  EXPECT_LT(c.rel_error, 1e-7);
  EXPECT_EQ(c.bad_elements, 0);
  EXPECT_EQ(c.first_bad, -1);
  EXPECT_EQ(c.summary.rfind("PASS", 0), 0u) << c.summary;
}

TEST(ReferenceCompare, CatchesNanAndInf) {
  const auto ref = sample_reference();
  auto out = to_float(ref);
  out[77] = std::numeric_limits<float>::quiet_NaN();
  out[900] = inf;
  const Comparison c = compare_to_reference(out.data(), ref, 1e-3);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nan_count, 2);
  EXPECT_EQ(c.bad_elements, 2);
  EXPECT_EQ(c.first_bad, 77);
  EXPECT_NE(c.summary.find("first bad [77]: got nan"), std::string::npos) << c.summary;
}

TEST(ReferenceCompare, CatchesUnwrittenElements) {
  const auto ref = sample_reference();
  auto out = to_float(ref);
  // A kernel that skipped one row: the poison pattern of the output buffer (0xFF bytes: NaN).
  std::memset(out.data() + 320, 0xff, 16 * sizeof(float));
  Comparison c = compare_to_reference(out.data(), ref, 1e-3);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.first_bad, 320);
  EXPECT_EQ(c.nan_count, 16);
  // Poisoned with zeros instead: wrong values, not NaN.
  out = to_float(ref);
  std::fill(out.begin() + 320, out.begin() + 336, 0.0f);
  c = compare_to_reference(out.data(), ref, 1e-3);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nan_count, 0);
  EXPECT_GT(c.bad_elements, 0);
  EXPECT_GE(c.first_bad, 320);
  EXPECT_NE(c.summary.find("want"), std::string::npos);
}

TEST(ReferenceCompare, RelativeErrorJustAboveAndBelowTolerance) {
  const auto ref = sample_reference();
  const double tol = 1e-4;
  const auto below = to_float(ref, 1 + 0.8 * tol);
  const Comparison cb = compare_to_reference(below.data(), ref, tol);
  EXPECT_TRUE(cb.pass) << cb.summary;
  EXPECT_NEAR(cb.rel_error, 0.8 * tol, 0.05 * tol);
  const auto above = to_float(ref, 1 + 1.2 * tol);
  const Comparison ca = compare_to_reference(above.data(), ref, tol);
  EXPECT_FALSE(ca.pass) << ca.summary;
  EXPECT_NEAR(ca.rel_error, 1.2 * tol, 0.05 * tol);
  EXPECT_EQ(ca.bad_elements, 0);  // spread thinly: only the norm test catches it
  // One element off by 20 tol relative to the larger of itself and the rms: norm small, element
  // bad.
  auto one = to_float(ref);
  double rms = 0;
  for (double r : ref) rms += r * r;
  rms = std::sqrt(rms / ref.size());
  one[500] = static_cast<float>(ref[500] + 20 * tol * std::max(std::abs(ref[500]), rms));
  const Comparison co = compare_to_reference(one.data(), ref, tol);
  EXPECT_FALSE(co.pass);
  EXPECT_LT(co.rel_error, tol);
  EXPECT_EQ(co.bad_elements, 1);
  EXPECT_EQ(co.first_bad, 500);
}

TEST(ReferenceCompare, ZeroReference) {
  const std::vector<double> ref(10, 0.0);
  std::vector<float> out(10, 0.0f);
  EXPECT_TRUE(compare_to_reference(out.data(), ref, 1e-5).pass);
  out[3] = 1e-20f;
  const Comparison c = compare_to_reference(out.data(), ref, 1e-5);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.first_bad, 3);
}

// The tuner's read-back of a 16-bit out (DeviceProblem::download_output, the device check's
// first bad element): bfloat16 and float16 bit patterns widen to the floats they stand for.
TEST(OutStorage, SixteenBitElementsWidenExactly) {
  const unsigned char one_bf16[2] = {0x80, 0x3f}, one_f16[2] = {0x00, 0x3c};
  const unsigned char neg_bf16[2] = {0xc0, 0xbf}, half_f16[2] = {0x00, 0x38};
  EXPECT_EQ(tuner::widen_out_element(one_bf16, 1), 1.0f);
  EXPECT_EQ(tuner::widen_out_element(neg_bf16, 1), -1.5f);
  EXPECT_EQ(tuner::widen_out_element(one_f16, 2), 1.0f);
  EXPECT_EQ(tuner::widen_out_element(half_f16, 2), 0.5f);
  const float x = 3.25f;
  unsigned char f32[4];
  std::memcpy(f32, &x, 4);
  EXPECT_EQ(tuner::widen_out_element(f32, 0), 3.25f);
  const unsigned char nan_bytes[2] = {0xff, 0xff};  // what poison_output leaves: NaN in both
  EXPECT_TRUE(std::isnan(tuner::widen_out_element(nan_bytes, 1)));
  EXPECT_TRUE(std::isnan(tuner::widen_out_element(nan_bytes, 2)));
  const unsigned char row[6] = {0x80, 0x3f, 0x00, 0x40, 0xc0, 0xbf};  // bf16 1, 2, -1.5
  EXPECT_EQ(tuner::widen_output(row, 3, 1), (std::vector<float>{1.f, 2.f, -1.5f}));
}
