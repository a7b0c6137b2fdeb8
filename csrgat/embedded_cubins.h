// The production library's machine code: the cubins csrgat_embed_cubins (embed_cubins.cpp)
// compiled through NVRTC at build time, the tuner's own compile of each kernel, embedded in
// the library. Internal to the library and its tests.
#pragma once

#ifndef CSRGAT_EMBEDDED_ARCHS
#define CSRGAT_EMBEDDED_ARCHS 1
#endif

namespace csrgat::embedded {

inline constexpr int kArchsPerKernel = CSRGAT_EMBEDDED_ARCHS;

struct Cubin {
  int arch;     // 90 for sm_90 and sm_90a
  char suffix;  // 'a' for sm_90a, 'f' for sm_100f, 0 for sm_90 (variants/arch.h)
  const unsigned char* begin;
  const unsigned char* end;
};
struct Kernel {
  const char* name;            // its template instantiation (VariantParams::kernel_name)
  const char* lowered;         // its symbol in each cubin
  const char* scalar_lowered;  // its scalar twin's, in the same cubins ("" when none)
  Cubin cubins[kArchsPerKernel];
};
// The tuned header's kernels in its order (CSRGAT_TUNED_KERNELS), then the fallbacks in
// kFallbackIds' order (csrgat/fallback.h), then the `.o16` twins of the 16-bit-values ones
// among them, in the same order.
extern const Kernel kKernels[];
extern const int kNumKernels;
// As nvcc's __CUDA_ARCH_LIST__ ("900", "900,1000"), with a target's suffix: "900a", "1000f".
extern const char* const kArchList;

}  // namespace csrgat::embedded
