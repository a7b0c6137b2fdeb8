// The element test of a check against the float64 reference and the sums it adds to, one
// definition for the host (compare_to_reference) and the device (the tuner's compare on the
// GPU, tuner/device_compare.cu).
#pragma once

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#if defined(__CUDACC__)
#define CSRGAT_HD __host__ __device__
#else
#define CSRGAT_HD
#endif

namespace csrgat {

// What the element test needs of the whole reference: its rms (sqrt(sum ref^2 / n)) and whether
// it is all zeros (then the test is absolute).
struct ElementBound {
  double rms = 0;
  bool ref_zero = false;
  double rel_tol = 0;
};

// Whether got (a finite output) is outside its bound around want: |got - want| over
// 10 * rel_tol * max(|want|, rms) + 1e-30, or |got| > 1e-30 against an all-zero reference.
// (Non-finite outputs are bad on their own; the callers count them apart.)
CSRGAT_HD inline bool outside_bound(double got, double want, const ElementBound& b) {
  const double diff = got > want ? got - want : want - got;
  if (b.ref_zero) return (got < 0 ? -got : got) > 1e-30;
  const double mag = want < 0 ? -want : want;
  return !(diff <= 10 * b.rel_tol * (mag > b.rms ? mag : b.rms) + 1e-30);
}

// The sums a comparison is decided from (decide_comparison), over all elements: squared
// differences of the finite outputs, bad elements (outside_bound, or not finite), NaN/inf, and
// the first bad index (-1: none).
struct ComparisonSums {
  double diff_sq = 0;
  long long bad = 0;
  long long nan = 0;
  long long first_bad = -1;
};

// The lower of two element indices where -1 means none.
CSRGAT_HD inline long long first_index(long long a, long long b) {
  return a < 0 ? b : (b < 0 ? a : (a < b ? a : b));
}

// Element i, got against want, into s (elements in increasing order keep first_bad the lowest).
CSRGAT_HD inline void add_element(ComparisonSums& s, long long i, double got, double want,
                                  const ElementBound& b) {
#if defined(__CUDA_ARCH__)
  const bool finite = isfinite(got);
#else
  const bool finite = std::isfinite(got);
#endif
  bool bad = true;
  if (finite) {
    const double d = got - want;
    s.diff_sq += d * d;
    bad = outside_bound(got, want, b);
  } else {
    ++s.nan;
  }
  if (bad) {
    if (s.first_bad < 0) s.first_bad = i;
    ++s.bad;
  }
}

// from's elements into into's (the same additions in the order merged).
CSRGAT_HD inline void merge_sums(ComparisonSums& into, const ComparisonSums& from) {
  into.diff_sq += from.diff_sq;
  into.bad += from.bad;
  into.nan += from.nan;
  into.first_bad = first_index(into.first_bad, from.first_bad);
}

}  // namespace csrgat

#undef CSRGAT_HD
