// libcsrgat_c.so on the GPU, loaded with dlopen into this process, which has a CUDA runtime of
// its own (statically linked, as PyTorch has its libcudart): the buffers and the stream come
// from this process's runtime, the launch from the library's. Each output (csrgat_aggregate's
// and a prepared call's) is checked against the float64 reference.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "graphs/generate.h"
#include "production_check.h"
#include "tests/c_api_lib.h"

using namespace csrgat;
using csrgat::test::CApiLib;

namespace {

// One problem through the C interface (int32 indices, f32 values) on `stream`, with a shape or
// without: csrgat_aggregate, then a prepared call (csrgat_call_*) launched twice, each output
// checked against the reference. Returns csrgat_aggregate's relative error.
double run_c_api(const CApiLib& lib, const graphs::Csr64& g, int heads, int feat, bool use_shape,
                 cudaStream_t stream) {
  const ProductionProblem p(g, heads, feat, Storage::f32);
  const GraphView gv = p.graph();
  csrgat_shape* shape = nullptr;
  if (use_shape) {
    EXPECT_EQ(lib.shape_create(g.row_ptr.data(), g.num_nodes, heads, feat, CSRGAT_STORAGE_F32,
                               CSRGAT_INDEX_I32, &shape),
              CSRGAT_OK);
  }
  const std::string via = shape ? lib.shape_variant(shape) : "no shape";
  const int st = lib.aggregate(gv.row_ptr, gv.col, gv.num_nodes, gv.num_edges, CSRGAT_INDEX_I32, p.scores(),
                               p.values(), CSRGAT_STORAGE_F32, heads, feat, p.out(), stream, shape, 0);
  EXPECT_EQ(st, CSRGAT_OK) << lib.status_string(st);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  const double err = p.check(via);

  csrgat_call* call = nullptr;
  const int cs = lib.call_create(gv.row_ptr, gv.col, gv.num_nodes, gv.num_edges, CSRGAT_INDEX_I32, p.scores(),
                                 p.values(), CSRGAT_STORAGE_F32, heads, feat, p.out(), shape, 0, &call);
  EXPECT_EQ(cs, CSRGAT_OK) << lib.status_string(cs);
  if (shape) {
    EXPECT_STREQ(lib.call_variant(call), lib.shape_variant(shape));
  }
  for (int launch = 1; launch <= 2; ++launch) {
    p.poison();
    const int ls = lib.call_launch(call, stream);
    EXPECT_EQ(ls, CSRGAT_OK) << lib.status_string(ls);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    p.check(via + " (csrgat_call_launch " + std::to_string(launch) + ")");
  }
  lib.call_destroy(call);
  lib.shape_destroy(shape);
  return err;
}

}  // namespace

// bf16 values with bf16 out through the C interface (csrgat_aggregate_out, csrgat_call_create_out):
// the rule's `.o16` twin, checked against the reference.
TEST(CApi, SixteenBitOutThroughTheSharedLibrary) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.path << ": " << lib.error;
  const auto g = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  const ProductionProblem p(g, 1, 64, Storage::bf16);
  const GraphView gv = p.graph();
  csrgat_shape* shape = nullptr;
  ASSERT_EQ(lib.shape_create(g.row_ptr.data(), g.num_nodes, 1, 64, CSRGAT_STORAGE_BF16,
                             CSRGAT_INDEX_I32, &shape),
            CSRGAT_OK);
  const std::string via = std::string(lib.shape_variant(shape)) + ".o16";
  const int st = lib.aggregate_out(gv.row_ptr, gv.col, gv.num_nodes, gv.num_edges, CSRGAT_INDEX_I32,
                                   p.scores(), p.values(), CSRGAT_STORAGE_BF16, 1, 64, p.out(),
                                   CSRGAT_STORAGE_BF16, nullptr, shape, 0);
  EXPECT_EQ(st, CSRGAT_OK) << lib.status_string(st);
  p.check(via, Storage::bf16);
  csrgat_call* call = nullptr;
  const int cs = lib.call_create_out(gv.row_ptr, gv.col, gv.num_nodes, gv.num_edges,
                                     CSRGAT_INDEX_I32, p.scores(), p.values(), CSRGAT_STORAGE_BF16,
                                     1, 64, p.out(), CSRGAT_STORAGE_BF16, shape, 0, &call);
  ASSERT_EQ(cs, CSRGAT_OK) << lib.status_string(cs);
  EXPECT_EQ(std::string(lib.call_variant(call)), via);
  p.poison();
  EXPECT_EQ(lib.call_launch(call, nullptr), CSRGAT_OK);
  p.check(via + " (csrgat_call_launch)", Storage::bf16);
  lib.call_destroy(call);
  lib.shape_destroy(shape);
}

TEST(CApi, AggregatesThroughTheSharedLibrary) {
  CApiLib lib;
  ASSERT_TRUE(lib.loaded()) << lib.path << ": " << lib.error;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  const auto seed = graphs::make_graph("seed:n=384,deg=18,seed=1");
  run_c_api(lib, seed, 1, 64, true, nullptr);
  run_c_api(lib, seed, 1, 64, false, stream);
  // Split rows (the shape's plan and partials) and two heads, on this process's stream.
  const auto skewed = graphs::make_graph("powerlaw:n=50000,deg=16,alpha=2.1,maxdeg=40000,seed=3");
  run_c_api(lib, skewed, 1, 64, true, stream);
  run_c_api(lib, skewed, 2, 32, true, stream);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}
