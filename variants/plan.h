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
template <class Index>
std::vector<ChunkDesc> build_split_plan(const std::vector<Index>& row_ptr, int64_t threshold);

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
