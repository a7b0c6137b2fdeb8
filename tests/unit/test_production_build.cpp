// The production library carries SASS for every architecture the build asked for (a CMake
// default that came too late once left it at the compiler's sm_75, so the H200 ran it through
// the PTX JIT). No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "csrgat/aggregate.h"
#include "variants/launch.h"
#include "variants/params.h"
#include "variants/plan.h"

TEST(ProductionBuild, CarriesSassForEveryConfiguredArchitecture) {
  const std::string have = std::string(",") + csrgat::compiled_archs() + ",";
  std::stringstream want(CSRGAT_CUDA_ARCHS);  // CMAKE_CUDA_ARCHITECTURES, e.g. "90" or "90-real;100"
  std::string a;
  int n = 0;
  while (std::getline(want, a, ';')) {
    const std::string digits = a.substr(0, a.find_first_not_of("0123456789"));
    ASSERT_FALSE(digits.empty()) << "architecture entry '" << a << "'";
    EXPECT_NE(have.find("," + digits + "0,"), std::string::npos)
        << "CMAKE_CUDA_ARCHITECTURES has " << a << " but the library was compiled for "
        << csrgat::compiled_archs();
    ++n;
  }
  EXPECT_GT(n, 0);
}

// A values row's stride H * F is a 32-bit operand of the kernels' row offsets: aggregate() and
// the tuner's launch geometry refuse H * F >= 2^31 before touching the GPU (so no GPU needed).
TEST(ProductionBuild, RefusesAValuesRowStrideBeyond32Bits) {
  alignas(16) int64_t dummy = 0;  // aligned as any index type (the API checks it)
  const csrgat::GraphView g{&dummy, &dummy, 1, 1, csrgat::Index::i32};
  float out = 0;
  EXPECT_EQ(csrgat::aggregate(g, &out, &out, csrgat::Storage::f32, 65536, 32768, &out, nullptr),
            csrgat::Status::unsupported);
  EXPECT_EQ(csrgat::aggregate(g, &out, &out, csrgat::Storage::f32, 2, 0x40000000, &out, nullptr),
            csrgat::Status::unsupported);
  std::vector<int64_t> rp{0, 1};
  csrgat::Shape shape;
  EXPECT_EQ(csrgat::Shape::create(rp.data(), 1, 65536, 32768, csrgat::Storage::f32, csrgat::Index::i32, &shape),
            csrgat::Status::unsupported);
  const auto geo = csrgat::launch_geometry(csrgat::VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32"),
                                           1, 65536, 32768, 0, 1, 0);
  EXPECT_NE(geo.unsupported.find("H * F"), std::string::npos) << geo.unsupported;
  // 64-bit indices keep the 64-bit product: only the 32-bit-index kernels are limited.
  const auto geo64 = csrgat::launch_geometry(csrgat::VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i64.f32"),
                                             1, 65536, 32768, 0, 1, 0);
  EXPECT_EQ(geo64.unsupported.find("H * F"), std::string::npos) << geo64.unsupported;
}

// csrgat::Call refuses what aggregate() refuses, leaves the Call empty then, and an empty Call
// refuses to launch; a Call of an empty graph launches nothing (no GPU needed for any of it).
TEST(ProductionBuild, CallChecksItsArgumentsAtCreate) {
  alignas(16) int64_t dummy = 0;  // aligned as any index type (the API checks it)
  float f = 0;
  const csrgat::GraphView g{&dummy, &dummy, 1, 1, csrgat::Index::i32};
  csrgat::Call call;
  EXPECT_EQ(call.launch(nullptr), csrgat::Status::invalid_argument);
  EXPECT_STREQ(call.variant_id(), "");
  EXPECT_EQ(csrgat::Call::create(g, &f, &f, csrgat::Storage::f32, 1, 64, &f, nullptr, {}, nullptr),
            csrgat::Status::invalid_argument);
  EXPECT_EQ(csrgat::Call::create(g, &f, &f, csrgat::Storage::f32, 0, 64, &f, nullptr, {}, &call),
            csrgat::Status::invalid_argument);
  EXPECT_EQ(csrgat::Call::create(g, &f, nullptr, csrgat::Storage::f32, 1, 64, &f, nullptr, {}, &call),
            csrgat::Status::invalid_argument);
  EXPECT_EQ(csrgat::Call::create(g, &f, &f, csrgat::Storage::f32, 65536, 32768, &f, nullptr, {}, &call),
            csrgat::Status::unsupported);
  EXPECT_EQ(call.launch(nullptr), csrgat::Status::invalid_argument);
  const csrgat::GraphView empty{nullptr, nullptr, 0, 0, csrgat::Index::i32};
  ASSERT_EQ(csrgat::Call::create(empty, nullptr, &f, csrgat::Storage::f32, 1, 64, &f, nullptr, {}, &call),
            csrgat::Status::ok);
  EXPECT_EQ(call.launch(nullptr), csrgat::Status::ok);
  EXPECT_STREQ(call.variant_id(), "");
  // A failed create empties a Call that held one.
  EXPECT_EQ(csrgat::Call::create(g, &f, &f, csrgat::Storage::f32, 1, 0, &f, nullptr, {}, &call),
            csrgat::Status::invalid_argument);
  EXPECT_EQ(call.launch(nullptr), csrgat::Status::invalid_argument);
  csrgat::Call moved = std::move(call);
  EXPECT_EQ(moved.launch(nullptr), csrgat::Status::invalid_argument);
}

// Arguments the API refuses before touching a GPU (a probing review of the C++ API): enum values
// it does not define (an integer cast to Storage or Index, which used to run as f16 or int32,
// skipping the 32-bit stride check), an empty graph that claims edges, a host row_ptr that does
// not start at 0, a graph form without its device arrays, and sizes over the 32-bit task limit
// (refused before row_ptr's N + 1 entries are read); dispatch_variant names no kernel for them.
TEST(ProductionBuild, RefusesWhatItDoesNotDefineBeforeTheGpu) {
  alignas(16) int64_t dummy = 0;  // aligned as any index type (the API checks it)
  float f = 0;
  const auto bad_storage = static_cast<csrgat::Storage>(7);
  const auto bad_index = static_cast<csrgat::Index>(7);
  const csrgat::GraphView g{&dummy, &dummy, 1, 1, csrgat::Index::i32};
  const csrgat::GraphView g_bad{&dummy, &dummy, 1, 1, bad_index};
  using csrgat::Status;
  EXPECT_EQ(csrgat::aggregate(g, &f, &f, bad_storage, 1, 64, &f, nullptr),
            Status::invalid_argument);
  EXPECT_EQ(csrgat::aggregate(g_bad, &f, &f, csrgat::Storage::f32, 65536, 65536, &f, nullptr),
            Status::invalid_argument);
  csrgat::Call call;
  EXPECT_EQ(csrgat::Call::create(g, &f, &f, bad_storage, 1, 64, &f, nullptr, {}, &call),
            Status::invalid_argument);
  EXPECT_STREQ(csrgat::dispatch_variant(g, bad_storage, 1, 64), "");
  EXPECT_STREQ(csrgat::dispatch_variant(g_bad, csrgat::Storage::f32, 1, 64), "");
  EXPECT_STREQ(csrgat::dispatch_variant(g, csrgat::Storage::f32, 0, 64), "");
  EXPECT_STREQ(csrgat::dispatch_variant(g, csrgat::Storage::f32, 65536, 32768), "");
  EXPECT_STRNE(csrgat::dispatch_variant(g, csrgat::Storage::f32, 1, 64), "");
  // An empty graph with edges: its row_ptr cannot end at E.
  const csrgat::GraphView liar{nullptr, nullptr, 0, 5, csrgat::Index::i32};
  EXPECT_EQ(csrgat::aggregate(liar, nullptr, &f, csrgat::Storage::f32, 1, 64, &f, nullptr),
            Status::invalid_argument);
  EXPECT_EQ(
      csrgat::Call::create(liar, nullptr, &f, csrgat::Storage::f32, 1, 64, &f, nullptr, {}, &call),
      Status::invalid_argument);
  csrgat::Shape shape;
  for (const std::vector<int64_t>& rp :
       {std::vector<int64_t>{2, 3, 4, 5}, std::vector<int64_t>{-3, 0, 2, 5},
        std::vector<int64_t>{0, 3, 2, 5}})
    EXPECT_EQ(csrgat::Shape::create(rp.data(), 3, 1, 64, csrgat::Storage::f32, csrgat::Index::i32,
                                    &shape),
              Status::invalid_argument)
        << rp[0] << "," << rp[1];
  const std::vector<int64_t> ok_rp{0, 1};
  EXPECT_EQ(csrgat::Shape::create(ok_rp.data(), 1, 1, 64, bad_storage, csrgat::Index::i32, &shape),
            Status::invalid_argument);
  EXPECT_EQ(csrgat::Shape::create(ok_rp.data(), 1, 1, 64, csrgat::Storage::f32, bad_index, &shape),
            Status::invalid_argument);
  const csrgat::GraphView no_arrays{nullptr, nullptr, 1, 1, csrgat::Index::i32};
  EXPECT_EQ(csrgat::Shape::create(no_arrays, ok_rp.data(), 1, 64, csrgat::Storage::f32, &shape),
            Status::invalid_argument);
  // 2^40 rows: refused by size, never read (ok_rp has 2 entries).
  EXPECT_EQ(csrgat::Shape::create(ok_rp.data(), int64_t{1} << 40, 1, 64, csrgat::Storage::f32,
                                  csrgat::Index::i64, &shape),
            Status::unsupported);
  const csrgat::GraphView huge{&dummy, &dummy, int64_t{1} << 40, 1, csrgat::Index::i64};
  EXPECT_EQ(csrgat::aggregate(huge, &f, &f, csrgat::Storage::f32, 1, 64, &f, nullptr),
            Status::unsupported);
}

// A rule of a sliced variant (`.fs<T>`) holds only problems whose F is a multiple of T (each
// launch computes F / T features) and whose slices keep the vector loads F allows (F = 60 in two
// slices of a vec-4 kernel would take the scalar twin): for any other F the dispatch goes on to
// the next rule. Over the F range of the committed header's large-graph rules, without a Shape
// (no GPU needed).
TEST(ProductionBuild, ASlicedRuleHoldsOnlyFeatureCountsItDivides) {
  alignas(16) int64_t dummy = 0;  // aligned as any index type (the API checks it)
  const csrgat::GraphView g{&dummy, &dummy, 1000000, 16000000, csrgat::Index::i32};
  int sliced = 0;
  for (int feat = 33; feat <= 192; ++feat) {
    const std::string id = csrgat::dispatch_variant(g, csrgat::Storage::f32, 1, feat);
    const auto p = csrgat::VariantParams::parse(id);
    EXPECT_EQ(feat % p.slices, 0) << "F = " << feat << " dispatched to " << id;
    if (p.slices > 1 && feat % p.vec == 0) {
      EXPECT_EQ(feat / p.slices % p.vec, 0) << "F = " << feat << " dispatched to " << id;
    }
    EXPECT_EQ(csrgat::slices_fit(p.slices, p.vec, feat), true) << id;
    sliced += p.slices > 1;
  }
  if (sliced == 0) GTEST_SKIP() << "the tuned header has no sliced rule for this shape";
  EXPECT_LT(sliced, 160);  // the odd F went elsewhere
}
