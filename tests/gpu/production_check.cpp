// See production_check.h.
#include "production_check.h"

#include <cuda_bf16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "graphs/generate.h"
#include "variants/reference.h"

namespace csrgat {

double run_production(const graphs::Csr64& g, int heads, int feat, Storage storage, bool use_shape,
                      Index index, int values_offset) {
  const auto in = graphs::make_inputs(g, heads, feat, std::random_device{}());
  const auto ref = reference_aggregate(g, in);
  void *rp, *col;
  if (index == Index::i32) {
    rp = to_device(std::vector<int32_t>(g.row_ptr.begin(), g.row_ptr.end()));
    col = to_device(std::vector<int32_t>(g.col.begin(), g.col.end()));
  } else {
    rp = to_device(g.row_ptr);
    col = to_device(g.col);
  }
  float* scores = to_device(in.scores);
  void* values;  // the allocation; the kernels read from values_offset elements on
  const void* first;
  if (storage == Storage::bf16) {
    std::vector<__nv_bfloat16> v(values_offset + in.values.size());
    for (size_t i = 0; i < in.values.size(); ++i) v[values_offset + i] = __float2bfloat16_rn(in.values[i]);
    values = to_device(v);
    first = static_cast<const __nv_bfloat16*>(values) + values_offset;
  } else {
    std::vector<float> v(values_offset, 0.f);
    v.insert(v.end(), in.values.begin(), in.values.end());
    values = to_device(v);
    first = static_cast<const float*>(values) + values_offset;
  }
  float* out = nullptr;
  const size_t n_out = static_cast<size_t>(g.num_nodes) * heads * feat;
  EXPECT_EQ(cudaMalloc(&out, n_out * 4), cudaSuccess);
  EXPECT_EQ(cudaMemset(out, 0xFF, n_out * 4), cudaSuccess);  // NaN poison
  GraphView gv{rp, col, g.num_nodes, g.num_edges(), index};
  Shape shape;
  if (use_shape) {
    EXPECT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, heads, feat, storage, index, &shape), Status::ok);
  }
  EXPECT_EQ(aggregate(gv, scores, first, storage, heads, feat, out, nullptr, use_shape ? &shape : nullptr),
            Status::ok);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> h(n_out);
  EXPECT_EQ(cudaMemcpy(h.data(), out, n_out * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  const auto c = compare_to_reference(h.data(), ref, storage == Storage::f32 ? 1e-5 : 1e-2);
  EXPECT_TRUE(c.pass) << g.name << " F=" << feat << " H=" << heads << " values offset " << values_offset
                      << " via "
                      << (use_shape ? shape.variant_id() : dispatch_variant(gv, storage, heads, feat)) << ": " << c.summary;
  for (void* p : {rp, col, static_cast<void*>(scores), values, static_cast<void*>(out)}) cudaFree(p);
  return c.rel_error;
}


}  // namespace csrgat
