// Host-side launch planning shared by the tuner (NVRTC kernels) and the production library
// (nvcc kernels): the long-row split plan and each family's launch geometry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "variants/kernel_args.h"
#include "variants/params.h"

namespace csrgat {

// Rows with degree > threshold become chunks of `threshold` edges (the last one shorter).
// Empty when threshold is 0 or no row is that long.
// per_block >= 2 (chunks_per_block): a block of the kernel runs per_block consecutive chunks
// (each with all its heads), and a row whose chunks all run in one block merges there after a
// barrier instead of through a fence and an atomic (fused_body). So a row of at most
// per_block chunks starts a new block when it would straddle one, and the plan ends on a block;
// the gaps are padding entries {row -1, no edges, count 0}, which the kernel skips.
template <class Index>
std::vector<ChunkDesc> build_split_plan(const std::vector<Index>& row_ptr, int64_t threshold,
                                        int per_block = 0);
// At least build_split_plan's size, computed without building it (its chunks, times per_block
// where it packs: the padding before a packed row is under per_block entries): so that a caller
// can refuse a plan whose 32-bit chunk numbers or tasks would overflow before it is built.
int64_t split_plan_size_bound(const std::vector<int64_t>& row_ptr, int64_t threshold, int per_block);

// build_split_plan's per_block for a launch: the chunks one block of a fused kernel runs (with
// all their heads) when it merges split rows inside blocks (`.bm`, block_merge): RPB / H where
// that is at least 2 and whole, for groups of at most a warp (TPR <= 32); else 0 (no packing:
// no block merges asked for, or a multi-warp group is a block of its own). The tuner and the
// library plan with it alike, and both launch with KernelArgs::block_merge only where it is
// not 0: a packed plan ends on a block, so its C * H chunk tasks are a multiple of RPB (even),
// which the kernel's block merge relies on (its (max, sum) pairs, after C * H rows of F
// floats, are read as 8-byte loads: odd F and an unpacked plan of odd C * H, e.g. H = 3 at
// RPB 8, would misalign them).
inline int chunks_per_block(bool block_merge, int tpr, int rpb, int heads) {
  if (!block_merge || tpr > 32 || heads < 1 || rpb % heads != 0 || rpb / heads < 2) return 0;
  return rpb / heads;
}
// The same for a fused variant's launch (the tuner's NVRTC kernels).
inline int chunks_per_block(const VariantParams& p, int heads) {
  return chunks_per_block(p.bm != 0, p.tpr, p.rpb, heads);
}

// The row order of the `.lpt` variants: rows bucketed by degree in powers of two (bucket k
// holds degrees in [2^k, 2^(k+1)), empty rows last), the longest bucket first, index order
// inside a bucket (neighbouring tasks keep reading neighbouring rows where degrees allow).
// Rows of degree > split_threshold (> 0), which row tasks skip, go last. A counting sort:
// O(N), stable.
template <class Index>
std::vector<Index> build_row_order(const std::vector<Index>& row_ptr, int64_t split_threshold);

// build_row_order's result as the kernel reads it (int32 or int64 values), as raw bytes for
// a device upload.
std::vector<unsigned char> row_order_bytes(const std::vector<int64_t>& row_ptr,
                                           int64_t split_threshold, bool int64);

// The kernels' 32-bit limits, for the tuner (launch_geometry) and the library (aggregate.cpp)
// alike: they number their tasks ((N + chunks) * H) and blocks in 32 bits, and the 32-bit-index
// kernels take a values row's offset as one 32 x 32-bit product (row_offset), so H * F too.
inline bool tasks_fit_32bit(int64_t tasks, int64_t grid) {
  return grid <= 0x7fffffffLL && tasks < (int64_t{1} << 31);
}
// The same for (rows + chunks) * heads tasks, with no product that can overflow (sizes from a
// caller; heads >= 1). Its grid, at least one task a block, fits when the tasks do.
inline bool tasks_fit_32bit(int64_t rows, int64_t chunks, int64_t heads) {
  const int64_t limit = ((int64_t{1} << 31) - 1) / heads;  // the most tasks per head
  return rows <= limit && chunks <= limit - rows;
}
inline bool row_stride_fits_32bit(int64_t heads, int64_t feat) {
  return heads * feat < (int64_t{1} << 31);
}
// The kernels walk a values row's features in int, a block's width at a time past the last:
// F up to 2^30 leaves that step room below 2^31 (a values row of 4 GB in float32).
inline constexpr int64_t kMaxFeat = int64_t{1} << 30;

struct LaunchGeometry {
  int64_t grid = 0;
  int block = 0;
  size_t dynamic_smem = 0;
  std::string unsupported;  // non-empty: this variant cannot run this problem, and why
};

// num_chunks: size of the split plan; max_degree: the graph's longest row;
// smem_optin: the device's opt-in shared memory per block (0: not known, no check).
LaunchGeometry launch_geometry(const VariantParams& p, int64_t num_rows, int heads, int feat,
                               int64_t num_chunks, int64_t max_degree, size_t smem_optin);

}  // namespace csrgat
