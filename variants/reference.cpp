// The CPU reference: plain double arithmetic, rows shared among threads in chunks of about
// equal work, each chunk written by one thread (no reduction across threads, so the result does
// not depend on the thread count).
#include "variants/reference.h"

#include "graphs/detail.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

namespace csrgat {
namespace {

using graphs::detail::hardware_threads;
template <class F>
void run_chunks(int64_t chunks, int64_t threads, const F& f) {
  graphs::detail::parallel_blocks(chunks, threads, f);
}

template <class Index>
void aggregate_rows(const graphs::Csr<Index>& g, const graphs::Inputs& in, int64_t row_begin,
                    int64_t row_end, std::vector<double>& weight, double* out) {
  const int64_t heads = in.heads;
  const int64_t feat = in.feat;
  const float* scores = in.scores.data();
  const float* values = in.values.data();
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (int64_t d = row_begin; d < row_end; ++d) {
    const int64_t first = g.row_ptr[d];
    const int64_t deg = static_cast<int64_t>(g.row_ptr[d + 1]) - first;
    if (static_cast<int64_t>(weight.size()) < deg) weight.resize(deg);
    for (int64_t h = 0; h < heads; ++h) {
      double* o = out + (d * heads + h) * feat;  // out: (N, H, F), zero on entry
      double max = -inf;
      int64_t pos_inf = 0;
      bool nan = false;
      for (int64_t k = 0; k < deg; ++k) {
        const double s = scores[(first + k) * heads + h];
        if (std::isnan(s))
          nan = true;
        else if (s == inf)
          ++pos_inf;
        else
          max = std::max(max, s);
      }
      if (nan) {
        std::fill(o, o + feat, std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      if (deg == 0 || (pos_inf == 0 && max == -inf)) continue;  // empty or all -inf: 0
      double sum = 0;
      for (int64_t k = 0; k < deg; ++k) {
        const double s = scores[(first + k) * heads + h];
        // With +inf present the finite scores vanish next to it: equal weight on the +inf ones.
        const double w = pos_inf > 0 ? (s == inf ? 1.0 : 0.0) : std::exp(s - max);
        weight[k] = w;
        sum += w;
      }
      const double inv = 1.0 / sum;
      for (int64_t k = 0; k < deg; ++k) {
        const double w = weight[k] * inv;
        if (w == 0) continue;
        const float* v = values + (static_cast<int64_t>(g.col[first + k]) * heads + h) * feat;
        for (int64_t f = 0; f < feat; ++f) o[f] += w * static_cast<double>(v[f]);
      }
    }
  }
}

}  // namespace

template <class Index>
std::vector<double> reference_aggregate(const graphs::Csr<Index>& g, const graphs::Inputs& in,
                                        int threads) {
  graphs::validate(g);
  // Sizes only: which non-finite scores are allowed was decided by the caller's validation.
  graphs::validate_inputs(g, in, {.allow_nan = true, .allow_pos_inf = true});
  const int64_t n = g.num_nodes;
  std::vector<double> out(static_cast<size_t>(n * in.heads * in.feat), 0.0);
  if (n == 0) return out;
  if (threads <= 0) threads = static_cast<int>(hardware_threads());

  // Chunks of about equal work (edges times features, plus a little per row), many per thread
  // so that a thread stuck on a long row does not hold up the rest.
  const double per_row = static_cast<double>(in.heads) * (in.feat + 8);
  const double per_edge = static_cast<double>(in.heads) * (in.feat + 4);
  const double total = n * per_row + static_cast<double>(g.num_edges()) * per_edge;
  const double target = std::max(total / (threads * 16.0), 1e5);
  std::vector<int64_t> bounds{0};
  double acc = 0;
  for (int64_t d = 0; d < n; ++d) {
    acc += per_row + static_cast<double>(g.degree(d)) * per_edge;
    if (acc >= target) {
      bounds.push_back(d + 1);
      acc = 0;
    }
  }
  if (bounds.back() != n) bounds.push_back(n);
  const int64_t chunks = static_cast<int64_t>(bounds.size()) - 1;

  run_chunks(chunks, threads, [&](int64_t c) {
    std::vector<double> weight;
    aggregate_rows(g, in, bounds[c], bounds[c + 1], weight, out.data());
  });
  return out;
}

namespace {

// Calls f(chunk, begin, end) for fixed chunks of [0, n). Chunks are fixed so that per-chunk
// partial sums, added in chunk order, do not depend on the number of threads.
template <class F>
void for_chunks(int64_t n, int64_t chunk, const F& f) {
  run_chunks((n + chunk - 1) / chunk, hardware_threads(),
             [&](int64_t c) { f(c, c * chunk, std::min(n, (c + 1) * chunk)); });
}

}  // namespace

ReferenceNorm reference_norm(const std::vector<double>& ref) {
  constexpr int64_t chunk = int64_t{1} << 20;
  const int64_t n = static_cast<int64_t>(ref.size());
  std::vector<double> part((n + chunk - 1) / chunk, 0.0);
  for_chunks(n, chunk, [&](int64_t c, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) part[c] += ref[i] * ref[i];
  });
  double ref_sq = 0;
  for (double p : part) ref_sq += p;
  ReferenceNorm r;
  r.n = n;
  r.norm = std::sqrt(ref_sq);
  r.rms = n > 0 ? r.norm / std::sqrt(static_cast<double>(n)) : 0;
  return r;
}

Comparison decide_comparison(const ComparisonSums& sums, const ReferenceNorm& norm, double rel_tol,
                             double got, double want) {
  const bool ref_zero = norm.norm == 0;
  Comparison c;
  c.first_bad = sums.first_bad;
  c.bad_elements = sums.bad;
  c.nan_count = sums.nan;
  c.rel_error = ref_zero ? std::sqrt(sums.diff_sq) : std::sqrt(sums.diff_sq) / norm.norm;
  c.pass = (ref_zero || c.rel_error <= rel_tol) && c.bad_elements == 0 && c.nan_count == 0;
  std::ostringstream os;
  os.precision(9);
  os << (c.pass ? "PASS" : "FAIL") << ": rel_error " << c.rel_error
     << (ref_zero ? " (absolute: the reference is 0)" : "") << " (tol " << rel_tol << ") over " << norm.n
     << " elements, " << c.bad_elements << " bad, " << c.nan_count << " NaN/inf";
  if (c.first_bad >= 0) os << "; first bad [" << c.first_bad << "]: got " << got << ", want " << want;
  c.summary = os.str();
  return c;
}

Comparison compare_to_reference(const float* out, const std::vector<double>& ref, double rel_tol) {
  constexpr int64_t chunk = int64_t{1} << 20;
  const ReferenceNorm norm = reference_norm(ref);
  const ElementBound bound{norm.rms, norm.norm == 0, rel_tol};
  const int64_t n = norm.n;
  std::vector<ComparisonSums> part((n + chunk - 1) / chunk);
  for_chunks(n, chunk, [&](int64_t c, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) add_element(part[c], i, out[i], ref[i], bound);
  });
  ComparisonSums sums;
  for (const auto& p : part) merge_sums(sums, p);  // in chunk order
  return decide_comparison(sums, norm, rel_tol, sums.first_bad >= 0 ? out[sums.first_bad] : 0.0,
                           sums.first_bad >= 0 ? ref[sums.first_bad] : 0.0);
}

template std::vector<double> reference_aggregate(const graphs::Csr32&, const graphs::Inputs&, int);
template std::vector<double> reference_aggregate(const graphs::Csr64&, const graphs::Inputs&, int);

}  // namespace csrgat
