// Generated-format default for builds without a tuner run: one safe kernel per value and index
// type, no measurements behind it. A tuner run replaces it (cmake -DCSRGAT_TUNED_CONFIG=...).
#pragma once

#include "csrgat/tuned_types.h"

#define CSRGAT_TUNED_ARCH 90
#define CSRGAT_TUNED_SOURCE "default (untuned)"

// X(name, TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, SLICED, Index, Value)
#define CSRGAT_TUNED_KERNELS(X)                     \
  X(k0, 32, 16, 4, 4, 1, 1, 1, 0, 0, 0, 0, 0, int, float)          \
  X(k1, 32, 16, 4, 4, 1, 1, 1, 0, 0, 0, 0, 0, long long, float)    \
  X(k2, 32, 16, 4, 8, 1, 1, 1, 0, 0, 0, 0, 0, int, __nv_bfloat16)  \
  X(k3, 32, 16, 4, 8, 1, 1, 1, 0, 0, 0, 0, 0, long long, __nv_bfloat16) \
  X(k4, 32, 16, 4, 8, 1, 1, 1, 0, 0, 0, 0, 0, int, __half)         \
  X(k5, 32, 16, 4, 8, 1, 1, 1, 0, 0, 0, 0, 0, long long, __half)

namespace csrgat::tuned {
inline constexpr Rule kRules[] = {
    {0, 0, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 0, 4096, "csrgat.tpr32.fl16.rpb4.vec4.t1.smem0.twopass.split4096.i32.f32"},
    {0, 1, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 1, 4096, "csrgat.tpr32.fl16.rpb4.vec4.t1.smem0.twopass.split4096.i64.f32"},
    {1, 0, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 2, 4096, "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split4096.i32.bf16"},
    {1, 1, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 3, 4096, "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split4096.i64.bf16"},
    {2, 0, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 4, 4096, "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split4096.i32.f16"},
    {2, 1, 1, 1 << 30, 1, 1 << 30, 0, 1e300, 0, INT64_MAX, 0, INT64_MAX, 5, 4096, "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split4096.i64.f16"},
};
}  // namespace csrgat::tuned
