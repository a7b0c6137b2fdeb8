// The tuned choice: a plain parameter struct with equality, printing and a readable id that
// spells out every parameter (csrgat.tpr16.fl16.rpb4.vec4.t1.smem0.twopass.split0.i32.f32;
// edges per lane other than 1 appear as .e2 after .t1, gathers in flight other than 1 as .g4
// after that, launch bounds as .mb8 after that; rows in longest-first order as .lpt after
// .split, inputs prefetched into L2 as .pf after that, split rows merged inside their block as
// .bm after that, feature slices as .fs<T> after that; out stored in the values' 16-bit type as
// .o16 after the value type). Host-only; the kernel sees the same values as template arguments
// (split, prefetch and bm as launch arguments).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "variants/colblock_plan.h"

namespace csrgat {

// colblock: the column-blocked sweep of DRAM-bound graphs (variants/colblock.cuh, nvcc-built:
// not an NVRTC kernel), planned once per graph; its id is
// colblock.r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma].i32.<f32 or bf16>.
enum class Family { fused, seed, cusparse, colblock };
enum class Softmax { two_pass, online };
enum class IndexType { i32, i64 };
enum class ValueType { f32, bf16, f16 };

const char* to_string(Family f);
const char* to_string(Softmax s);
const char* to_string(IndexType t);
const char* to_string(ValueType t);
int value_bytes(ValueType t);
int index_bytes(IndexType t);

struct VariantParams {
  Family family = Family::fused;
  int tpr = 16;   // threads per task (row-head pair): 1..32 sub-warp, 64..1024 warps
  int fl = 16;    // lanes along the feature axis; tpr/fl (per warp) edge slots
  int rpb = 4;    // tasks per block (1 when tpr > 32)
  int vec = 4;    // elements per value load: 1, 2, 4 (8 for 16-bit storage)
  int tiles = 1;  // value loads per lane per pass over the features
  int epl = 1;    // edges each lane loads per batch (1, 2, 4; > 1 needs smem 0);
                  // the id shows it as .e<epl> after .t<tiles> when it is not 1
  int ilp = 1;    // batch entries per edge slot whose gathers are issued before their FMAs
                  // (power of two <= fl * epl); the id shows it as .g<ilp> after .e<epl>
                  // when it is not 1
  int minb = 0;   // __launch_bounds__ minimum blocks per SM (0: none); the id shows it as
                  // .mb<minb> after .e<epl> when it is not 0
  int smem = 0;   // how (col, weight) reach the edge slots: 0 warp shuffles,
                  // 1 shared memory, 2 each lane loads them itself (L1 broadcast);
                  // 3 warp shuffles with the gathers staged in shared memory by cp.async
                  // (16-byte pieces, two groups of ilp entries in flight per slot)
  Softmax softmax = Softmax::two_pass;
  int64_t split = 0;  // rows longer than this are split into chunks of this many edges
  int lpt = 0;        // 1: row tasks run longest rows first (degree buckets of powers of two,
                      // index order inside a bucket; a host-built row order), so no long row
                      // starts last; a template parameter (LPT), shown in the id as .lpt
                      // after .split<n>
  int prefetch = 0;   // 1: the first blocks prefetch the inputs into L2 as the kernel starts
                      // (a launch-time flag, KernelArgs::prefetch: the same compiled kernel);
                      // shown in the id as .pf after .split<n>[.lpt]
  int bm = 0;         // 1: a split row whose chunks all run in one block merges there after a
                      // barrier (the host plan packs rows into blocks: build_split_plan's
                      // per_block); 0: every split row merges through a fence and an atomic.
                      // A launch-time flag (KernelArgs::block_merge), shown as .bm after
                      // .split<n>[.lpt][.pf]; needs split > 0
  int slices = 1;     // T > 1 (`.fs<T>`, after .bm): the host launches the kernel T times, each
                      // launch on F / T features of every row (slice s: features [s F / T,
                      // (s + 1) F / T)), so that each launch's gathers have 1 / T of the values
                      // as their working set, for L2 reuse on graphs whose values are a few
                      // times L2 (twenty-ninth session). The kernel is compiled for it (its
                      // SLICED template argument: rows KernelArgs::feat_ld long); 1, 2, 4 or 8
  // colblock's geometry (family colblock only): R rows a warp on chip, partitions of 2^S
  // sources, and how many partitions a warp may run ahead of the slowest (csrgat/colblock.h).
  int cb_rows = 19;   // .r<R>
  int cb_shift = 16;  // .ps<S>
  int cb_lag = 8;     // .lag<L>
  // The soft barrier's first sleep after a failed poll, ns (`.pp<N>`, after .lag; left out of
  // the id at 0, the library's default for the value storage: float32 4096 ns, so that float32
  // ids from before it keep their meaning; bfloat16 1024 since its polls are timed).
  int cb_pause = 0;
  // The L1 policy of the sweep's item and score loads (`.l1p<N>` after .pp, left out at 0:
  // variants/colblock.cuh).
  int cb_l1p = 0;
  // 1 (`.mma`, last of the geometry): the sweep's adds on the tensor cores (variants/colblock.cuh's
  // mma_gather: bfloat16 values, R at most 24); 0: tma_gather's.
  int cb_mma = 0;
  IndexType index = IndexType::i32;
  ValueType value = ValueType::f32;
  // 1 (`.o16`, after the value type): out is stored in the values' 16-bit type, each result
  // rounded to nearest even from its float32 sum (a template parameter, OUT16: the float32-out
  // kernels keep their code); 0: float32 out. Not a tuned parameter: the library runs a rule's
  // kernel as its `.o16` twin when the caller's out is 16-bit (csrgat::Output).
  int out16 = 0;
  // How the variant stores out: its values' type for `.o16`, else float32.
  ValueType out_type() const { return out16 ? value : ValueType::f32; }
  // Test-only knobs, never emitted into a tuned header.
  int fault = 0;          // 1: out-of-bounds write, 2: infinite loop
  unsigned delay_ns = 0;  // extra spin per task

  int block_threads() const;
  // The launches that make one call of this variant: its feature slices (fused), else 1.
  int launch_slices() const { return family == Family::fused ? slices : 1; }
  int features_per_pass() const { return fl * vec * tiles; }
  // Readable id; parse() is its inverse and throws std::invalid_argument naming the bad part.
  std::string id() const;
  static VariantParams parse(const std::string& id);
  // The kernel's template instantiation, as NVRTC and nvcc name it.
  std::string kernel_name() const;
  // Its scalar twin's (fused kernels with vec > 1, else ""): the kernel the host launches
  // instead when the values rows are not vec-aligned (launch.h, values_rows_aligned). The same
  // instantiation as csrgat_fused_scalar_twin (FusedConfig::Scalar): vec 1, one tile, ilp 1,
  // smem 3 as 0, the other parameters kept.
  std::string scalar_kernel_name() const;
  // Why this parameter set cannot form a kernel (empty when it can).
  std::string invalid_reason() const;
  bool operator==(const VariantParams& o) const;
  bool operator!=(const VariantParams& o) const { return !(*this == o); }
};

std::ostream& operator<<(std::ostream& os, const VariantParams& p);

}  // namespace csrgat
