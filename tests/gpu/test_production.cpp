// The production API (csrgat::aggregate through the tuned header the library was built with)
// against the float64 reference, with and without a precomputed Shape, and its error statuses.
#include <gtest/gtest.h>

#include "graphs/generate.h"
#include "production_check.h"
#include "variants/params.h"

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

// f16 values (the fallback kernels: the committed header has no f16 rule) with float32 and f16
// out (the fallbacks' `.o16` twins), long rows split through a Shape, three heads.
TEST(Production, F16StorageAndOut) {
  const auto g = graphs::make_graph("powerlaw:n=20000,deg=8,alpha=2.1,maxdeg=5000,seed=5");
  run_production(g, 1, 64, Storage::f16, true);
  run_production(g, 3, 40, Storage::f16, false);
  run_production(g, 1, 64, Storage::f16, true, Index::i64);
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

// A Shape is complete when create() returns: its first call may go on a stream that does not
// wait for the legacy default stream (PyTorch's side streams are non-blocking), here on a graph
// whose long rows are split (the chunk table and the zeroed merge counters are the Shape's).
// Every Shape is made on fresh memory, so counters left over from a freed one would show.
TEST(Production, AShapeIsReadyForANonBlockingStream) {
  const auto g = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    ProductionProblem p(g, 1, 64, Storage::f32);
    Shape shape;
    ASSERT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, 1, 64, Storage::f32, Index::i32, &shape),
              Status::ok);
    ASSERT_EQ(aggregate(p.graph(), p.scores(), p.values(), Storage::f32, 1, 64, p.out(), s, &shape),
              Status::ok);
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    p.check(std::string("non-blocking stream, round ") + std::to_string(round) + ", " + shape.variant_id());
  }
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(last_cuda_error(), cudaSuccess);  // nothing failed in this thread
}

// A Shape and a Call belong to the device current at their creation: on another device the
// library refuses them rather than launch on the first device's buffers.
TEST(Production, AShapeAndACallStayOnTheirDevice) {
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (devices < 2) GTEST_SKIP() << "needs two GPUs (this machine has " << devices << ")";
  const auto g = graphs::make_graph("seed:n=384,deg=18,seed=1");
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ProductionProblem p(g, 1, 64, Storage::f32);
  Shape shape;
  ASSERT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, 1, 64, Storage::f32, Index::i32, &shape),
            Status::ok);
  Call call;
  ASSERT_EQ(Call::create(p.graph(), p.scores(), p.values(), Storage::f32, 1, 64, p.out(), &shape,
                         LaunchOptions{}, &call),
            Status::ok);
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  EXPECT_EQ(aggregate(p.graph(), p.scores(), p.values(), Storage::f32, 1, 64, p.out(), nullptr, &shape),
            Status::invalid_argument);
  EXPECT_EQ(call.launch(nullptr), Status::invalid_argument);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(call.launch(nullptr), Status::ok);
  p.check("the Call back on its device");
}

// A Call shares its Shape's plan and workspace (the split rows' chunks, partials and counters,
// the row order): creating the Shape again for another graph, then destroying it, leaves the
// Call running the plan it was made with (it used to keep raw pointers into the freed Impl).
// The Shape made again answers for its new graph only: dispatch_variant names no kernel for the
// old one and says why.
TEST(Production, ACallOutlivesItsShape) {
  const auto a = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  const auto b = graphs::make_graph("powerlaw:n=30000,deg=8,alpha=2.1,maxdeg=20000,seed=7");
  ProductionProblem p(a, 1, 64, Storage::f32);
  Shape shape;
  ASSERT_EQ(Shape::create(a.row_ptr.data(), a.num_nodes, 1, 64, Storage::f32, Index::i32, &shape),
            Status::ok);
  const std::string via = shape.variant_id();
  // The test holds only where the Call reads the Shape's memory: a split or a row order.
  const VariantParams vp = VariantParams::parse(via);
  ASSERT_TRUE(vp.lpt || vp.split > 0)
      << via << " uses no Shape buffer: choose a graph that the header's rules split or reorder";
  Call call;
  ASSERT_EQ(Call::create(p.graph(), p.scores(), p.values(), Storage::f32, 1, 64, p.out(), &shape,
                         LaunchOptions{}, &call),
            Status::ok);
  ASSERT_EQ(Shape::create(b.row_ptr.data(), b.num_nodes, 1, 64, Storage::f32, Index::i32, &shape),
            Status::ok);
  EXPECT_STREQ(dispatch_variant(p.graph(), Storage::f32, 1, 64, &shape), "");
  EXPECT_NE(std::string(last_error_message()).find("shape was made for N = 30000"),
            std::string::npos)
      << last_error_message();
  shape = Shape();
  // Device memory handed out again where the old plan was would show as wrong sums.
  void* reuse = nullptr;
  ASSERT_EQ(cudaMalloc(&reuse, size_t{64} << 20), cudaSuccess);
  ASSERT_EQ(cudaMemset(reuse, 0x7f, size_t{64} << 20), cudaSuccess);
  for (int launch = 1; launch <= 2; ++launch) {
    p.poison();
    EXPECT_EQ(call.launch(nullptr), Status::ok) << last_error_message();
    p.check(via + " (the Call after its Shape was made again and destroyed, launch " +
            std::to_string(launch) + ")");
  }
  EXPECT_EQ(cudaFree(reuse), cudaSuccess);
}
