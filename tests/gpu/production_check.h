// The production API's end-to-end check, shared by the production, dispatch and overlap tests:
// csrgat::aggregate on a graph through the library's tuned header, against the float64 reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "csrgat/aggregate.h"
#include "graphs/csr.h"

namespace csrgat {

// A device copy of h (cudaFree it); failures are gtest expectations.
template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, std::max<size_t>(h.size(), 1) * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

// Copies g (as `index`), fresh random scores and values (stored as `storage`) to the device,
// runs aggregate() with a Shape built from g (use_shape) or without one, and checks the output
// against reference_aggregate (relative tolerance 1e-5 for f32 storage, 1e-2 otherwise) with
// gtest expectations that name the graph and the variant. Returns the relative error.
// values_offset > 0 puts the values that many elements into their allocation: a base that a
// kernel's vector loads cannot take (its scalar twin runs).
double run_production(const graphs::Csr64& g, int heads, int feat, Storage storage, bool use_shape,
                      Index index = Index::i32, int values_offset = 0);

}  // namespace csrgat
