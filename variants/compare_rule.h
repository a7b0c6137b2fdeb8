// The element test of a check against the float64 reference, one definition for the host
// (compare_to_reference) and the device (the tuner's compare on the GPU, tuner/device_compare.cu).
#pragma once

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

}  // namespace csrgat

#undef CSRGAT_HD
