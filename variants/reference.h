// The float64 CPU reference of the aggregation, and the check of a kernel's output against it.
// Every variant is verified against this before it is timed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graphs/csr.h"
#include "variants/compare_rule.h"

namespace csrgat {

// out[d, h, :] = sum over e in row d of softmax_e(scores[e, h]) * values[col[e], h, :], in double.
// Returns out: (N, H, F) row-major. Softmax subtracts the row maximum, so scores of any finite
// magnitude (1e30) are safe. Defined cases: an empty row gives 0; -inf scores get weight 0; a
// row whose scores are all -inf gives 0. Where validation was told to allow them: a row with
// +inf scores splits its weight equally over those entries; a NaN score makes the (row, head)
// output NaN. threads = 0: one per hardware thread. Throws GraphError on mismatched sizes.
template <class Index>
std::vector<double> reference_aggregate(const graphs::Csr<Index>& g, const graphs::Inputs& in,
                                        int threads = 0);

struct Comparison {
  double rel_error = 0;  // ||out - ref||_2 / ||ref||_2 over finite outputs (absolute if ref = 0)
  int64_t bad_elements = 0;  // outside the per-element bound, NaN and inf included
  int64_t first_bad = -1;    // flat index of the first bad element, -1 when none
  int64_t nan_count = 0;     // NaN or inf in out
  bool pass = false;
  std::string summary;  // one line: verdict, error, first bad element (index, got, want)
};

// The norm of a reference, for compare_to_reference and checks made elsewhere (the tuner's on
// the GPU): ||ref||_2, its rms and its size.
struct ReferenceNorm {
  double norm = 0;
  double rms = 0;
  int64_t n = 0;
};
ReferenceNorm reference_norm(const std::vector<double>& ref);

// The verdict and its summary from the sums; got and want are the first bad element's output
// and reference values (ignored when there is none).
Comparison decide_comparison(const ComparisonSums& sums, const ReferenceNorm& norm, double rel_tol,
                             double got, double want);

// out: as many elements as ref. An element is bad when |out - ref| exceeds
// 10 * rel_tol * max(|ref_i|, rms(ref)) + 1e-30, or is not finite: the rms floor keeps
// cancellation near zero from failing a correct kernel, the factor 10 leaves room for the norm
// test, which catches errors spread thinly. pass = rel_error <= rel_tol, no bad element, no NaN.
Comparison compare_to_reference(const float* out, const std::vector<double>& ref, double rel_tol);

}  // namespace csrgat
