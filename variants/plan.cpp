#include "variants/plan.h"

#include <algorithm>
#include <cstring>

namespace csrgat {

namespace {
// The chunks of a row of degree d over the threshold: `threshold` edges each, the last shorter.
int64_t row_chunks(int64_t d, int64_t threshold) { return (d + threshold - 1) / threshold; }
}  // namespace

template <class Index>
std::vector<ChunkDesc> build_split_plan(const std::vector<Index>& row_ptr, int64_t threshold,
                                        int per_block) {
  std::vector<ChunkDesc> plan;
  if (threshold <= 0 || row_ptr.size() < 2) return plan;
  const bool pack = per_block >= 2;
  auto pad_to_block = [&] {
    while (plan.size() % per_block != 0)
      plan.push_back(ChunkDesc{-1, 0, 0, static_cast<int>(plan.size()), 0});
  };
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  for (int64_t r = 0; r < n; ++r) {
    const int64_t b = row_ptr[r], e = row_ptr[r + 1];
    if (e - b <= threshold) continue;
    const int count = static_cast<int>(row_chunks(e - b, threshold));
    if (pack && count <= per_block &&
        static_cast<int>(plan.size() % per_block) + count > per_block)
      pad_to_block();
    const int first = static_cast<int>(plan.size());
    for (int c = 0; c < count; ++c) {
      const int64_t cb = b + c * threshold;
      plan.push_back(ChunkDesc{r, cb, std::min(e, cb + threshold), first, count});
    }
  }
  if (pack) pad_to_block();
  return plan;
}
template std::vector<ChunkDesc> build_split_plan(const std::vector<int32_t>&, int64_t, int);
template std::vector<ChunkDesc> build_split_plan(const std::vector<int64_t>&, int64_t, int);

int64_t split_plan_size_bound(const std::vector<int64_t>& row_ptr, int64_t threshold, int per_block) {
  if (threshold <= 0 || row_ptr.size() < 2) return 0;
  int64_t chunks = 0;
  for (size_t r = 0; r + 1 < row_ptr.size(); ++r)
    if (const int64_t d = row_ptr[r + 1] - row_ptr[r]; d > threshold) chunks += row_chunks(d, threshold);
  return chunks * std::max(per_block, 1);
}

template <class Index>
std::vector<Index> build_row_order(const std::vector<Index>& row_ptr, int64_t split_threshold) {
  if (row_ptr.size() < 2) return {};
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  // Keys 2 .. 64: degree bucket, longest first; 65: empty rows and rows that chunks take.
  constexpr int kKeys = 66;
  auto key = [&](int64_t r) {
    const int64_t d = static_cast<int64_t>(row_ptr[r + 1]) - static_cast<int64_t>(row_ptr[r]);
    if (d <= 0) return kKeys - 1;
    if (split_threshold > 0 && d > split_threshold) return kKeys - 1;  // skipped: last
    int lg = 0;
    while ((d >> lg) > 1) ++lg;  // floor(log2(d)), 0 .. 62
    return 64 - lg;              // 2 .. 64; a larger degree comes first
  };
  std::vector<int64_t> start(kKeys + 1, 0);
  for (int64_t r = 0; r < n; ++r) ++start[key(r) + 1];
  for (int k = 0; k < kKeys; ++k) start[k + 1] += start[k];
  std::vector<Index> order(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) order[static_cast<size_t>(start[key(r)]++)] = static_cast<Index>(r);
  return order;
}
template std::vector<int32_t> build_row_order(const std::vector<int32_t>&, int64_t);
template std::vector<int64_t> build_row_order(const std::vector<int64_t>&, int64_t);

std::vector<unsigned char> row_order_bytes(const std::vector<int64_t>& row_ptr,
                                           int64_t split_threshold, bool int64) {
  const auto order = build_row_order(row_ptr, split_threshold);
  std::vector<unsigned char> bytes(order.size() * (int64 ? 8 : 4));
  if (int64) {
    std::memcpy(bytes.data(), order.data(), bytes.size());
  } else {
    for (size_t i = 0; i < order.size(); ++i) {
      const int32_t v = static_cast<int32_t>(order[i]);
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
  }
  return bytes;
}

LaunchGeometry launch_geometry(const VariantParams& p, int64_t num_rows, int heads, int feat,
                               int64_t num_chunks, int64_t max_degree, size_t smem_optin) {
  LaunchGeometry g;
  const int64_t tasks = (num_rows + num_chunks) * heads;
  switch (p.family) {
    case Family::fused:
      g.block = p.block_threads();
      g.grid = (tasks + p.rpb - 1) / p.rpb;
      break;
    case Family::seed:
      if (feat > 1024) {
        g.unsupported = "seed: F = " + std::to_string(feat) + " exceeds one thread per feature (1024)";
        return g;
      }
      g.block = (feat + 31) / 32 * 32;
      g.grid = num_rows * heads;
      g.dynamic_smem = static_cast<size_t>(max_degree) * sizeof(float);
      if (smem_optin && g.dynamic_smem > smem_optin) {
        g.unsupported = "seed: a row of degree " + std::to_string(max_degree) + " needs " +
                        std::to_string(g.dynamic_smem) + " bytes of shared memory, over the " +
                        std::to_string(smem_optin) + " a block can have";
        return g;
      }
      break;
    case Family::cusparse:
      g.block = 256;
      g.grid = (num_rows * heads + 7) / 8;
      break;
    case Family::colblock:
      // A persistent grid sized by its launcher (csrgat/colblock.h) from the occupancy API.
      g.unsupported = "colblock: its grid is sized by its own launcher (csrgat/colblock.h)";
      return g;
  }
  if (feat > kMaxFeat)
    g.unsupported =
        "F = " + std::to_string(feat) + " exceeds the 2^30 features the kernels count in 32 bits";
  else if (!tasks_fit_32bit(tasks, g.grid))
    g.unsupported = std::to_string(tasks) + " tasks exceed the 2^31 the kernels index in 32 bits";
  else if (p.family == Family::fused && p.slices > 1 && feat % p.slices != 0)
    g.unsupported = "F = " + std::to_string(feat) + " is not a multiple of the variant's " +
                    std::to_string(p.slices) + " feature slices (.fs" + std::to_string(p.slices) + ")";
  else if (p.family == Family::fused && p.index == IndexType::i32 && !row_stride_fits_32bit(heads, feat))
    g.unsupported = "H * F = " + std::to_string(static_cast<int64_t>(heads) * feat) +
                    " exceeds the 2^31 a values row's stride is held in";
  return g;
}

}  // namespace csrgat
