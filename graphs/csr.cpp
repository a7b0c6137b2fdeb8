// Validation and construction of CSR graphs.
#include "graphs/csr.h"

#include "graphs/detail.h"

#include <cmath>
#include <new>
#include <sstream>
#include <utility>

namespace csrgat::graphs {
namespace {

using detail::csr_build_bytes;
using detail::fail;
using detail::require_memory;

const char* index_name(int32_t) {
  return "int32";
}
const char* index_name(int64_t) {
  return "int64";
}

// a * b, or -1 when it does not fit in int64 (both factors are non-negative).
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

}  // namespace

template <class Index>
void validate(const Csr<Index>& g) {
  constexpr int64_t max_index = std::numeric_limits<Index>::max();
  const int64_t n = g.num_nodes;
  const int64_t e = g.num_edges();
  const char* type = index_name(Index{});
  if (n < 0) fail("graph '", g.name, "': num_nodes = ", n, " is negative");
  if (n > max_index)
    fail("graph '", g.name, "': num_nodes = ", n, " does not fit ", type, " indices");
  if (e > max_index)
    fail("graph '", g.name, "': num_edges = ", e, " does not fit ", type, " indices");
  if (static_cast<int64_t>(g.row_ptr.size()) - 1 != n)
    fail("graph '", g.name, "': row_ptr has ", g.row_ptr.size(),
         " entries, expected N + 1 = ", static_cast<uint64_t>(n) + 1);
  if (g.row_ptr[0] != 0) fail("graph '", g.name, "': row_ptr[0] = ", g.row_ptr[0], ", expected 0");
  for (int64_t i = 0; i < n; ++i) {
    if (g.row_ptr[i + 1] < g.row_ptr[i])
      fail("graph '", g.name, "': row_ptr decreases at row ", i, ": row_ptr[", i,
           "] = ", g.row_ptr[i], " > row_ptr[", i + 1, "] = ", g.row_ptr[i + 1]);
  }
  if (static_cast<int64_t>(g.row_ptr[n]) != e)
    fail("graph '", g.name, "': row_ptr[N] = row_ptr[", n, "] = ", g.row_ptr[n],
         ", expected E = col.size() = ", e);
  for (int64_t k = 0; k < e; ++k) {
    const int64_t c = g.col[k];
    if (c < 0 || c >= n)
      fail("graph '", g.name, "': col[", k, "] = ", c, " is out of range [0, ", n, ") (edge ", k,
           ")");
  }
}

template <class Index>
void validate_inputs(const Csr<Index>& g, const Inputs& in, const ValidationOptions& opt) {
  if (in.heads < 1) fail("inputs: heads = ", in.heads, ", expected >= 1");
  if (in.feat < 1) fail("inputs: feat = ", in.feat, ", expected >= 1");
  const int64_t e = g.num_edges();
  const int64_t h = in.heads;
  const int64_t f = in.feat;
  const int64_t want_scores = checked_mul(e, h);
  const int64_t want_values = checked_mul(checked_mul(g.num_nodes, h), f);
  if (want_scores < 0 || want_values < 0)
    fail("inputs: E * H or N * H * F overflows int64 (E = ", e, ", N = ", g.num_nodes, ", H = ", h,
         ", F = ", f, ")");
  if (static_cast<int64_t>(in.scores.size()) != want_scores)
    fail("inputs: scores has ", in.scores.size(), " elements, expected E * H = ", e, " * ", h,
         " = ", want_scores);
  if (static_cast<int64_t>(in.values.size()) != want_values)
    fail("inputs: values has ", in.values.size(), " elements, expected N * H * F = ", g.num_nodes,
         " * ", h, " * ", f, " = ", want_values);
  for (int64_t i = 0; i < want_scores; ++i) {
    const float s = in.scores[i];
    if (std::isnan(s) && !opt.allow_nan)
      fail("inputs: scores[", i, "] is NaN (edge ", i / h, ", head ", i % h, ")");
    if (std::isinf(s) && s > 0 && !opt.allow_pos_inf)
      fail("inputs: scores[", i, "] is +inf (edge ", i / h, ", head ", i % h,
           "); only -inf (weight 0) is allowed");
  }
  // Infinite values would turn into NaN under a zero weight, so they count as NaN here.
  for (int64_t i = 0; i < want_values; ++i) {
    const float v = in.values[i];
    if (!std::isfinite(v) && !opt.allow_nan)
      fail("inputs: values[", i, "] is ", std::isnan(v) ? "NaN" : (v > 0 ? "+inf" : "-inf"),
           " (node ", i / (h * f), ", head ", (i / f) % h, ", feature ", i % f, ")");
  }
}

Csr64 csr_from_edges(int64_t n, std::vector<int64_t> dst, std::vector<int64_t> src) {
  if (n < 0) fail("csr_from_edges: n = ", n, " is negative");
  if (dst.size() != src.size())
    fail("csr_from_edges: ", dst.size(), " destinations but ", src.size(), " sources");
  const int64_t e = static_cast<int64_t>(dst.size());
  for (int64_t k = 0; k < e; ++k) {
    if (dst[k] < 0 || dst[k] >= n)
      fail("csr_from_edges: dst[", k, "] = ", dst[k], " not in [0, ", n, ")");
    if (src[k] < 0 || src[k] >= n)
      fail("csr_from_edges: src[", k, "] = ", src[k], " not in [0, ", n, ")");
  }
  // (dst and src are already filled: what is left to allocate)
  require_memory(csr_build_bytes(n, e, true), "csr_from_edges: a graph with ", n, " nodes and ", e,
                 " edges");
  Csr64 g;
  g.num_nodes = n;
  try {
    // Pass 1: bucket the destinations by source. Afterwards the source of by_src[j] is the
    // bucket that j falls in, so src and dst can be freed before the output is allocated.
    std::vector<int64_t> by_src(e);
    std::vector<int64_t> end(n + 1, 0);  // after pass 1: end[s] = end of bucket s
    for (int64_t s : src) ++end[s + 1];
    for (int64_t i = 0; i < n; ++i) end[i + 1] += end[i];
    for (int64_t k = 0; k < e; ++k) by_src[end[src[k]]++] = dst[k];
    std::vector<int64_t>().swap(src);
    std::vector<int64_t>().swap(dst);
    // Pass 2: stable by destination; visiting sources in increasing order sorts each row.
    g.row_ptr.assign(n + 1, 0);
    for (int64_t d : by_src) ++g.row_ptr[d + 1];
    for (int64_t i = 0; i < n; ++i) g.row_ptr[i + 1] += g.row_ptr[i];
    std::vector<int64_t> cursor(g.row_ptr.begin(), g.row_ptr.end() - 1);
    g.col.resize(e);
    int64_t j = 0;
    for (int64_t s = 0; s < n; ++s) {
      for (; j < end[s]; ++j) g.col[cursor[by_src[j]]++] = s;
    }
  } catch (const std::bad_alloc&) {
    fail("csr_from_edges: a graph with ", n, " nodes and ", e, " edges does not fit in memory");
  }
  return g;
}

Csr32 to_int32(const Csr64& g) {
  constexpr int64_t max32 = std::numeric_limits<int32_t>::max();
  if (g.num_nodes > max32 || g.num_edges() > max32)
    fail("graph '", g.name, "': N = ", g.num_nodes, ", E = ", g.num_edges(),
         " do not fit int32 indices (max ", max32, "); use int64");
  if (static_cast<int64_t>(g.row_ptr.size()) != g.num_nodes + 1)
    fail("graph '", g.name, "': row_ptr has ", g.row_ptr.size(),
         " entries, expected N + 1 = ", g.num_nodes + 1);
  Csr32 out;
  out.name = g.name;
  out.num_nodes = g.num_nodes;
  out.row_ptr.assign(g.row_ptr.begin(), g.row_ptr.end());
  out.col.resize(g.col.size());
  for (size_t k = 0; k < g.col.size(); ++k) {
    const int64_t c = g.col[k];
    if (c < 0 || c > max32) fail("graph '", g.name, "': col[", k, "] = ", c, " does not fit int32");
    out.col[k] = static_cast<int32_t>(c);
  }
  return out;
}

Csr64 to_int64(const Csr32& g) {
  Csr64 out;
  out.name = g.name;
  out.num_nodes = g.num_nodes;
  out.row_ptr.assign(g.row_ptr.begin(), g.row_ptr.end());
  out.col.assign(g.col.begin(), g.col.end());
  return out;
}

template void validate(const Csr32&);
template void validate(const Csr64&);
template void validate_inputs(const Csr32&, const Inputs&, const ValidationOptions&);
template void validate_inputs(const Csr64&, const Inputs&, const ValidationOptions&);

}  // namespace csrgat::graphs
