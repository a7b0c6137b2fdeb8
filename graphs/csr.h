// CSR graph container: row = destination, col = source (see ARCHITECTURE.md).
// Structure (row_ptr, col) is kept apart from the per-edge scores and per-node values so
// that one graph can be reused with many feature widths and head counts.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace csrgat::graphs {

// Every error about a graph or its inputs: what is wrong and where (file:line or field[index]).
class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class Index>
struct Csr {
  static_assert(std::is_same_v<Index, int32_t> || std::is_same_v<Index, int64_t>,
                "CSR indices are int32 or int64");
  using index_type = Index;
  std::string name;              // file stem or generator spec
  int64_t num_nodes = 0;         // N: rows (destinations) and columns (sources)
  std::vector<Index> row_ptr;    // (N + 1)
  std::vector<Index> col;        // (E): source node of each edge, grouped by destination row
  int64_t num_edges() const { return static_cast<int64_t>(col.size()); }
  int64_t degree(int64_t row) const {
    return static_cast<int64_t>(row_ptr[row + 1]) - static_cast<int64_t>(row_ptr[row]);
  }
};
using Csr32 = Csr<int32_t>;
using Csr64 = Csr<int64_t>;

// Dense per-edge scores and per-node values of one problem instance.
struct Inputs {
  int heads = 1;                 // H
  int feat = 0;                  // F
  std::vector<float> scores;     // scores: (E, H) row-major
  std::vector<float> values;     // values: (N, H, F) row-major
};

// What validation accepts beyond the defaults.
struct ValidationOptions {
  bool allow_nan = false;        // NaN in scores or values
  bool allow_pos_inf = false;    // +inf scores (-inf is always allowed: weight 0)
};

// Throws GraphError naming the first violation (field and index).
template <class Index>
void validate(const Csr<Index>& g);
// Checks sizes against the graph and the value rules of ValidationOptions.
template <class Index>
void validate_inputs(const Csr<Index>& g, const Inputs& in, const ValidationOptions& opt = {});

// Builds a CSR from coordinate lists (edge k: src[k] -> dst[k], both in [0, n)) with two
// counting sorts, O(N + E): rows in order, sources ascending within a row, duplicates kept.
// Takes the lists by value so that callers can move them in and their memory is freed early.
Csr64 csr_from_edges(int64_t n, std::vector<int64_t> dst, std::vector<int64_t> src);

// Narrowing with a check: int64 -> int32 fails with GraphError when N or E does not fit.
Csr32 to_int32(const Csr64& g);
Csr64 to_int64(const Csr32& g);

}  // namespace csrgat::graphs
