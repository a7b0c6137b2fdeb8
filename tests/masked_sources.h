// Masked edges from non-finite sources, the inputs of the library's contract on them
// (include/csrgat/aggregate.h), for the GPU tests of both kernel families
// (tests/gpu/test_correctness.cpp, test_colblock.cpp) and the reference's CPU test
// (tests/unit/test_reference.cpp). Here and not in graphs/: the generators' sources are hashed
// into CSRGAT_GENERATOR_SHA256, which decides whether `tuner run --reuse` takes a stored
// generated graph, and a test's helper should not move that.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "graphs/csr.h"

namespace csrgat::test_inputs {

// Every edge from a source s with s % every == 0 gets a -inf score in every head, and each such
// edge k sets element k % (H x F) of its source's value row to +Inf, or to NaN where k is odd and
// `nan_on_odd_edges`. The reference skips a masked edge, so every output row stays finite; a
// kernel that adds 0 x Inf does not. Returns the edges masked.
template <class Index>
int64_t mask_nonfinite_sources(const graphs::Csr<Index>& g, graphs::Inputs& in, int64_t every,
                               bool nan_on_odd_edges) {
  if (every < 1) throw std::invalid_argument("mask_nonfinite_sources: every must be >= 1");
  const int64_t heads = in.heads, row = heads * in.feat;
  if (row < 1 || in.scores.size() != static_cast<size_t>(g.num_edges() * heads) ||
      in.values.size() != static_cast<size_t>(g.num_nodes * row))
    throw std::invalid_argument("mask_nonfinite_sources: inputs not of the graph's shape");
  int64_t masked = 0;
  for (int64_t k = 0; k < g.num_edges(); ++k) {
    const int64_t s = g.col[k];
    if (s % every != 0) continue;
    for (int64_t h = 0; h < heads; ++h)
      in.scores[k * heads + h] = -std::numeric_limits<float>::infinity();
    in.values[s * row + k % row] = nan_on_odd_edges && k % 2 != 0
                                       ? std::numeric_limits<float>::quiet_NaN()
                                       : std::numeric_limits<float>::infinity();
    ++masked;
  }
  return masked;
}

}  // namespace csrgat::test_inputs
