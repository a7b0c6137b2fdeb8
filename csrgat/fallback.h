// The production library's fallback kernels: what a call runs when no rule of the tuned
// header matches its shape, one per value type (f32, bf16, f16) and index type (i32, i64).
// Always in the library (csrgat_embed_cubins compiles them with the header's kernels).
#pragma once

namespace csrgat {

inline constexpr const char* kFallbackIds[3][2] = {
    {"csrgat.tpr32.fl16.rpb4.vec4.t1.smem0.twopass.split0.i32.f32",
     "csrgat.tpr32.fl16.rpb4.vec4.t1.smem0.twopass.split0.i64.f32"},
    {"csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i32.bf16",
     "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i64.bf16"},
    {"csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i32.f16",
     "csrgat.tpr32.fl16.rpb4.vec8.t1.smem0.twopass.split0.i64.f16"}};

}  // namespace csrgat
