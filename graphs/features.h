// Shape features of a graph: what tuning buckets and the dispatcher key on.
#pragma once

#include <cstdint>
#include <string>

#include "graphs/csr.h"

namespace csrgat::graphs {

struct ShapeFeatures {
  int64_t num_nodes = 0;
  int64_t num_edges = 0;
  int64_t min_degree = 0;
  double median_degree = 0;
  double mean_degree = 0;
  int64_t max_degree = 0;
  double cv_degree = 0;          // standard deviation / mean of the row lengths
  int64_t empty_rows = 0;
  int64_t long_row_threshold = 0;
  double long_row_edge_share = 0;  // share of edges in rows longer than long_row_threshold
  // The graph itself, whatever file, format, index width, reader or generator made it: 16 hex
  // digits of a 64-bit FNV-1a-style hash over row_ptr then col as int64 values (one xor and
  // multiply a value, not a byte: ~0.1 s for 64 M edges). Two graphs with the same statistics
  // and another csr_hash have other edges (a relabelled or edited file), so their timings are
  // not comparable; the same csr_hash under another source hash means the code that made the
  // graph changed, not the graph (tuner compare says which).
  std::string csr_hash;
};

// csr_hash's value for a CSR's arrays.
template <class Index>
std::string csr_hash(const Csr<Index>& g);

template <class Index>
ShapeFeatures describe(const Csr<Index>& g, int64_t long_row_threshold = 1024);

// {"num_nodes":..., ...} as one JSON object (no trailing newline).
std::string to_json(const ShapeFeatures& f);

// Builds or reads the graph of a spec (generate.h) and returns its features as one JSON object
// with "name" (the graph's name) and "spec" (as given) first. Throws GraphError.
std::string graph_info_json(const std::string& spec);

}  // namespace csrgat::graphs
