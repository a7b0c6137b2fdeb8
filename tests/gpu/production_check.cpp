// See production_check.h.
#include "production_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "csrgat/type_codes.h"
#include "graphs/generate.h"
#include "tuner/device_compare.h"

namespace csrgat {

ProductionProblem::ProductionProblem(const graphs::Csr64& g, int heads, int feat, Storage storage,
                                     Index index, int values_offset)
    : g_(g), heads_(heads), feat_(feat), storage_(storage), index_(index), values_offset_(values_offset) {
  const auto in = graphs::make_inputs(g, heads, feat, std::random_device{}());
  ref_ = reference_aggregate(g, in);
  if (index == Index::i32) {
    row_ptr_ = to_device(std::vector<int32_t>(g.row_ptr.begin(), g.row_ptr.end()));
    col_ = to_device(std::vector<int32_t>(g.col.begin(), g.col.end()));
  } else {
    row_ptr_ = to_device(g.row_ptr);
    col_ = to_device(g.col);
  }
  scores_ = to_device(in.scores);
  if (storage == Storage::bf16) {
    std::vector<__nv_bfloat16> v(values_offset + in.values.size());
    for (size_t i = 0; i < in.values.size(); ++i) v[values_offset + i] = __float2bfloat16_rn(in.values[i]);
    values_ = to_device(v);
    first_value_ = static_cast<const __nv_bfloat16*>(values_) + values_offset;
  } else if (storage == Storage::f16) {
    std::vector<__half> v(values_offset + in.values.size());
    for (size_t i = 0; i < in.values.size(); ++i)
      v[values_offset + i] = __float2half_rn(in.values[i]);
    values_ = to_device(v);
    first_value_ = static_cast<const __half*>(values_) + values_offset;
  } else {
    std::vector<float> v(values_offset, 0.f);
    v.insert(v.end(), in.values.begin(), in.values.end());
    values_ = to_device(v);
    first_value_ = static_cast<const float*>(values_) + values_offset;
  }
  // Room for a float32 out, or a 16-bit one an element in (output's offset).
  EXPECT_EQ(cudaMalloc(&out_, (ref_.size() + 1) * 4), cudaSuccess);
  poison();
}

ProductionProblem::~ProductionProblem() {
  for (void* p : {row_ptr_, col_, static_cast<void*>(scores_), values_, static_cast<void*>(out_)}) cudaFree(p);
}

void ProductionProblem::poison() const {
  EXPECT_EQ(cudaMemset(out_, 0xFF, (ref_.size() + 1) * 4), cudaSuccess);  // NaN
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

double ProductionProblem::check(const std::string& via, Storage out_storage, int out_offset) const {
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> h(ref_.size());
  if (out_storage == Storage::f32) {
    EXPECT_EQ(cudaMemcpy(h.data(), out_ + out_offset, h.size() * 4, cudaMemcpyDeviceToHost),
              cudaSuccess);
  } else {
    std::vector<uint16_t> b(ref_.size());
    EXPECT_EQ(cudaMemcpy(b.data(), reinterpret_cast<const uint16_t*>(out_) + out_offset,
                         b.size() * 2, cudaMemcpyDeviceToHost),
              cudaSuccess);
    h = tuner::widen_output(b.data(), b.size(), static_cast<int>(value_type_of(out_storage)));
  }
  const bool exact = storage_ == Storage::f32 && out_storage == Storage::f32;
  const auto c = compare_to_reference(h.data(), ref_, exact ? 1e-5 : 1e-2);
  EXPECT_TRUE(c.pass) << g_.name << " F=" << feat_ << " H=" << heads_ << " values offset "
                      << values_offset_ << " out " << to_string(value_type_of(out_storage))
                      << " via " << via << ": " << c.summary;
  return c.rel_error;
}

double run_production(const graphs::Csr64& g, int heads, int feat, Storage storage, bool use_shape,
                      Index index, int values_offset) {
  const ProductionProblem p(g, heads, feat, storage, index, values_offset);
  Shape shape;
  if (use_shape) {
    EXPECT_EQ(Shape::create(g.row_ptr.data(), g.num_nodes, heads, feat, storage, index, &shape), Status::ok);
  }
  const Shape* sp = use_shape ? &shape : nullptr;
  const std::string via = dispatch_variant(p.graph(), storage, heads, feat, sp);
  EXPECT_EQ(aggregate(p.graph(), p.scores(), p.values(), storage, heads, feat, p.out(), nullptr, sp), Status::ok);
  const double err = p.check(via);

  // The same problem prepared once: the same kernel, and a second launch (split rows' counters
  // reset by the first) as right as the first.
  Call call;
  EXPECT_EQ(Call::create(p.graph(), p.scores(), p.values(), storage, heads, feat, p.out(), sp, LaunchOptions{},
                         &call),
            Status::ok);
  EXPECT_EQ(call.variant_id(), via);
  for (int launch = 1; launch <= 2; ++launch) {
    p.poison();
    EXPECT_EQ(call.launch(nullptr), Status::ok);
    p.check(via + " (csrgat::Call, launch " + std::to_string(launch) + ")");
  }
  // 16-bit out in the values' type: the rule's `.o16` twin, through aggregate() and a Call; any
  // other 16-bit out is unsupported.
  for (const Storage os : {Storage::bf16, Storage::f16}) {
    if (os != storage) {
      EXPECT_EQ(aggregate(p.graph(), p.scores(), p.values(), storage, heads, feat, p.output(os),
                          nullptr, sp),
                Status::unsupported);
      continue;
    }
    p.poison();
    EXPECT_EQ(aggregate(p.graph(), p.scores(), p.values(), storage, heads, feat, p.output(os),
                        nullptr, sp),
              Status::ok);
    p.check(via + ".o16", os);
    Call narrow;
    EXPECT_EQ(Call::create(p.graph(), p.scores(), p.values(), storage, heads, feat, p.output(os),
                           sp, LaunchOptions{}, &narrow),
              Status::ok);
    EXPECT_EQ(std::string(narrow.variant_id()), via + ".o16");
    p.poison();
    EXPECT_EQ(narrow.launch(nullptr), Status::ok);
    p.check(via + ".o16 (csrgat::Call)", os);
    // out one element off its allocation: every row off the 8-byte stores (the scalar stores).
    p.poison();
    EXPECT_EQ(aggregate(p.graph(), p.scores(), p.values(), storage, heads, feat, p.output(os, 1),
                        nullptr, sp),
              Status::ok);
    p.check(via + ".o16, out one element in", os, 1);
  }
  return err;
}

}  // namespace csrgat
