#include "variants/colblock_plan.h"

#include <algorithm>
#include <stdexcept>

namespace csrgat::colblock {

std::string plan_unsupported(int64_t n, int64_t e, int rows_per_warp, int part_shift) {
  if (n < 1) return "the graph has no nodes";
  if (n >= kMaxNodes)
    return "n = " + std::to_string(n) + " nodes: the plan packs sources in 24 bits (n < 2^24)";
  // The kernels index edges in int with a few chunks of headroom (a batch's chunks, a row's
  // statistics in steps of 16): E below 2^31 - 4096.
  if (e >= (int64_t{1} << 31) - 4096)
    return "E = " + std::to_string(e) + " edges: int32 edge offsets only (E < 2^31 - 4096)";
  if (rows_per_warp < 1 || rows_per_warp > kMaxRowsPerWarp)
    return "rows_per_warp = " + std::to_string(rows_per_warp) + ": 1 to " +
           std::to_string(kMaxRowsPerWarp);
  if (part_shift < 0 || part_shift > kMaxPartShift)
    return "part_shift = " + std::to_string(part_shift) + ": 0 to " + std::to_string(kMaxPartShift);
  return "";
}

std::string knobs_out_of_range(const Knobs& k) {
  const auto range = [](const char* name, int v, int lo, int hi, const char* lo_note = "") {
    return std::string(name) + " = " + std::to_string(v) + ": " + std::to_string(lo) + lo_note +
           " to " + std::to_string(hi);
  };
  if (k.rows_per_warp < kRegisterRows || k.rows_per_warp > kMaxRowsPerWarp)
    return range("r (rows_per_warp)", k.rows_per_warp, kRegisterRows, kMaxRowsPerWarp,
                 " (the kernel's register rows)");
  if (k.part_shift < 0 || k.part_shift > kMaxPartShift)
    return range("ps (part_shift, log2 of a partition's sources)", k.part_shift, 0, kMaxPartShift);
  if (k.lag < 1 || k.lag > kMaxLag) return range("lag", k.lag, 1, kMaxLag);
  // (a header edited by hand could ask for a second's sleep a poll)
  if (k.poll_pause_ns != 0 &&
      (k.poll_pause_ns < kMinPollPauseNs || k.poll_pause_ns > kMaxPollPauseNs))
    return range("pp (poll_pause_ns, the barrier's first sleep)", k.poll_pause_ns, kMinPollPauseNs,
                 kMaxPollPauseNs);
  if (k.l1_policy < 0 || k.l1_policy > kMaxL1Policy)
    return range("l1p (l1_policy, of the item and score loads)", k.l1_policy, 0, kMaxL1Policy);
  if (k.l1_policy != 0 && !k.float32_values)
    return "l1p (l1_policy) " + std::to_string(k.l1_policy) +
           " is compiled for float32 values only (bfloat16 takes 0)";
  if (k.tensor_cores && k.float32_values)
    return "mma (tensor_cores) is compiled for bfloat16 values only";
  if (k.tensor_cores && k.rows_per_warp > kMmaMaxRowsPerWarp)
    return range("r (rows_per_warp) with mma (tensor_cores)", k.rows_per_warp, kRegisterRows,
                 kMmaMaxRowsPerWarp);
  return "";
}

void require_plannable(int64_t n, int64_t e, int rows_per_warp, int part_shift) {
  if (const std::string why = plan_unsupported(n, e, rows_per_warp, part_shift); !why.empty())
    throw std::invalid_argument("colblock plan: " + why);
}

std::invalid_argument decreasing_row_ptr(int64_t r) {
  return std::invalid_argument("colblock plan: row_ptr[" + std::to_string(r + 1) + "] < row_ptr[" +
                               std::to_string(r) + "]");
}

std::invalid_argument source_out_of_range(int64_t k, int64_t c, int64_t n) {
  return std::invalid_argument("colblock plan: col[" + std::to_string(k) + "] = " +
                               std::to_string(c) + " is outside [0, " + std::to_string(n) + ")");
}

std::vector<PlanItem> build_plan(const std::vector<int64_t>& row_ptr,
                                 const std::vector<int64_t>& col, int64_t n, int rows_per_warp,
                                 int part_shift) {
  const int64_t e = static_cast<int64_t>(col.size());
  require_plannable(n, e, rows_per_warp, part_shift);
  if (static_cast<int64_t>(row_ptr.size()) != n + 1 || row_ptr.front() != 0 || row_ptr.back() != e)
    throw std::invalid_argument(
        "colblock plan: row_ptr must have n + 1 = " + std::to_string(n + 1) +
        " entries from 0 to E = col.size() = " + std::to_string(e) + "; it has " +
        std::to_string(row_ptr.size()) + " entries" +
        (row_ptr.empty() ? std::string()
                         : " from " + std::to_string(row_ptr.front()) + " to " +
                               std::to_string(row_ptr.back())));
  for (int64_t r = 0; r < n; ++r)
    if (row_ptr[r + 1] < row_ptr[r]) throw decreasing_row_ptr(r);
  std::vector<PlanItem> plan(static_cast<size_t>(e));
  std::vector<uint64_t> keys;   // (partition << 32 | offset): sorted, the stable partition order
  std::vector<uint8_t> row_of;  // the row within the group of each of the group's edges
  for (int64_t r0 = 0; r0 < n; r0 += rows_per_warp) {
    const int64_t r1 = std::min(n, r0 + rows_per_warp);
    const int64_t first = row_ptr[r0], last = row_ptr[r1];
    keys.clear();
    row_of.resize(static_cast<size_t>(last - first));
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
        if (col[k] < 0 || col[k] >= n) throw source_out_of_range(k, col[k], n);
        row_of[k - first] = static_cast<uint8_t>(r - r0);
        keys.push_back(static_cast<uint64_t>(col[k] >> part_shift) << 32 |
                       static_cast<uint64_t>(k - first));
      }
    }
    std::sort(keys.begin(), keys.end());
    for (size_t i = 0; i < keys.size(); ++i) {
      const uint32_t off = static_cast<uint32_t>(keys[i]);
      plan[first + i] = {
          static_cast<uint32_t>(col[first + off]) | static_cast<uint32_t>(row_of[off]) << 24, off};
    }
  }
  return plan;
}

}  // namespace csrgat::colblock
