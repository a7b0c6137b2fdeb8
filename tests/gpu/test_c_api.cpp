// libcsrgat_c.so on the GPU, loaded with dlopen into this process, which has a CUDA runtime of
// its own (statically linked, as PyTorch has its libcudart): the buffers and the stream come
// from this process's runtime, the launch from the library's. Each output is checked against
// the float64 reference.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <random>
#include <string>
#include <vector>

#include "graphs/generate.h"
#include "production_check.h"
#include "tests/c_api_lib.h"
#include "variants/reference.h"

using namespace csrgat;
using csrgat::test::CApiLib;

namespace {

// One call through the C interface on g (int32 indices, f32 values), on `stream`, with a shape
// or without; returns the relative error against the reference and checks it with gtest.
double run_c_api(const CApiLib& lib, const graphs::Csr64& g, int heads, int feat, bool use_shape,
                 cudaStream_t stream) {
  const auto in = graphs::make_inputs(g, heads, feat, std::random_device{}());
  const auto ref = reference_aggregate(g, in);
  auto* rp = to_device(std::vector<int32_t>(g.row_ptr.begin(), g.row_ptr.end()));
  auto* col = to_device(std::vector<int32_t>(g.col.begin(), g.col.end()));
  float* scores = to_device(in.scores);
  float* values = to_device(in.values);
  const size_t n_out = static_cast<size_t>(g.num_nodes) * heads * feat;
  float* out = nullptr;
  EXPECT_EQ(cudaMalloc(&out, n_out * 4), cudaSuccess);
  EXPECT_EQ(cudaMemset(out, 0xFF, n_out * 4), cudaSuccess);  // NaN poison
  csrgat_shape* shape = nullptr;
  if (use_shape) {
    EXPECT_EQ(lib.shape_create(g.row_ptr.data(), g.num_nodes, heads, feat, CSRGAT_STORAGE_F32,
                               CSRGAT_INDEX_I32, &shape),
              CSRGAT_OK);
  }
  const int st = lib.aggregate(rp, col, g.num_nodes, g.num_edges(), CSRGAT_INDEX_I32, scores, values,
                               CSRGAT_STORAGE_F32, heads, feat, out, stream, shape, 0);
  EXPECT_EQ(st, CSRGAT_OK) << lib.status_string(st);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<float> h(n_out);
  EXPECT_EQ(cudaMemcpy(h.data(), out, n_out * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  const auto c = compare_to_reference(h.data(), ref, 1e-5);
  EXPECT_TRUE(c.pass) << g.name << " F=" << feat << " H=" << heads << " via "
                      << (shape ? lib.shape_variant(shape) : "no shape") << ": " << c.summary;
  lib.shape_destroy(shape);
  for (void* p : {static_cast<void*>(rp), static_cast<void*>(col), static_cast<void*>(scores),
                  static_cast<void*>(values), static_cast<void*>(out)})
    cudaFree(p);
  return c.rel_error;
}

}  // namespace

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
