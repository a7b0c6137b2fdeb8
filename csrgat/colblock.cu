#include "csrgat/colblock.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>

#include <cub/device/device_segmented_sort.cuh>

#include "variants/colblock.cuh"

namespace csrgat::colblock {
namespace {

#define CSRGAT_COLBLOCK_CHECK(expr)                                                             \
  do {                                                                                          \
    const cudaError_t csrgat_cb_e_ = (expr);                                                    \
    if (csrgat_cb_e_ != cudaSuccess)                                                            \
      throw CudaFailure(csrgat_cb_e_, std::string(#expr) +                                      \
                                          " failed: " + cudaGetErrorName(csrgat_cb_e_) + " (" + \
                                          cudaGetErrorString(csrgat_cb_e_) + ")");              \
  } while (0)

// Device memory freed on every path out.
struct Buffer {
  void* ptr = nullptr;
  explicit Buffer(size_t bytes) {
    CSRGAT_COLBLOCK_CHECK(cudaMalloc(&ptr, std::max<size_t>(bytes, 16)));
  }
  ~Buffer() { cudaFree(ptr); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

// 5 blocks of 4 warps an SM at 96 registers a thread. 6 (80 registers, 8 register rows, R 16 to
// fit shared memory: 384 rows an SM in flight where 5 x 4 x 19 hold 380) lost on an H100 (the
// fifty-sixth session: bfloat16 8-15% slower, float32 2.4%; long-scoreboard stalls doubled).
constexpr int kMinBlocks = 5;
// The group loop's trims (tma_gather's kTrim) and its groups: float32 at trim 15 in groups of 4,
// bfloat16 at trim 127 in groups of 8. Bit 4 reads a group's refill sources before its wait, bit
// 5 fetches a chunk's items a chunk ahead, bit 6 spaces the barrier's polls by a timed pause
// (the geometry's poll_pause_ns). On an H100, side by side: the fifty-fourth session, bfloat16
// 1.2% faster at 31 than at 15, 4.1% faster again at 63; the fifty-fifth, bfloat16 at 127 in
// groups of 8 4.1% faster than 63 in groups of 4 (groups of 8 alone 1.8%, bit 6 alone 0.3%);
// float32, DRAM-bound there, 0.5% slower at 31, 0.8% at 47, 0.2% faster at 79 at a 1024 ns
// pause (docs/perf-notes.md). The float32 sweep keeps 15: the tuned header's pause for it is
// 4096 ns, which bit 6 would make a real 4 us between polls, never measured on it.
constexpr int kFloat32Group = 4, kFloat32Trim = 15;
constexpr int kBfloat16Group = 8, kBfloat16Trim = 127;
// The instance for a value storage and L1 policy (problem_unsupported() admits the pairs
// compiled; others throw Unsupported): bfloat16 rows as unsigned short (their bits are all the
// kernel needs: a float32's upper half), policy 0 only.
template <int L1P>
const void* float32_kernel() {
  return reinterpret_cast<const void*>(
      &tma_gather<ring_slots(kFloat32), kFloat32Group, kRegisterRows, kMinBlocks, false, 0, false,
                  float, L1P, kFloat32Trim>);
}
// The tensor-core sweep (Geometry::tensor_cores): mma_gather with its rows in 3 register tiles
// of 8 (R at most 24), 3 blocks of 4 warps an SM (168 registers), at trim 33: bit 0, the library's
// copy form (sources read before a group's first copy; on an H100 the fifty-eighth session
// measured it 1.2-2.2% faster than the bfloat16 sweep at 127), and bit 5, the finite contract (a
// non-finite value reaches only the rows that gather it, as in tma_gather and the reference).
constexpr int kMmaRowTiles = kMmaMaxRowsPerWarp / 8, kMmaMinBlocks = 3, kMmaTrim = 33;
static_assert(kMmaRowTiles * 8 == kMmaMaxRowsPerWarp, "whole row tiles");
const void* kernel_fn(int value, int l1_policy, bool tensor_cores) {
  if (tensor_cores) {
    if (value == kBfloat16 && l1_policy == 0)
      return reinterpret_cast<const void*>(
          &mma_gather<kMmaRowTiles, 0, kMmaMinBlocks, false, kMmaTrim>);
    throw Unsupported(
        "colblock: the tensor-core sweep is compiled for bfloat16 values with "
        "l1_policy 0 only, not value storage " +
        std::to_string(value) + " with l1_policy " + std::to_string(l1_policy));
  }
  if (value == kBfloat16 && l1_policy == 0)
    return reinterpret_cast<const void*>(
        &tma_gather<ring_slots(kBfloat16), kBfloat16Group, kRegisterRows, kMinBlocks, false, 0,
                    false, unsigned short, 0, kBfloat16Trim>);
  static_assert(kMaxL1Policy == 3, "an instance a policy");
  if (value == kFloat32) switch (l1_policy) {
      case 0:
        return float32_kernel<0>();
      case 1:
        return float32_kernel<1>();
      case 2:
        return float32_kernel<2>();
      case 3:
        return float32_kernel<3>();
      default:
        break;
    }
  throw Unsupported("colblock: no kernel compiled for value storage " + std::to_string(value) +
                    " with l1_policy " + std::to_string(l1_policy));
}
int row_bytes(int value) {
  return value == kBfloat16 ? 256 : 512;
}

// The plan's segments: batch i's edges start at row_ptr[min(n, i R)].
__global__ void plan_offsets(const int* row_ptr, int n, int rows_per_warp, int segments, int* off) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= segments)
    off[i] = row_ptr[min(static_cast<long long>(n), static_cast<long long>(i) * rows_per_warp)];
}

// A thread a row: its edges' keys (source partition) and items (col | row in batch << 24, offset
// from the batch's first edge), as build_plan packs them. `bad`: the lowest of the first row whose
// row_ptr decreases (or leaves [0, e], or starts before its batch's first edge) and 2^62 + the
// first bad edge's index (a source outside [0, n)): a malformed row_ptr is named before any
// column, as build_plan does (the columns are found through it), and such a row writes nothing,
// so that it is reported, never written through.
constexpr unsigned long long kBadEdge = 1ull << 62;
__global__ void plan_items(const int* row_ptr, const int* col, int n, int e, int rows_per_warp,
                           int part_shift, unsigned* keys, unsigned long long* items,
                           unsigned long long* bad) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int lo = row_ptr[r], hi = row_ptr[r + 1];
  const int r0 = r - r % rows_per_warp;
  const int first = row_ptr[r0];
  if (hi < lo || lo < 0 || hi > e || first < 0 || first > lo) {
    atomicMin(bad, static_cast<unsigned long long>(r));
    return;
  }
  for (int k = lo; k < hi; ++k) {
    const int c = col[k];
    if (c < 0 || c >= n) {
      atomicMin(bad, kBadEdge + static_cast<unsigned long long>(k));
      keys[k] = 0;
      continue;
    }
    keys[k] = static_cast<unsigned>(c) >> part_shift;
    items[k] = (static_cast<unsigned>(c) | static_cast<unsigned>(r - r0) << 24) |
               static_cast<unsigned long long>(static_cast<unsigned>(k - first)) << 32;
  }
}

}  // namespace

cudaFuncAttributes kernel_attributes(int value, int l1_policy, bool tensor_cores) {
  cudaFuncAttributes fa{};
  CSRGAT_COLBLOCK_CHECK(cudaFuncGetAttributes(&fa, kernel_fn(value, l1_policy, tensor_cores)));
  return fa;
}

std::string problem_unsupported(int64_t n, int64_t e, int heads, int feat, int value,
                                const Geometry& g) {
  if (feat != 128)
    return "colblock: F = 128 only (a lane holds one float4 of a row), not " + std::to_string(feat);
  if (heads != 1) return "colblock: one head only, not " + std::to_string(heads);
  if (value != kFloat32 && value != kBfloat16) return "colblock: float32 or bfloat16 values only";
  if (const std::string why =
          knobs_out_of_range({g.rows_per_warp, g.part_shift, g.lag, g.poll_pause_ns, g.l1_policy,
                              value == kFloat32, g.tensor_cores});
      !why.empty())
    return "colblock: " + why;
  if (const std::string why = plan_unsupported(n, e, g.rows_per_warp, g.part_shift); !why.empty())
    return "colblock: " + why;
  if (const int64_t parts = (n + (int64_t{1} << g.part_shift) - 1) >> g.part_shift; parts > 4096)
    return "colblock: n = " + std::to_string(n) + " nodes make " + std::to_string(parts) +
           " partitions of 2^" + std::to_string(g.part_shift) +
           " sources, more than 4096 (the barrier's steps are counted in 32-bit words)";
  return "";
}

std::string unsupported(int64_t n, int64_t e, int heads, int feat, int value, int device,
                        const Geometry& g) {
  if (std::string why = problem_unsupported(n, e, heads, feat, value, g); !why.empty()) return why;
  int major = 0;
  CSRGAT_COLBLOCK_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9)
    return "colblock: bulk copies need sm_90 or later, the device is sm_" + std::to_string(major) +
           "x";
  // The code the runtime would load: a build without sm_90 SASS or PTX (CMAKE_CUDA_ARCHITECTURES
  // 80, say) carries a body that only traps, and its compute_80 PTX, JIT-compiled for the
  // device, reports the device's binary version: its PTX version says what it is.
  cudaFuncAttributes fa{};
  CSRGAT_COLBLOCK_CHECK(cudaFuncGetAttributes(&fa, kernel_fn(value, g.l1_policy, g.tensor_cores)));
  if (fa.binaryVersion < 90 || (fa.ptxVersion != 0 && fa.ptxVersion < 90))
    return "colblock: this build's kernel is for sm_" +
           std::to_string(fa.ptxVersion != 0 && fa.ptxVersion < 90 ? fa.ptxVersion
                                                                   : fa.binaryVersion) +
           " (it needs sm_90 or later: add 90 to CMAKE_CUDA_ARCHITECTURES)";
  return "";
}

void build_plan_on_device(const int* row_ptr, const int* col, int64_t n, int64_t e,
                          int rows_per_warp, int part_shift, void* plan, cudaStream_t s) {
  require_plannable(n, e, rows_per_warp, part_shift);
  int ends[2] = {0, 0};
  CSRGAT_COLBLOCK_CHECK(cudaMemcpyAsync(&ends[0], row_ptr, sizeof(int), cudaMemcpyDeviceToHost, s));
  CSRGAT_COLBLOCK_CHECK(
      cudaMemcpyAsync(&ends[1], row_ptr + n, sizeof(int), cudaMemcpyDeviceToHost, s));
  CSRGAT_COLBLOCK_CHECK(cudaStreamSynchronize(s));
  if (ends[0] != 0 || ends[1] != e)
    throw std::invalid_argument(
        "colblock plan: row_ptr must run from 0 to E = " + std::to_string(e) + "; it runs from " +
        std::to_string(ends[0]) + " to " + std::to_string(ends[1]));
  const int rows = static_cast<int>(n);
  const int segments = static_cast<int>((n + rows_per_warp - 1) / rows_per_warp);
  Buffer off((static_cast<size_t>(segments) + 1) * sizeof(int));
  Buffer keys_in(static_cast<size_t>(e) * sizeof(unsigned));
  Buffer keys_out(static_cast<size_t>(e) * sizeof(unsigned));
  Buffer items_in(static_cast<size_t>(e) * sizeof(unsigned long long));
  Buffer bad(sizeof(unsigned long long));
  CSRGAT_COLBLOCK_CHECK(cudaMemsetAsync(bad.ptr, 0xff, sizeof(unsigned long long), s));
  plan_offsets<<<(segments + 256) / 256, 256, 0, s>>>(row_ptr, rows, rows_per_warp, segments,
                                                      off.as<int>());
  CSRGAT_COLBLOCK_CHECK(cudaGetLastError());
  plan_items<<<(rows + 255) / 256, 256, 0, s>>>(
      row_ptr, col, rows, static_cast<int>(e), rows_per_warp, part_shift, keys_in.as<unsigned>(),
      items_in.as<unsigned long long>(), bad.as<unsigned long long>());
  CSRGAT_COLBLOCK_CHECK(cudaGetLastError());
  unsigned long long first_bad = ~0ull;
  CSRGAT_COLBLOCK_CHECK(
      cudaMemcpyAsync(&first_bad, bad.ptr, sizeof first_bad, cudaMemcpyDeviceToHost, s));
  CSRGAT_COLBLOCK_CHECK(cudaStreamSynchronize(s));
  if (first_bad != ~0ull) {
    if (first_bad < kBadEdge) {
      const int64_t r = static_cast<int64_t>(first_bad);
      int lohi[2] = {0, 0};
      CSRGAT_COLBLOCK_CHECK(cudaMemcpy(lohi, row_ptr + r, sizeof lohi, cudaMemcpyDeviceToHost));
      if (lohi[1] < lohi[0]) throw decreasing_row_ptr(r);
      throw std::invalid_argument("colblock plan: row " + std::to_string(r) + "'s edges [" +
                                  std::to_string(lohi[0]) + ", " + std::to_string(lohi[1]) +
                                  ") are not inside [0, E = " + std::to_string(e) +
                                  ") after its batch's first edge: row_ptr is not a CSR row_ptr");
    }
    const int64_t k = static_cast<int64_t>(first_bad - kBadEdge);
    int c = 0;
    CSRGAT_COLBLOCK_CHECK(cudaMemcpy(&c, col + k, sizeof c, cudaMemcpyDeviceToHost));
    throw source_out_of_range(k, c, n);
  }
  if (e == 0) return;
  auto* items_out = static_cast<unsigned long long*>(plan);
  size_t temp_bytes = 0;
  CSRGAT_COLBLOCK_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      nullptr, temp_bytes, keys_in.as<unsigned>(), keys_out.as<unsigned>(),
      items_in.as<unsigned long long>(), items_out, static_cast<int>(e), segments, off.as<int>(),
      off.as<int>() + 1, s));
  Buffer temp(temp_bytes);
  CSRGAT_COLBLOCK_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
      temp.ptr, temp_bytes, keys_in.as<unsigned>(), keys_out.as<unsigned>(),
      items_in.as<unsigned long long>(), items_out, static_cast<int>(e), segments, off.as<int>(),
      off.as<int>() + 1, s));
  CSRGAT_COLBLOCK_CHECK(cudaStreamSynchronize(s));
}

struct Sweep::Impl {
  StreamArgs args{};
  Geometry geometry;
  Info info;
  int device = -1;
  int value = kFloat32;
  const int* col = nullptr;
  const void* fn = nullptr;  // the kernel instance (finish())
  std::unique_ptr<Buffer> plan, steps, timeouts;

  // The plan's buffer (e items), then whichever planner fills it, then the rest.
  Impl(const int* row_ptr, int64_t n, int64_t e, const Geometry& g, int value_)
      : geometry(g), value(value_) {
    CSRGAT_COLBLOCK_CHECK(cudaGetDevice(&device));
    if (const std::string why = unsupported(n, e, 1, 128, value, device, g); !why.empty())
      throw Unsupported(why);
    info.plan_bytes = static_cast<size_t>(e) * sizeof(PlanItem);
    plan = std::make_unique<Buffer>(info.plan_bytes);
    args.row_ptr = row_ptr;
    args.n = static_cast<int>(n);
    (void)e;
  }

  // After the plan: the barrier's memory and the persistent grid.
  void finish(int64_t n, int64_t e) {
    steps = std::make_unique<Buffer>(kBarrierBytes);
    timeouts = std::make_unique<Buffer>(sizeof(unsigned));
    // Written before the constructor returns, so that a first launch on any stream sees it
    // (cudaMemset alone may return before a device write is done).
    CSRGAT_COLBLOCK_CHECK(cudaMemsetAsync(timeouts->ptr, 0, sizeof(unsigned), 0));
    CSRGAT_COLBLOCK_CHECK(cudaStreamSynchronize(0));
    // A persistent grid: every block resident at once (the barrier paces the warps of one wave).
    info.smem_per_block =
        kWarpsPerBlock * (geometry.tensor_cores
                              ? mma_warp_bytes(kMmaRowTiles, 0)
                              : tma_warp_bytes(geometry.rows_per_warp, kRegisterRows,
                                               ring_slots(value), row_bytes(value)));
    fn = kernel_fn(value, geometry.l1_policy, geometry.tensor_cores);
    const char* name = nullptr;
    CSRGAT_COLBLOCK_CHECK(cudaFuncGetName(&name, fn));
    info.kernel = name ? name : "";
    // The limit belongs to the kernel, not to this object: only ever raised (under a lock, so
    // that two threads' Sweeps cannot lower it under each other), so that another instance with
    // more rows a warp keeps launching.
    {
      static std::mutex m;
      std::lock_guard<std::mutex> lock(m);
      cudaFuncAttributes fa{};
      CSRGAT_COLBLOCK_CHECK(cudaFuncGetAttributes(&fa, fn));
      if (static_cast<size_t>(fa.maxDynamicSharedSizeBytes) < info.smem_per_block)
        CSRGAT_COLBLOCK_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(info.smem_per_block)));
    }
    int per_sm = 0, sms = 0;
    CSRGAT_COLBLOCK_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, fn, 32 * kWarpsPerBlock, info.smem_per_block));
    CSRGAT_COLBLOCK_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (per_sm < 1)
      throw Unsupported("colblock: no block fits an SM (" + std::to_string(info.smem_per_block) +
                        " bytes of shared memory)");
    info.blocks = per_sm * sms;

    StreamArgs& a = args;
    a.plan = plan->as<uint2>();
    a.rows_per_warp = geometry.rows_per_warp;
    a.part_shift = geometry.part_shift;
    a.part_rows = 1 << geometry.part_shift;
    a.parts = static_cast<int>((n + a.part_rows - 1) / a.part_rows);
    a.cap = 0;  // the plan is the edges permuted in place
    a.lag = geometry.lag;
    a.total_warps = info.blocks * kWarpsPerBlock;
    const int64_t rows_per_batch = static_cast<int64_t>(a.total_warps) * geometry.rows_per_warp;
    a.batches = static_cast<int>((n + rows_per_batch - 1) / rows_per_batch);
    a.step_done = steps->as<unsigned>();
    a.timeouts = timeouts->as<unsigned>();
    a.spin_limit = geometry.spin_limit;
    a.poll_pause_ns = poll_pause_ns_for(geometry.poll_pause_ns, value == kFloat32);
    info.partitions = a.parts;
    info.batches = a.batches;
    info.x = static_cast<double>(std::min<int64_t>(rows_per_batch, n)) *
             (static_cast<double>(e) / static_cast<double>(n)) / static_cast<double>(n);
  }
};

Sweep::Sweep(const int* row_ptr, const int* col, int64_t n, int64_t e, const Geometry& g, int value)
    : impl_(std::make_unique<Impl>(row_ptr, n, e, g, value)) {
  const auto t0 = std::chrono::steady_clock::now();
  build_plan_on_device(row_ptr, col, n, e, g.rows_per_warp, g.part_shift, impl_->plan->ptr);
  impl_->info.plan_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  impl_->col = col;
  impl_->finish(n, e);
}

Sweep::Sweep(const int* row_ptr, const std::vector<PlanItem>& host_plan, int64_t n,
             const Geometry& g, int value)
    : impl_(std::make_unique<Impl>(row_ptr, n, static_cast<int64_t>(host_plan.size()), g, value)) {
  const auto t0 = std::chrono::steady_clock::now();
  CSRGAT_COLBLOCK_CHECK(cudaMemcpy(impl_->plan->ptr, host_plan.data(), impl_->info.plan_bytes,
                                   cudaMemcpyHostToDevice));
  impl_->info.plan_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  impl_->info.plan_on_device = false;
  impl_->finish(n, static_cast<int64_t>(host_plan.size()));
}

Sweep::~Sweep() = default;

cudaError_t Sweep::launch(const float* scores, const void* values, float* out,
                          cudaStream_t s) const {
  // Bulk copies and float4 stores: a misaligned row would fault, losing the context.
  if (reinterpret_cast<uintptr_t>(values) % 16 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0)
    return cudaErrorInvalidValue;
  if (const cudaError_t e = cudaMemsetAsync(impl_->steps->ptr, 0, kBarrierBytes, s);
      e != cudaSuccess)
    return e;
  StreamArgs a = impl_->args;
  a.scores = scores;
  a.values = reinterpret_cast<const float4*>(values);
  a.out = reinterpret_cast<float4*>(out);
  void* params[] = {&a};
  return cudaLaunchKernel(impl_->fn, dim3(impl_->info.blocks), dim3(32 * kWarpsPerBlock), params,
                          impl_->info.smem_per_block, s);
}

unsigned Sweep::timeouts() const {
  unsigned t = 0;
  CSRGAT_COLBLOCK_CHECK(cudaMemcpy(&t, impl_->timeouts->ptr, sizeof t, cudaMemcpyDeviceToHost));
  return t;
}

const Sweep::Info& Sweep::info() const {
  return impl_->info;
}
const Geometry& Sweep::geometry() const {
  return impl_->geometry;
}
const int* Sweep::row_ptr() const {
  return impl_->args.row_ptr;
}
const int* Sweep::col() const {
  return impl_->col;
}
int Sweep::device() const {
  return impl_->device;
}
int Sweep::value() const {
  return impl_->value;
}

}  // namespace csrgat::colblock
