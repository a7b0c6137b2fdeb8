// The production library's failures name what failed and where (csrgat::last_error_message(),
// csrgat_last_error_message()), and its argument checks that need no GPU: each pointer's
// alignment, an int32 graph's edge count, an empty Shape, every invalid_argument before any
// unsupported (a review of the public API, forty-second session). No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "csrgat/aggregate.h"
#include "csrgat/error_state.h"
#include "tests/c_api_lib.h"

namespace {

using csrgat::GraphView;
using csrgat::Index;
using csrgat::Status;
using csrgat::Storage;

// The call's status, and the message it left.
struct Outcome {
  Status status;
  std::string message;
};
template <class Fn>
Outcome run(Fn&& fn) {
  const Status st = fn();
  return {st, csrgat::last_error_message()};
}

// Device-memory stand-ins, aligned as a cudaMalloc'd buffer is (never dereferenced: every call
// here is refused before the GPU).
alignas(256) unsigned char g_buf[4096];
const void* at_byte(int offset) { return g_buf + offset; }

GraphView graph(int64_t n, int64_t e, Index index = Index::i32, int rp_off = 0, int col_off = 0) {
  return GraphView{at_byte(256 + rp_off), at_byte(512 + col_off), n, e, index};
}

Outcome aggregate_with(const GraphView& g, int scores_off, int values_off, int out_off,
                       Storage values = Storage::f32, Storage out = Storage::f32, int heads = 1,
                       int feat = 64) {
  return run([&] {
    return csrgat::aggregate(g, static_cast<const float*>(at_byte(1024 + scores_off)),
                             at_byte(2048 + values_off), values, heads, feat,
                             csrgat::Output{const_cast<void*>(at_byte(3072 + out_off)), out},
                             nullptr);
  });
}

void expect_refused(const Outcome& o, Status want, const std::string& names) {
  EXPECT_EQ(o.status, want) << o.message;
  EXPECT_NE(o.message.find(names), std::string::npos) << "message: " << o.message;
}

}  // namespace

// Each device pointer must be aligned to its element type: a scalar twin's loads of a values
// row one byte off would raise a sticky misaligned-address error that the CUDA context does not
// survive (the kernels' vector loads only need the scalar twin for rows off 16 bytes).
TEST(LibraryErrors, RefusesPointersNotAlignedToTheirElementType) {
  const GraphView g = graph(2, 3);
  expect_refused(aggregate_with(g, 0, 1, 0), Status::invalid_argument,
                 "aggregate: values (");
  expect_refused(aggregate_with(g, 0, 1, 0), Status::invalid_argument,
                 "is not aligned to its element type (f32, 4 bytes)");
  expect_refused(aggregate_with(g, 2, 0, 0), Status::invalid_argument, "scores (");
  expect_refused(aggregate_with(g, 0, 0, 2), Status::invalid_argument, "out (");
  expect_refused(aggregate_with(graph(2, 3, Index::i32, 1), 0, 0, 0), Status::invalid_argument,
                 "graph.row_ptr (");
  expect_refused(aggregate_with(graph(2, 3, Index::i64, 0, 4), 0, 0, 0), Status::invalid_argument,
                 "graph.col (");
  expect_refused(aggregate_with(graph(2, 3, Index::i64, 4), 0, 0, 0), Status::invalid_argument,
                 "(i64, 8 bytes)");
  // 16-bit values and out need 2 bytes, not 4: these pass the argument checks and meet the
  // kernels' limits (H x F over 2^31, checked after every argument: nothing reaches a device,
  // which these host addresses must not).
  const int big = 1 << 16;
  EXPECT_EQ(aggregate_with(g, 0, 2, 2, Storage::bf16, Storage::bf16, big, big).status,
            Status::unsupported);
  expect_refused(aggregate_with(g, 0, 1, 0, Storage::bf16), Status::invalid_argument,
                 "(bf16, 2 bytes)");
  // A values row off 16 bytes but on its element type is the scalar twin's: not refused.
  EXPECT_EQ(aggregate_with(g, 0, 4, 0, Storage::f32, Storage::f32, big, big).status,
            Status::unsupported);
  // The prepared call and dispatch_variant check alike.
  csrgat::Call call;
  EXPECT_EQ(csrgat::Call::create(g, static_cast<const float*>(at_byte(1024)), at_byte(2049),
                                 Storage::f32, 1, 64, nullptr, nullptr, {}, &call),
            Status::invalid_argument);
  EXPECT_NE(std::string(csrgat::last_error_message()).find("Call::create: "), std::string::npos)
      << csrgat::last_error_message();
  EXPECT_STREQ(csrgat::dispatch_variant(graph(2, 3, Index::i32, 2), Storage::f32, 1, 64), "");
  EXPECT_NE(std::string(csrgat::last_error_message()).find("dispatch_variant: graph.row_ptr"),
            std::string::npos)
      << csrgat::last_error_message();
}

// An int32 row_ptr holds at most 2^31 - 1: a graph that claims more edges with Index::i32 is
// refused (it used to reach the GPU, and the dispatch named a kernel for it).
TEST(LibraryErrors, RefusesAnInt32GraphOf2To31EdgesOrMore) {
  const int64_t e = 3'000'000'000;
  expect_refused(aggregate_with(graph(2, e), 0, 0, 0), Status::invalid_argument,
                 "num_edges = 3000000000 with Index::i32");
  EXPECT_STREQ(csrgat::dispatch_variant(graph(2, e), Storage::f32, 1, 64), "");
  EXPECT_STRNE(csrgat::dispatch_variant(graph(2, e, Index::i64), Storage::f32, 1, 64), "");
  EXPECT_STRNE(csrgat::dispatch_variant(graph(2, 2147483647), Storage::f32, 1, 64), "");
  const std::vector<int64_t> rp{0, e};
  csrgat::Shape shape;
  expect_refused(run([&] {
                   return csrgat::Shape::create(rp.data(), 1, 1, 64, Storage::f32, Index::i32,
                                                &shape);
                 }),
                 Status::invalid_argument, "Shape::create: host_row_ptr[num_nodes] = 3000000000");
}

// Every invalid_argument comes before any unsupported: a null row_ptr is named even when the
// sizes are also over the kernels' limits.
TEST(LibraryErrors, NamesABadArgumentBeforeALimit) {
  const GraphView g{nullptr, at_byte(512), 2, 3, Index::i32};
  expect_refused(aggregate_with(g, 0, 0, 0, Storage::f32, Storage::f32, 1 << 16, 1 << 16),
                 Status::invalid_argument, "graph.row_ptr is null");
  // The limits themselves say which.
  expect_refused(aggregate_with(graph(2, 3), 0, 0, 0, Storage::f32, Storage::f32, 1 << 16, 1 << 16),
                 Status::unsupported, "heads x feat = 4294967296 reaches 2^31");
  expect_refused(aggregate_with(graph(2, 3), 0, 0, 0, Storage::f32, Storage::bf16),
                 Status::unsupported, "out.storage bf16 with f32 values");
  expect_refused(aggregate_with(graph(2, 3), 0, 0, 0, static_cast<Storage>(7)),
                 Status::invalid_argument, "storage = 7 is not a csrgat::Storage");
  expect_refused(aggregate_with(graph(2, 3), 0, 0, 0, Storage::f32, Storage::f32, 0),
                 Status::invalid_argument, "heads = 0");
  expect_refused(aggregate_with(GraphView{nullptr, nullptr, 0, 5, Index::i32}, 0, 0, 0),
                 Status::invalid_argument, "num_nodes = 0 with num_edges = 5");
  // Shape::create too: a decreasing row_ptr is named before H x F's limit (only the task count
  // comes first: it guards reading row_ptr's N + 1 entries).
  const std::vector<int64_t> rp{0, 3, 2};
  csrgat::Shape shape;
  expect_refused(run([&] {
                   return csrgat::Shape::create(rp.data(), 2, 1 << 16, 1 << 15, Storage::f32,
                                                Index::i32, &shape);
                 }),
                 Status::invalid_argument, "host_row_ptr[2] = 2 is below");
  // A row_ptr whose difference overflows int64 decreases all the same (it wrapped to a large
  // degree and passed).
  const std::vector<int64_t> wraps{0, 5, std::numeric_limits<int64_t>::min()};
  expect_refused(run([&] {
                   return csrgat::Shape::create(wraps.data(), 2, 1, 64, Storage::f32, Index::i64,
                                                &shape);
                 }),
                 Status::invalid_argument, "host_row_ptr[2] = -9223372036854775808 is below");
}

// The kernels count a row's features in int, stepping past F by up to a block's width: F over
// 2^30 is refused (F = 2^31 - 1 with one head passed every check), with int64 indices too.
TEST(LibraryErrors, RefusesFOver2To30) {
  constexpr int kBig = std::numeric_limits<int>::max();
  for (const Index ix : {Index::i32, Index::i64}) {
    expect_refused(aggregate_with(graph(2, 3, ix), 0, 0, 0, Storage::f32, Storage::f32, 1, kBig),
                   Status::unsupported, "feat = 2147483647 exceeds 2^30");
    EXPECT_STREQ(csrgat::dispatch_variant(graph(2, 3, ix), Storage::f32, 1, kBig), "");
    EXPECT_STREQ(csrgat::dispatch_variant(graph(2, 3, ix), Storage::f32, 1, (1 << 30) + 1), "");
    EXPECT_STRNE(csrgat::dispatch_variant(graph(2, 3, ix), Storage::f32, 1, 1 << 30), "");
  }
  const std::vector<int64_t> rp{0, 2, 3};
  csrgat::Shape shape;
  expect_refused(run([&] {
                   return csrgat::Shape::create(rp.data(), 2, 1, kBig, Storage::f32, Index::i64,
                                                &shape);
                 }),
                 Status::unsupported, "Shape::create: feat = 2147483647 exceeds 2^30");
}

// An empty Shape (default-constructed, moved from, or left by a failed create) is refused, not
// taken for "no Shape" (which would drop its split and row order without a word); a failed
// create leaves *out empty, as Call::create does.
TEST(LibraryErrors, RefusesAnEmptyShape) {
  const GraphView g = graph(2, 3);
  csrgat::Shape empty;
  expect_refused(run([&] {
                   return csrgat::aggregate(g, static_cast<const float*>(at_byte(1024)),
                                            at_byte(2048), Storage::f32, 1, 64,
                                            static_cast<float*>(const_cast<void*>(at_byte(3072))),
                                            nullptr, &empty);
                 }),
                 Status::invalid_argument, "aggregate: shape is empty");
  csrgat::Call call;
  expect_refused(run([&] {
                   return csrgat::Call::create(
                       g, static_cast<const float*>(at_byte(1024)), at_byte(2048), Storage::f32, 1,
                       64, static_cast<float*>(const_cast<void*>(at_byte(3072))), &empty, {}, &call);
                 }),
                 Status::invalid_argument, "Call::create: shape is empty");
  EXPECT_STREQ(csrgat::dispatch_variant(g, Storage::f32, 1, 64, &empty), "");
  EXPECT_STRNE(csrgat::dispatch_variant(g, Storage::f32, 1, 64, nullptr), "");
  // A failed create names its reason and leaves *out empty.
  const std::vector<int64_t> bad{0, 3, 2};
  expect_refused(run([&] {
                   return csrgat::Shape::create(bad.data(), 2, 1, 64, Storage::f32, Index::i32,
                                                &empty);
                 }),
                 Status::invalid_argument, "host_row_ptr[2] = 2 is below host_row_ptr[1] = 3");
  EXPECT_STREQ(empty.variant_id(), "");
  expect_refused(run([&] {
                   return csrgat::Shape::create(g, nullptr, 1, 64, Storage::f32, &empty);
                 }),
                 Status::invalid_argument, "Shape::create: host_row_ptr is null");
}

// The message and the CUDA error are the latest failure's: a refused argument after a CUDA
// failure leaves no stale CUDA error behind (without a GPU the first device call fails; on a
// machine with one the second half alone runs).
TEST(LibraryErrors, TheLatestFailureIsTheOneReported) {
  const std::vector<int64_t> rp{0, 2, 3};
  csrgat::Shape shape;
  const Status st = csrgat::Shape::create(rp.data(), 2, 1, 64, Storage::f32, Index::i32, &shape);
  if (st == Status::cuda_error) {
    EXPECT_NE(csrgat::last_cuda_error(), cudaSuccess);
    EXPECT_NE(std::string(csrgat::last_error_message()).find("Shape::create: asking the current device: cuda"),
              std::string::npos)
        << csrgat::last_error_message();
  }
  expect_refused(aggregate_with(graph(2, 3), 0, 1, 0), Status::invalid_argument, "values (");
  EXPECT_EQ(csrgat::last_cuda_error(), cudaSuccess);
  // A success leaves the message as it was.
  csrgat::Call call;
  ASSERT_EQ(csrgat::Call::create(GraphView{nullptr, nullptr, 0, 0, Index::i32}, nullptr,
                                 at_byte(2048), Storage::f32, 1, 64, nullptr, nullptr, {}, &call),
            Status::ok);
  EXPECT_NE(std::string(csrgat::last_error_message()).find("values ("), std::string::npos);
}

// The C interface reports through the same state, its own checks (enumerations as ints, null
// handles) included.
// The C interface's functions name themselves on the C++ entries' failures through a
// detail::EntryName: while it lives the entry's text carries its name, after it the entry's own.
TEST(LibraryErrors, AnEntryNameNamesTheCallerWhileItLives) {
  csrgat::Shape s;
  const auto refused = [&s] {
    EXPECT_EQ(csrgat::Shape::create(nullptr, 2, 1, 64, Storage::f32, csrgat::Index::i32, &s),
              Status::invalid_argument);
    return std::string(csrgat::last_error_message());
  };
  {
    const csrgat::detail::EntryName outer("csrgat_outer");
    {
      const csrgat::detail::EntryName inner("csrgat_shape_create");
      EXPECT_EQ(refused().rfind("csrgat_shape_create: ", 0), 0u) << refused();
    }
    EXPECT_EQ(refused().rfind("csrgat_outer: ", 0), 0u) << refused();
  }
  EXPECT_EQ(refused().rfind("Shape::create: ", 0), 0u) << refused();
}

TEST(LibraryErrors, TheCInterfaceNamesWhatFailed) {
  csrgat::test::CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.error;
  const auto message = lib.last_error_message;
  float f[4] = {};
  int32_t rp[3] = {0, 2, 3}, col[3] = {0, 1, 0};
  EXPECT_EQ(lib.aggregate(rp, col, 2, 3, CSRGAT_INDEX_I32, f, f, 9, 1, 64, f, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_aggregate: storage = 9 is not a CSRGAT_STORAGE_* value");
  EXPECT_EQ(lib.aggregate(rp, col, 2, 3, CSRGAT_INDEX_I32, f,
                          reinterpret_cast<const char*>(f) + 1, CSRGAT_STORAGE_F32, 1, 64, f,
                          nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  // The C++ layer's failures name the C function called, not the C++ one under it.
  EXPECT_EQ(std::string(message()).rfind("csrgat_aggregate: values (", 0), 0u) << message();
  EXPECT_EQ(lib.aggregate_out(rp, col, 2, 3, CSRGAT_INDEX_I32, f, f, CSRGAT_STORAGE_F32, 0, 64, f,
                              CSRGAT_STORAGE_F32, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_aggregate_out: heads = 0: at least 1");
  EXPECT_EQ(lib.aggregate_out(rp, col, 2, 3, CSRGAT_INDEX_I32, f, f, CSRGAT_STORAGE_F32, 1, 64, f,
                              9, nullptr, nullptr, 0),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_aggregate_out: out_storage = 9 is not a CSRGAT_STORAGE_* value");
  csrgat_call* c = nullptr;
  EXPECT_EQ(lib.call_create(nullptr, col, 2, 3, CSRGAT_INDEX_I32, f, f, CSRGAT_STORAGE_F32, 1, 64,
                            f, nullptr, 0, &c),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_call_create: graph.row_ptr is null");
  EXPECT_EQ(lib.call_create_out(nullptr, col, 2, 3, CSRGAT_INDEX_I32, f, f, CSRGAT_STORAGE_F32, 1,
                                64, f, CSRGAT_STORAGE_F32, nullptr, 0, &c),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_call_create_out: graph.row_ptr is null");
  EXPECT_EQ(lib.call_launch(nullptr, nullptr), CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_call_launch: call is null");
  const int64_t host_rp[3] = {0, 2, 3};
  csrgat_shape* s = nullptr;
  EXPECT_EQ(lib.shape_create(host_rp, 2, 1, 64, CSRGAT_STORAGE_F32, 5, &s), CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_shape_create: index = 5 is not a CSRGAT_INDEX_* value");
  EXPECT_EQ(lib.shape_create(host_rp, 2, 0, 64, CSRGAT_STORAGE_F32, CSRGAT_INDEX_I32, &s),
            CSRGAT_INVALID_ARGUMENT);
  EXPECT_STREQ(message(), "csrgat_shape_create: heads = 0: at least 1");
}
