// Degree statistics of the rows (in-degrees): what tuning buckets and dispatch key on.
#include "graphs/features.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "graphs/generate.h"
#include "graphs/hash.h"
#include "graphs/source.h"

namespace csrgat::graphs {
namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace

template <class Index>
std::string csr_hash(const Csr<Index>& g) {
  Fnv1a f;
  for (const std::vector<Index>* a : {&g.row_ptr, &g.col})
    for (const Index v : *a) f.add_value(static_cast<uint64_t>(static_cast<int64_t>(v)));
  return f.hex();
}

template <class Index>
ShapeFeatures describe(const Csr<Index>& g, int64_t long_row_threshold) {
  ShapeFeatures f;
  const int64_t n = g.num_nodes;
  f.csr_hash = csr_hash(g);
  f.num_nodes = n;
  f.num_edges = g.num_edges();
  f.long_row_threshold = long_row_threshold;
  if (n == 0) return f;
  std::vector<int64_t> deg(n);
  int64_t long_edges = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = g.degree(i);
    deg[i] = d;
    f.empty_rows += d == 0;
    if (d > long_row_threshold) long_edges += d;
  }
  const auto [lo, hi] = std::minmax_element(deg.begin(), deg.end());
  f.min_degree = *lo;
  f.max_degree = *hi;
  f.mean_degree = static_cast<double>(f.num_edges) / static_cast<double>(n);
  double var = 0;  // population variance, two-pass so that no cancellation occurs
  for (const int64_t d : deg)
    var += (static_cast<double>(d) - f.mean_degree) * (static_cast<double>(d) - f.mean_degree);
  var /= static_cast<double>(n);
  f.cv_degree = f.mean_degree > 0 ? std::sqrt(var) / f.mean_degree : 0;
  f.long_row_edge_share =
      f.num_edges > 0 ? static_cast<double>(long_edges) / static_cast<double>(f.num_edges) : 0;
  // Median as Python's statistics.median: the mean of the two middle values when n is even.
  const auto mid = deg.begin() + n / 2;
  std::nth_element(deg.begin(), mid, deg.end());
  const double upper = static_cast<double>(*mid);
  if (n % 2 == 1) {
    f.median_degree = upper;
  } else {
    const double lower = static_cast<double>(*std::max_element(deg.begin(), mid));
    f.median_degree = 0.5 * (lower + upper);
  }
  return f;
}

std::string to_json(const ShapeFeatures& f) {
  std::ostringstream os;
  os.precision(12);
  os << "{\"num_nodes\":" << f.num_nodes << ",\"num_edges\":" << f.num_edges
     << ",\"min_degree\":" << f.min_degree << ",\"median_degree\":" << f.median_degree
     << ",\"mean_degree\":" << f.mean_degree << ",\"max_degree\":" << f.max_degree
     << ",\"cv_degree\":" << f.cv_degree << ",\"empty_rows\":" << f.empty_rows
     << ",\"long_row_threshold\":" << f.long_row_threshold
     << ",\"long_row_edge_share\":" << f.long_row_edge_share
     << ",\"csr_hash\":" << json_string(f.csr_hash) << "}";
  return os.str();
}

std::string graph_info_json(const std::string& spec) {
  const Csr64 g = make_graph(spec);
  validate(g);
  const std::string features = to_json(describe(g));
  return "{\"name\":" + json_string(g.name) + ",\"spec\":" + json_string(spec) +
         ",\"source_hash\":" + json_string(graph_source_hash(spec)) + "," + features.substr(1);
}

template std::string csr_hash(const Csr32&);
template std::string csr_hash(const Csr64&);
template ShapeFeatures describe(const Csr32&, int64_t);
template ShapeFeatures describe(const Csr64&, int64_t);

}  // namespace csrgat::graphs
