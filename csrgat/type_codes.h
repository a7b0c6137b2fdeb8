// The public API's Storage and Index (include/csrgat/aggregate.h) against the variant family's
// ValueType and IndexType (variants/params.h), in one place: the library's dispatch, `tuner
// bench` and the GPU tests map between them. The tuned header's tables are indexed by the
// family's codes (0 f32, 1 bf16, 2 f16; 0 int32, 1 int64), so the two orders must agree.
#pragma once

#include "csrgat/aggregate.h"
#include "variants/params.h"

namespace csrgat {

// An enum value the API defines (a caller's integer cast to Storage or Index may not be one).
constexpr bool is_valid(Storage s) {
  return s == Storage::f32 || s == Storage::bf16 || s == Storage::f16;
}
constexpr bool is_valid(Index i) {
  return i == Index::i32 || i == Index::i64;
}

constexpr ValueType value_type_of(Storage s) {
  return s == Storage::f32 ? ValueType::f32 : s == Storage::bf16 ? ValueType::bf16 : ValueType::f16;
}
constexpr Storage storage_of(ValueType v) {
  return v == ValueType::f32 ? Storage::f32 : v == ValueType::bf16 ? Storage::bf16 : Storage::f16;
}
constexpr IndexType index_type_of(Index i) {
  return i == Index::i64 ? IndexType::i64 : IndexType::i32;
}
constexpr Index index_of(IndexType t) {
  return t == IndexType::i64 ? Index::i64 : Index::i32;
}

static_assert(static_cast<int>(ValueType::f32) == 0 && static_cast<int>(ValueType::bf16) == 1 &&
                  static_cast<int>(ValueType::f16) == 2 && static_cast<int>(IndexType::i64) == 1,
              "the tuned header's tables are indexed by these codes");

}  // namespace csrgat
