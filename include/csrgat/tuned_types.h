// Types of the generated tuned headers (include/csrgat/tuned/<arch>.h). A tuned header defines
//   CSRGAT_TUNED_KERNELS(X): one X(name, TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT,
//                              SLICED, Index, Value)
//                            per kernel the production library compiles;
//   csrgat::tuned::kRules:   first match wins; each names a kernel and a long-row threshold.
#pragma once

#include <cstdint>

namespace csrgat::tuned {

// value: 0 f32, 1 bf16, 2 f16; index: 0 int32, 1 int64.
struct Rule {
  int value;
  int index;
  int feat_min, feat_max;          // inclusive
  int heads_min, heads_max;
  double mean_degree_min, mean_degree_max;  // [min, max)
  int64_t max_degree_min, max_degree_max;   // [min, max)
  int64_t nodes_min, nodes_max;             // [min, max)
  int kernel;                      // index into CSRGAT_TUNED_KERNELS
  int64_t split;                   // long-row threshold, 0: none
  const char* variant_id;
  int prefetch = 0;                // 1: the kernel prefetches its inputs into L2 (`.pf`); last
                                   // and defaulted, so headers from before it still compile
  int block_merge = 0;             // 1: split rows merge inside their block (`.bm`); defaulted
                                   // for the same reason
  int slices = 1;                  // T > 1 (`.fs<T>`): T launches of the kernel (compiled with
                                   // SLICED 1), each on F / T features of every row
  // R > 0: the column-blocked sweep (csrgat/colblock.h,
  // `colblock.r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma]`) with R rows a warp, partitions of 2^S
  // sources and lag L runs this rule's problems wherever a Shape made from the graph's device
  // arrays holds its plan; `kernel` runs them everywhere else (aggregate() without such a Shape, a
  // problem colblock cannot take). Defaulted like the fields above.
  int colblock_rows = 0;
  int colblock_part_shift = 0;
  int colblock_lag = 0;
  const char* colblock_id = "";    // its variant id, for logs
  int colblock_pause_ns = 0;       // its barrier's first sleep after a failed poll (`.pp<N>`), ns;
                                   // 0: the library's default for the value storage
                                   // (float32 4096, bfloat16 1024)
  int colblock_l1_policy = 0;      // the L1 policy of its item and score loads (`.l1p<N>`);
                                   // written only when not 0
  int colblock_tensor_cores = 0;   // 1: its adds on the tensor cores (`.mma`, bfloat16 values);
                                   // written only when not 0
};

}  // namespace csrgat::tuned
