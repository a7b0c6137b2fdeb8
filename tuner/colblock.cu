#include "tuner/colblock.h"

#include <chrono>

#include <cub/device/device_segmented_sort.cuh>

#include "profiler/check.h"
#include "profiler/device_buffer.h"
#include "variants/colblock.cuh"
#include "variants/colblock_plan.h"

namespace csrgat::tuner {
namespace {

namespace cb = csrgat::colblock;
using profiler::DeviceBuffer;

// The probe's best configuration (docs/perf-notes.md, thirty-third session, call 13): a ring of
// K = 8 slots in groups of 4, RG = 10 register rows, 5 blocks an SM, bulk copies, no prefetch.
constexpr int kRing = 8, kGroup = 4, kRegRows = 10, kMinBlocks = 5;
constexpr int kWarpsPerBlock = 4;
const void* kernel_fn() {
  return reinterpret_cast<const void*>(
      &cb::tma_gather<kRing, kGroup, kRegRows, kMinBlocks, false, 0, false>);
}

// The plan's segments: batch i's edges start at row_ptr[min(n, i R)].
__global__ void plan_offsets(const int* row_ptr, int n, int rows_per_warp, int segments, int* off) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= segments)
    off[i] = row_ptr[min(static_cast<long long>(n), static_cast<long long>(i) * rows_per_warp)];
}

// A thread a row: its edges' keys (source partition) and items (col | row in batch << 24, offset
// from the batch's first edge), as build_plan packs them. `bad`: the lowest of the first bad
// edge's index (a source outside [0, n)) and 2^62 + the first row whose row_ptr decreases.
constexpr unsigned long long kBadRow = 1ull << 62;
__global__ void plan_items(const int* row_ptr, const int* col, int n, int rows_per_warp,
                           int part_shift, unsigned* keys, unsigned long long* items,
                           unsigned long long* bad) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int lo = row_ptr[r], hi = row_ptr[r + 1];
  if (hi < lo) {
    atomicMin(bad, kBadRow + static_cast<unsigned long long>(r));
    return;
  }
  const int r0 = r - r % rows_per_warp;
  const int first = row_ptr[r0];
  for (int k = lo; k < hi; ++k) {
    const int c = col[k];
    if (c < 0 || c >= n) {
      atomicMin(bad, static_cast<unsigned long long>(k));
      keys[k] = 0;
      continue;
    }
    keys[k] = static_cast<unsigned>(c) >> part_shift;
    items[k] = (static_cast<unsigned>(c) | static_cast<unsigned>(r - r0) << 24) |
               static_cast<unsigned long long>(static_cast<unsigned>(k - first)) << 32;
  }
}

}  // namespace

void build_plan_on_device(const int* row_ptr, const int* col, int64_t n, int64_t e,
                          int rows_per_warp, int part_shift, void* plan, cudaStream_t s) {
  cb::require_plannable(n, e, rows_per_warp, part_shift);
  int ends[2] = {0, 0};
  CSRGAT_CUDA_CHECK(cudaMemcpyAsync(&ends[0], row_ptr, sizeof(int), cudaMemcpyDeviceToHost, s));
  CSRGAT_CUDA_CHECK(cudaMemcpyAsync(&ends[1], row_ptr + n, sizeof(int), cudaMemcpyDeviceToHost, s));
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
  if (ends[0] != 0 || ends[1] != e)
    throw std::invalid_argument(
        "colblock plan: row_ptr must run from 0 to E = " + std::to_string(e) + "; it runs from " +
        std::to_string(ends[0]) + " to " + std::to_string(ends[1]));
  const int rows = static_cast<int>(n);
  const int segments = static_cast<int>((n + rows_per_warp - 1) / rows_per_warp);
  DeviceBuffer off((static_cast<size_t>(segments) + 1) * sizeof(int));
  DeviceBuffer keys_in(static_cast<size_t>(e) * sizeof(unsigned));
  DeviceBuffer keys_out(static_cast<size_t>(e) * sizeof(unsigned));
  DeviceBuffer items_in(static_cast<size_t>(e) * sizeof(unsigned long long));
  DeviceBuffer bad(sizeof(unsigned long long));
  CSRGAT_CUDA_CHECK(cudaMemsetAsync(bad.ptr, 0xff, sizeof(unsigned long long), s));
  plan_offsets<<<(segments + 256) / 256, 256, 0, s>>>(row_ptr, rows, rows_per_warp, segments,
                                                      off.as<int>());
  CSRGAT_CUDA_CHECK(cudaGetLastError());
  plan_items<<<(rows + 255) / 256, 256, 0, s>>>(
      row_ptr, col, rows, rows_per_warp, part_shift, keys_in.as<unsigned>(),
      items_in.as<unsigned long long>(), bad.as<unsigned long long>());
  CSRGAT_CUDA_CHECK(cudaGetLastError());
  unsigned long long first_bad = ~0ull;
  CSRGAT_CUDA_CHECK(
      cudaMemcpyAsync(&first_bad, bad.ptr, sizeof first_bad, cudaMemcpyDeviceToHost, s));
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
  if (first_bad != ~0ull) {
    if (first_bad >= kBadRow)
      throw cb::decreasing_row_ptr(static_cast<int64_t>(first_bad - kBadRow));
    int c = 0;
    CSRGAT_CUDA_CHECK(cudaMemcpy(&c, col + first_bad, sizeof c, cudaMemcpyDeviceToHost));
    throw cb::source_out_of_range(static_cast<int64_t>(first_bad), c, n);
  }
  if (e == 0) return;
  auto* items_out = static_cast<unsigned long long*>(plan);
  size_t temp_bytes = 0;
  CSRGAT_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      nullptr, temp_bytes, keys_in.as<unsigned>(), keys_out.as<unsigned>(),
      items_in.as<unsigned long long>(), items_out, static_cast<int>(e), segments, off.as<int>(),
      off.as<int>() + 1, s));
  DeviceBuffer temp(temp_bytes);
  CSRGAT_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      temp.ptr, temp_bytes, keys_in.as<unsigned>(), keys_out.as<unsigned>(),
      items_in.as<unsigned long long>(), items_out, static_cast<int>(e), segments, off.as<int>(),
      off.as<int>() + 1, s));
  CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
}

struct ColblockKernel::Impl {
  cb::StreamArgs args{};
  int blocks = 0;
  size_t smem = 0;
  double plan_seconds = 0;
  size_t plan_bytes = 0;
  bool plan_on_device = true;
  double x = 0;
  uint2* plan = nullptr;
  unsigned* steps = nullptr;
  unsigned* timeouts = nullptr;
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    cudaFree(plan);
    cudaFree(steps);
    cudaFree(timeouts);
  }
};

std::string ColblockKernel::unsupported(const graphs::Csr64& g, int heads, int feat,
                                        bool f32_values, int device, const ColblockOptions& o) {
  if (feat != 128)
    return "colblock: F = 128 only (a lane holds one float4 of a row), not " + std::to_string(feat);
  if (heads != 1) return "colblock: one head only, not " + std::to_string(heads);
  if (!f32_values) return "colblock: float32 values only";
  if (o.rows_per_warp < kRegRows || o.rows_per_warp > cb::kMaxRowsPerWarp)
    return "colblock: rows_per_warp = " + std::to_string(o.rows_per_warp) + ": " +
           std::to_string(kRegRows) + " (the compiled kernel's register rows) to " +
           std::to_string(cb::kMaxRowsPerWarp);
  if (const std::string why =
          cb::plan_unsupported(g.num_nodes, g.num_edges(), o.rows_per_warp, o.part_shift);
      !why.empty())
    return "colblock: " + why;
  if (const int64_t parts = (g.num_nodes + (int64_t{1} << o.part_shift) - 1) >> o.part_shift;
      parts > 4096)
    return "colblock: n = " + std::to_string(g.num_nodes) + " nodes make " + std::to_string(parts) +
           " partitions of 2^" + std::to_string(o.part_shift) +
           " sources, more than 4096 (the barrier's steps are counted in 32-bit words)";
  if (o.lag < 1 || o.lag >= cb::kSlotsRing)
    return "colblock: lag = " + std::to_string(o.lag) + ": 1 to " +
           std::to_string(cb::kSlotsRing - 1);
  int major = 0;
  CSRGAT_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9)
    return "colblock: bulk copies need sm_90 or later, the device is sm_" + std::to_string(major) +
           "x";
  // The code the runtime would load: a build without sm_90 SASS or PTX (CMAKE_CUDA_ARCHITECTURES
  // 80, say) carries a body that only traps.
  cudaFuncAttributes fa{};
  CSRGAT_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel_fn()));
  if (fa.binaryVersion < 90)
    return "colblock: this build's kernel is for sm_" + std::to_string(fa.binaryVersion) +
           " (it needs sm_90 or later: add 90 to CMAKE_CUDA_ARCHITECTURES)";
  return "";
}

ColblockKernel::ColblockKernel(const graphs::Csr64& g, const int* row_ptr, const int* col,
                               const float* scores, const float* values, float* out, int device,
                               const ColblockOptions& o)
    : impl_(std::make_unique<Impl>()) {
  if (const std::string why = unsupported(g, 1, 128, true, device, o); !why.empty())
    throw std::invalid_argument(why);
  Impl& m = *impl_;
  const auto t0 = std::chrono::steady_clock::now();
  m.plan_bytes = static_cast<size_t>(g.num_edges()) * sizeof(cb::PlanItem);
  CSRGAT_CUDA_CHECK(cudaMalloc(&m.plan, std::max<size_t>(m.plan_bytes, 16)));
  m.plan_on_device = o.plan_on_device;
  if (o.plan_on_device) {
    build_plan_on_device(row_ptr, col, g.num_nodes, g.num_edges(), o.rows_per_warp, o.part_shift,
                         m.plan);
  } else {
    const std::vector<cb::PlanItem> plan =
        cb::build_plan(g.row_ptr, g.col, g.num_nodes, o.rows_per_warp, o.part_shift);
    CSRGAT_CUDA_CHECK(cudaMemcpy(m.plan, plan.data(), m.plan_bytes, cudaMemcpyHostToDevice));
  }
  m.plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CSRGAT_CUDA_CHECK(cudaMalloc(&m.steps, cb::kBarrierBytes));
  CSRGAT_CUDA_CHECK(cudaMalloc(&m.timeouts, sizeof(unsigned)));
  CSRGAT_CUDA_CHECK(cudaMemset(m.timeouts, 0, sizeof(unsigned)));

  // A persistent grid: every block resident at once (the barrier paces the warps of one wave).
  m.smem = kWarpsPerBlock * cb::tma_warp_bytes(o.rows_per_warp, kRegRows, kRing);
  const void* fn = kernel_fn();
  // The limit belongs to the kernel, not to this object: only ever raised, so that another
  // instance with more rows a warp keeps launching.
  cudaFuncAttributes fa{};
  CSRGAT_CUDA_CHECK(cudaFuncGetAttributes(&fa, fn));
  if (static_cast<size_t>(fa.maxDynamicSharedSizeBytes) < m.smem)
    CSRGAT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(m.smem)));
  int per_sm = 0, sms = 0;
  CSRGAT_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, 32 * kWarpsPerBlock, m.smem));
  CSRGAT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (per_sm < 1)
    throw std::invalid_argument("colblock: no block fits an SM (" + std::to_string(m.smem) +
                                " bytes of shared memory)");
  m.blocks = per_sm * sms;

  cb::StreamArgs& a = m.args;
  a.row_ptr = row_ptr;
  a.scores = scores;
  a.values = reinterpret_cast<const float4*>(values);
  a.out = reinterpret_cast<float4*>(out);
  a.plan = m.plan;
  a.n = static_cast<int>(g.num_nodes);
  a.rows_per_warp = o.rows_per_warp;
  a.part_shift = o.part_shift;
  a.part_rows = 1 << o.part_shift;
  a.parts = static_cast<int>((g.num_nodes + a.part_rows - 1) / a.part_rows);
  a.cap = 0;  // the plan is the edges permuted in place
  a.lag = o.lag;
  a.total_warps = m.blocks * kWarpsPerBlock;
  const int64_t rows_per_batch = static_cast<int64_t>(a.total_warps) * o.rows_per_warp;
  a.batches = static_cast<int>((g.num_nodes + rows_per_batch - 1) / rows_per_batch);
  a.step_done = m.steps;
  a.timeouts = m.timeouts;
  a.spin_limit = o.spin_limit;
  a.poll_pause_ns = o.poll_pause_ns;
  m.x = g.num_nodes ? static_cast<double>(std::min<int64_t>(rows_per_batch, g.num_nodes)) *
                          (static_cast<double>(g.num_edges()) / g.num_nodes) / g.num_nodes
                    : 0.0;
}

ColblockKernel::~ColblockKernel() = default;

void ColblockKernel::launch(cudaStream_t s) const {
  CSRGAT_CUDA_CHECK(cudaMemsetAsync(impl_->steps, 0, cb::kBarrierBytes, s));
  cb::StreamArgs copy = impl_->args;
  void* params[] = {&copy};
  CSRGAT_CUDA_CHECK(cudaLaunchKernel(kernel_fn(), dim3(impl_->blocks), dim3(32 * kWarpsPerBlock),
                                     params, impl_->smem, s));
}

unsigned ColblockKernel::timeouts() const {
  unsigned t = 0;
  CSRGAT_CUDA_CHECK(cudaMemcpy(&t, impl_->timeouts, sizeof t, cudaMemcpyDeviceToHost));
  return t;
}

nlohmann::json ColblockKernel::describe() const {
  const cb::StreamArgs& a = impl_->args;
  return {{"blocks", impl_->blocks},
          {"warps_per_block", kWarpsPerBlock},
          {"smem_per_block", impl_->smem},
          {"rows_per_warp", a.rows_per_warp},
          {"register_rows", kRegRows},
          {"ring_slots", kRing},
          {"partition_rows", a.part_rows},
          {"partitions", a.parts},
          {"lag", a.lag},
          {"first_poll_sleep_ns", a.poll_pause_ns},
          {"batches", a.batches},
          {"x", impl_->x},
          {"plan_bytes", impl_->plan_bytes},
          {"plan_build_s", impl_->plan_seconds},
          {"plan_built_on", impl_->plan_on_device ? "device" : "host"},
          {"barrier_timeouts", timeouts()}};
}

}  // namespace csrgat::tuner
