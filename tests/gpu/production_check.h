// The production API's end-to-end check, shared by the production, dispatch, overlap and C
// interface tests: csrgat::aggregate (and a csrgat::Call of the same problem) on a graph through
// the library's tuned header, against the float64 reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "csrgat/aggregate.h"
#include "graphs/csr.h"
#include "variants/reference.h"

namespace csrgat {

// A device copy of h (cudaFree it); failures are gtest expectations.
template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, std::max<size_t>(h.size(), 1) * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

// One problem on the device: g's structure (as `index`), fresh random scores and values (stored
// as `storage`, f32, bf16 or f16; values_offset > 0 puts them that many elements into their
// allocation, a base that a kernel's vector loads cannot take, so its scalar twin runs) and an
// output poisoned with NaN. check() compares the output with reference_aggregate's.
class ProductionProblem {
 public:
  ProductionProblem(const graphs::Csr64& g, int heads, int feat, Storage storage,
                    Index index = Index::i32, int values_offset = 0);
  ~ProductionProblem();
  ProductionProblem(const ProductionProblem&) = delete;
  ProductionProblem& operator=(const ProductionProblem&) = delete;

  GraphView graph() const { return {row_ptr_, col_, g_.num_nodes, g_.num_edges(), index_}; }
  const float* scores() const { return scores_; }
  const void* values() const { return first_value_; }  // values_offset elements in
  float* out() const { return out_; }
  // The same buffer as an Output of `storage` (16-bit: its first half), `offset` elements in.
  Output output(Storage storage, int offset = 0) const {
    return Output{
        static_cast<char*>(static_cast<void*>(out_)) + offset * (storage == Storage::f32 ? 4 : 2),
        storage};
  }
  // NaN in every output element again (before a second call on the same problem).
  void poison() const;
  // Waits for the device, then expects the output (stored as out_storage) within the tolerance
  // of the reference (relative 1e-5 for f32 values and out, 1e-2 otherwise), naming the graph and
  // `via` (the variant, the path). Returns the relative error.
  double check(const std::string& via, Storage out_storage = Storage::f32,
               int out_offset = 0) const;

 private:
  const graphs::Csr64& g_;
  int heads_, feat_;
  Storage storage_;
  Index index_;
  int values_offset_;
  std::vector<double> ref_;
  void *row_ptr_ = nullptr, *col_ = nullptr, *values_ = nullptr;
  const void* first_value_ = nullptr;
  float *scores_ = nullptr, *out_ = nullptr;
};

// aggregate() on g with a Shape built from g (use_shape) or without one, then the same problem
// through a csrgat::Call launched twice (the output poisoned between), then, for 16-bit values,
// aggregate() and a Call into out of the values' type (Output: the `.o16` twin), each checked
// with ProductionProblem::check (and the other 16-bit outs refused). Returns aggregate()'s
// relative error (float32 out).
double run_production(const graphs::Csr64& g, int heads, int feat, Storage storage, bool use_shape,
                      Index index = Index::i32, int values_offset = 0);

}  // namespace csrgat
