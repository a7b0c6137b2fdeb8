// csrgat fused family: one launch computes, for every destination row d and head h,
//   out[d, h, :] = sum_e softmax_e(scores[row d, h]) * values[col[e], h, :]
// with no edge-sized temporaries.
//
// Work mapping. A *group* of TPR threads owns one task: a (row, head) pair, or a chunk of a
// long row. TPR <= 32 is a sub-warp (RPB groups share a block); TPR > 32 is TPR/32 warps of
// one block (RPB must be 1), each warp taking every (TPR/32)-th batch of edges. Inside a
// warp, FL lanes cover the feature axis (VEC elements per load, TILES loads per lane, so one
// pass covers FL*VEC*TILES features; wider F loops) and the WARP_TPR/FL *edge slots* take
// different edges of the same batch, merged at the end.
//
// Edges go in batches of EPL*WARP_TPR: lane i loads col and score of edges i, i + WARP_TPR, ...
// once, computes their softmax weights, and the slots receive (col, weight) by warp shuffle
// (SMEM=0) or through shared memory (SMEM=1, EPL=1). Each slot then issues EPL*FL independent
// gathers per batch (EPL=2 doubles the bytes in flight, which 16-bit values need to match the
// f32 path), ILP entries at a time: the ILP entries' loads go out before their FMAs.
// Online softmax keeps each lane's share of the sum and adds the shares once per task; the
// batch max of a whole warp is one redux.sync.
// SMEM=2 (direct) drops the broadcast: each lane loads its slot's col and score itself (the
// slot's lanes hit one address, an L1 broadcast), 4 edges at a time, and with ONLINE=1 keeps a
// running max per slot, merged once per row; no shuffle sits inside the edge loop.
// SMEM=3 (async) is the shuffle batch mode with the gathers staged through shared memory:
// each lane copies its 16-byte pieces of a group of ILP entries with cp.async (global to
// shared, no registers held while the bytes are in flight), starts the next group's copies,
// waits for the first group and does its FMAs from shared memory; two groups in flight per
// slot, double-buffered. Each lane reads only the bytes it copied itself, so no barrier is
// needed. Register pressure then follows the accumulators, not the bytes in flight (the bf16
// rows of perf-notes' eighth session spilled 7.7 KB per thread at 64 registers).
//
// Softmax. ONLINE=0 (two-pass): a first pass over the scores finds the row's max and sum, the
// second aggregates with final weights. ONLINE=1: one pass with a running max per warp,
// rescaling the accumulators when the max grows (the flash-attention rule).
//
// Long rows (degree > split_threshold) are cut into chunks by the host plan; chunk tasks run
// first and write (max, sum, normalised acc); the last chunk of a row to finish merges them
// with the log-sum-exp rule. So a row of a million edges spreads over the whole GPU.
// Row tasks take rows in index order, or (LPT = 1, the `.lpt` variants) in a host-built order
// (KernelArgs::row_order: longest rows first) so that no long row starts when the others are
// done.
//
// Launches may overlap the previous kernel of the stream (programmatic dependent launch, a
// launch attribute; see pdl_wait): every block lets the next kernel start at once, and waits
// for the previous one only after reading its task's row_ptr entries or chunk descriptor and,
// in the online batch modes, its first batch's columns.
//
// Semantics (matching the float64 reference): an empty row gives 0; a score of -inf has
// weight 0; a row whose scores are all -inf gives 0; large finite scores (1e30) do not
// overflow because the max is subtracted before exponentiating.
//
// Limits: F and N are run-time values; a kernel with VEC > 1 needs VEC-aligned values rows
// (F % VEC == 0 and an aligned base); for other rows the host launches its scalar twin, the
// VEC = 1 kernel of the same launch (FusedConfig::Scalar, csrgat_fused_scalar_twin); the vector
// kernel traps when launched on rows it cannot load. 1 <= TPR <= 1024.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "variants/kernel_args.h"

namespace csrgat::kern {

constexpr float kLog2e = 1.4426950408889634f;

__device__ __forceinline__ float neg_inf() {
  return __int_as_float(0xff800000);
}
// e^x as one MUFU.EX2 with subnormal results flushed to zero. exp2f (no ftz) scales arguments
// below -126 around the MUFU (FSETP and two predicated FMULs, three more instructions on every
// exponential's chain); every exponential here is exp(s - max) <= 1 of a softmax weight or a
// rescale, where e^x < 2^-126 against a weight of 1 is nothing the float32 sums can hold.
// (Twenty-third session: a short row's chain and the block merge are latency, call 5.)
__device__ __forceinline__ float fast_exp(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * kLog2e));
  return y;
}

template <class T>
__device__ __forceinline__ float to_float(T x);
template <>
__device__ __forceinline__ float to_float<float>(float x) {
  return x;
}
template <>
__device__ __forceinline__ float to_float<__nv_bfloat16>(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <>
__device__ __forceinline__ float to_float<__half>(__half x) {
  return __half2float(x);
}

// Stores of results: float32 (partial rows, and out of the float32-out kernels), or out in the
// values' 16-bit type (the `.o16` kernels, FusedConfig::OUT16), each result rounded to nearest
// even from its float32 sum. store4 writes 4 consecutive results (aligned to 4 * sizeof(D)).
__device__ __forceinline__ void store4(float* p, float4 x) {
  *reinterpret_cast<float4*>(p) = x;
}
__device__ __forceinline__ void store1(float* p, float x) {
  *p = x;
}
__device__ __forceinline__ unsigned bits2(__nv_bfloat162 v) {
  return static_cast<unsigned>(__bfloat16_as_ushort(v.x)) |
         static_cast<unsigned>(__bfloat16_as_ushort(v.y)) << 16;
}
__device__ __forceinline__ unsigned bits2(__half2 v) {
  return static_cast<unsigned>(__half_as_ushort(v.x)) | static_cast<unsigned>(__half_as_ushort(v.y))
                                                            << 16;
}
__device__ __forceinline__ void store4(__nv_bfloat16* p, float4 x) {
  *reinterpret_cast<uint2*>(p) =
      make_uint2(bits2(__floats2bfloat162_rn(x.x, x.y)), bits2(__floats2bfloat162_rn(x.z, x.w)));
}
__device__ __forceinline__ void store1(__nv_bfloat16* p, float x) {
  *p = __float2bfloat16_rn(x);
}
__device__ __forceinline__ void store4(__half* p, float4 x) {
  *reinterpret_cast<uint2*>(p) =
      make_uint2(bits2(__floats2half2_rn(x.x, x.y)), bits2(__floats2half2_rn(x.z, x.w)));
}
__device__ __forceinline__ void store1(__half* p, float x) {
  *p = __float2half_rn(x);
}
// std::conditional: the NVRTC-compiled kernel source includes no standard library header.
template <bool B, class T, class F>
struct Cond {
  using type = T;
};
template <class T, class F>
struct Cond<false, T, F> {
  using type = F;
};

template <int Bytes>
struct VecStorage;
template <>
struct VecStorage<2> {
  using type = unsigned short;
};
template <>
struct VecStorage<4> {
  using type = unsigned int;
};
template <>
struct VecStorage<8> {
  using type = uint2;
};
template <>
struct VecStorage<16> {
  using type = uint4;
};

// The V elements packed in s, converted to float.
template <class T, int V>
__device__ __forceinline__ void unpack_vec(typename VecStorage<V * sizeof(T)>::type s,
                                           float (&o)[V]) {
  union {
    typename VecStorage<V * sizeof(T)>::type s;
    T t[V];
  } u;
  u.s = s;
#pragma unroll
  for (int k = 0; k < V; ++k) o[k] = to_float<T>(u.t[k]);
}
// V consecutive elements at p (aligned to V * sizeof(T)), converted to float.
// A coherent load (ld.global.ca), not the read-only path (__ldg, ld.global.nc): the values may
// be written by the previous kernel while this one runs (an overlapped launch, pdl_wait), and
// .nc tells ptxas they are read-only for the whole kernel, so it may hoist such loads above
// griddepcontrol.wait. It did, in a bf16 kernel whose gather addresses are known before the
// wait: the thirteenth session's late-producer check (tuner/verify.h) read NaN (perf-notes).
template <class T, int V>
__device__ __forceinline__ void load_vec(const T* __restrict__ p, float (&o)[V]) {
  using S = typename VecStorage<V * sizeof(T)>::type;
  unpack_vec<T, V>(__ldca(reinterpret_cast<const S*>(p)), o);
}

// a[k] for a run-time k < N by selects: the array stays in registers.
template <int N, class T>
__device__ __forceinline__ T pick(const T (&a)[N], int k) {
  T r = a[0];
#pragma unroll
  for (int q = 1; q < N; ++q) r = k == q ? a[q] : r;
  return r;
}

// cp.async (sm_80+): 16 bytes from global memory to shared memory without passing through
// registers; src_bytes 0 writes 16 zero bytes and reads nothing. Groups: commit closes the
// copies issued since the last one; wait<N> returns when at most N groups are still pending,
// and makes the finished copies visible to this thread.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, int src_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem),
               "r"(src_bytes)
               : "memory");
#else
  *static_cast<uint4*>(smem) =
      src_bytes ? *static_cast<const uint4*>(gmem) : make_uint4(0u, 0u, 0u, 0u);
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// (max, sum) of exp(x - max) pairs, merged by the log-sum-exp rule; -inf max means empty.
struct Stat {
  float m;
  float l;
};
__device__ __forceinline__ Stat merge(Stat a, Stat b) {
  const float m = fmaxf(a.m, b.m);
  if (m == neg_inf()) return {m, 0.f};
  return {m, a.l * fast_exp(a.m - m) + b.l * fast_exp(b.m - m)};
}
__device__ __forceinline__ Stat add_score(Stat a, float s) {
  if (s == neg_inf()) return a;
  if (s > a.m) return {s, a.l * fast_exp(a.m - s) + 1.f};
  return {a.m, a.l + fast_exp(s - a.m)};
}

template <int Width>
__device__ __forceinline__ Stat warp_merge_stat(Stat s, unsigned mask) {
#pragma unroll
  for (int off = Width / 2; off > 0; off /= 2) {
    Stat o{__shfl_xor_sync(mask, s.m, off, Width), __shfl_xor_sync(mask, s.l, off, Width)};
    s = merge(s, o);
  }
  return s;
}
template <int Width>
__device__ __forceinline__ float warp_max(float x, unsigned mask) {
#pragma unroll
  for (int off = Width / 2; off > 0; off /= 2) x = fmaxf(x, __shfl_xor_sync(mask, x, off, Width));
  return x;
}
// Max over a group of Width lanes. A whole warp uses one redux.sync on the float's
// order-preserving integer image (sign-magnitude to two's complement; -inf stays lowest)
// instead of five shuffle-and-max steps; sub-warp groups use the shuffle tree.
template <int Width>
__device__ __forceinline__ float group_max(float x, unsigned mask) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Width == 32) {
    const int b = __float_as_int(x);
    const int key = b >= 0 ? b : b ^ 0x7fffffff;
    const int m = __reduce_max_sync(mask, key);
    return __int_as_float(m >= 0 ? m : m ^ 0x7fffffff);
  }
#endif
  return warp_max<Width>(x, mask);
}

template <int Width>
__device__ __forceinline__ float warp_sum(float x, unsigned mask) {
#pragma unroll
  for (int off = Width / 2; off > 0; off /= 2) x += __shfl_xor_sync(mask, x, off, Width);
  return x;
}

// Lanes of this thread's sub-warp group of Width threads (Width divides 32).
template <int Width>
__device__ __forceinline__ unsigned group_mask() {
  if (Width >= 32) return 0xffffffffu;
  const unsigned lane = threadIdx.x % 32;
  return ((1u << (Width % 32)) - 1u) << (lane / Width * Width);
}

// GPU-scope ordering for the chunks' hand-off (fused_body). On sm_90 __threadfence()
// (fence.sc.gpu) is MEMBAR.SC.GPU followed by CCTL.IVALL, an invalidation of the SM's whole L1
// under every warp resident there; fence.release.gpu is MEMBAR.ALL.GPU alone, and only the
// acquire side (fence.acquire.gpu) invalidates. The relaxed atomic is a plain ATOMG
// (atom.acq_rel would invalidate after it on every chunk).
__device__ __forceinline__ void fence_release_gpu() {
  asm volatile("fence.release.gpu;" ::: "memory");
}
__device__ __forceinline__ void fence_acquire_gpu() {
  asm volatile("fence.acquire.gpu;" ::: "memory");
}
__device__ __forceinline__ unsigned atomic_add_relaxed_gpu(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

#if defined(CSRGAT_TIMELINE)
// Where a diagnostic build's records go (KernelArgs stays as every other build has it): set by
// the host through cudaLibraryGetGlobal before the launch; at global scope, so not mangled. In
// constant memory: a mark reads it through the constant cache (as a __device__ variable, every
// mark was a global load whose result the mark's store waited for, on the path it measured).
}  // namespace csrgat::kern
__constant__ csrgat::TimelineRecord* csrgat_timeline;
namespace csrgat::kern {

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// This group's record (its task's: blockIdx.x * RPB + group).
template <class C>
__device__ __forceinline__ csrgat::TimelineRecord& timeline_record() {
  return csrgat_timeline[blockIdx.x * C::RPB + threadIdx.x / C::TPR];
}
#endif

// Mark i of this group's task in a diagnostic build (TimelineRecord::mark); nothing otherwise.
template <class C>
__device__ __forceinline__ void timeline_mark(int i) {
#if defined(CSRGAT_TIMELINE)
  if (threadIdx.x % C::TPR == 0)
    timeline_record<C>().mark[i] = static_cast<unsigned>(global_ns());
#endif
}

// Mark i once v, a loaded value or one computed from loads, is there: the timer is read behind
// a branch on v (a NaN payload no sum has), so it is not taken before the loads complete.
template <class C>
__device__ __forceinline__ void timeline_mark_after(int i, float v) {
#if defined(CSRGAT_TIMELINE)
  if (threadIdx.x % C::TPR == 0 && __float_as_uint(v) != 0x7fbadbadu)
    timeline_record<C>().mark[i] = static_cast<unsigned>(global_ns());
#else
  (void)i;
  (void)v;
#endif
}

// Prefetch into L2 (the `.pf` variants, KernelArgs::prefetch). The byte range [p, p + bytes),
// trimmed to 16-byte boundaries, in slices of kPrefetchSlice bytes; slice i goes to block
// i % nb, which issues it as one bulk prefetch (sm_90's TMA unit: no registers, no wait; a
// hint, so nothing here can fault or change a result). Below sm_90, the first line of each
// 128 bytes by prefetch.global.L2, one at a time (the tuned spaces are sm_90).
constexpr unsigned kPrefetchSlice = 8192;
__device__ __forceinline__ void prefetch_l2(const void* p, unsigned long long bytes, unsigned nb) {
  const unsigned long long b = reinterpret_cast<unsigned long long>(p);
  const unsigned long long lo = (b + 15) & ~15ull;
  const unsigned long long hi = (b + bytes) & ~15ull;
  for (unsigned long long s = lo + static_cast<unsigned long long>(blockIdx.x) * kPrefetchSlice;
       s < hi; s += static_cast<unsigned long long>(nb) * kPrefetchSlice) {
    const unsigned n = static_cast<unsigned>(min(static_cast<unsigned long long>(kPrefetchSlice), hi - s));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "{ .reg .u64 g; cvta.to.global.u64 g, %0; cp.async.bulk.prefetch.L2.global [g], %1; }\n" ::"l"(s),
        "r"(n)
        : "memory");
#else
    for (unsigned o = 0; o < n; o += 128)
      asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %0; prefetch.global.L2 [g]; }\n" ::"l"(s + o)
                   : "memory");
#endif
  }
}
__device__ __forceinline__ unsigned sm_count() {
  unsigned n;
  asm("mov.u32 %0, %%nsmid;" : "=r"(n));
  return n;
}
// Programmatic dependent launch (sm_90; the caller's launch attribute decides, the kernel is
// the same). launch_dependents lets the next kernel of the stream be scheduled once every block
// of this one has issued it (here: at its start); wait returns when the previous kernel of the
// stream has finished and its writes are visible, at once when the launch had no such
// dependency. Before waiting a kernel reads only the graph's structure (row_ptr, col, the row
// order, the chunk table), which the caller promises the previous kernel does not write;
// scores, values and every write come after (the `.pf` prefetch goes out before: a hint to
// L2, the point of coherence, it cannot make a later read stale).
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// The length of a head's values and output rows: KernelArgs::feat_ld in a `.fs<T>` kernel
// (SLICED: a launch computes a slice of feat features of them), feat in every other kernel, which
// so reads no more parameters than before slices existed.
template <class C>
__device__ __forceinline__ int row_length(const KernelArgs& a) {
  return C::SLICED ? a.feat_ld : a.feat;
}

// The task's inputs, by the first min(grid, SMs) blocks' thread 0: the blocks of the first
// wave, one per SM, so the slices go out from every SM at once at the kernel's start. Rows
// longer than a chunk are read through the chunk table, rows in LPT order through the order.
template <class C>
__device__ __forceinline__ void prefetch_inputs(const KernelArgs& a) {
  // The other threads leave before anything else is read: gridDim sits in a constant-bank line
  // of its own, whose cache miss was on every warp's path (twelfth session, perf-notes).
  if (threadIdx.x != 0) return;
  const unsigned nsm = sm_count();
  if (blockIdx.x >= nsm) return;
  const unsigned nb = min(gridDim.x, nsm);
  using Index = typename C::Index;
  const unsigned long long n = static_cast<unsigned long long>(a.num_rows);
  const unsigned long long e = static_cast<unsigned long long>(a.num_edges);
  const unsigned long long h = static_cast<unsigned long long>(a.heads);
  prefetch_l2(a.row_ptr, (n + 1) * sizeof(Index), nb);
  if (C::LPT && a.row_order) prefetch_l2(a.row_order, n * sizeof(Index), nb);
  if (a.num_chunks > 0) prefetch_l2(a.chunks, a.num_chunks * sizeof(ChunkDesc), nb);
  prefetch_l2(a.col, e * sizeof(Index), nb);
  prefetch_l2(a.scores, e * h * sizeof(float), nb);
  // A slice's values start feat * slice elements into the rows: its extent ends with the last
  // row's slice, not feat_ld elements after it.
  // (n * h * feat unsliced: the same expression as before slices, so the same code.)
  const unsigned long long values = C::SLICED ? (n * h > 0 ? (n * h - 1) * a.feat_ld + a.feat : 0)
                                              : n * h * a.feat;
  prefetch_l2(a.values, values * sizeof(typename C::Value), nb);
}

// q = x / d and r = x % d for the run-time head count d, with no division when d == 1 (one
// head, the common case): a 32-bit division is a dozen dependent instructions (MUFU.RCP and
// multiplies) between a task's start and its first load.
__device__ __forceinline__ void div_heads(unsigned x, unsigned d, unsigned& q, unsigned& r) {
  if (d == 1) {
    q = x;
    r = 0;
  } else {
    q = x / d;
    r = x % d;
  }
}

template <int TPR_, int FL_, int RPB_, int VEC_, int TILES_, int EPL_, int ILP_, int SMEM_,
          int ONLINE_, int LPT_, class Index_, class Value_, int SLICED_ = 0, int OUT16_ = 0>
struct FusedConfig {
  static constexpr int TPR = TPR_;      // threads per task (row-head pair or chunk)
  static constexpr int FL = FL_;        // lanes along the feature axis
  static constexpr int RPB = RPB_;      // tasks (groups) per block
  static constexpr int VEC = VEC_;      // elements per value load
  static constexpr int TILES = TILES_;  // value loads per lane per feature pass
  static constexpr int EPL = EPL_;      // edges each lane loads per batch (batch = EPL * WARP_TPR)
  static constexpr int ILP = ILP_;      // batch entries per slot whose gathers go out together
  static constexpr int SMEM_MODE = SMEM_;     // the template's smem (0-3), as below
  static constexpr bool SMEM = SMEM_ == 1;    // stage through shared memory
  static constexpr bool DIRECT = SMEM_ == 2;  // every lane loads its own (col, score)
  static constexpr bool ASYNC = SMEM_ == 3;   // shuffles; gathers staged by cp.async
  static constexpr bool ONLINE = ONLINE_ != 0;
  static constexpr bool LPT = LPT_ != 0;  // row tasks follow KernelArgs::row_order
  // The `.fs<T>` variants' kernels: a launch computes a slice of KernelArgs::feat features of
  // rows KernelArgs::feat_ld long (the host launches T of them, every row's first slice before
  // any row's second: the gathers' working set is 1 / T of the values, for L2 reuse). The
  // others take rows feat long: their code is the same as before the parameter existed.
  static constexpr bool SLICED = SLICED_ != 0;
  using Index = Index_;
  using Value = Value_;
  // The `.o16` kernels: out stored in the values' 16-bit type (each result rounded from its
  // float32 sum); the others store float32 out, with the code they had before the parameter.
  static constexpr bool OUT16 = OUT16_ != 0;
  static_assert(!OUT16 || sizeof(Value_) == 2, "16-bit out goes with 16-bit values");
  using Out = typename Cond<OUT16, Value, float>::type;
  static constexpr int WARP_TPR = TPR < 32 ? TPR : 32;  // threads of a group inside one warp
  static constexpr int NW = TPR / WARP_TPR;             // warps per group
  static constexpr int ES = WARP_TPR / FL;              // edge slots per warp
  static constexpr int PASS_F = FL * VEC * TILES;       // features per pass
  static constexpr int BLOCK = TPR * RPB;
  static constexpr int SMEM_PAIRS = SMEM ? BLOCK : 1;  // staged (col, weight) pairs
  static constexpr int XW = NW > 1 ? NW : 1;           // cross-warp scratch rows
  // Block merges (`.bm`): the partials of a block's chunks whose rows merge in the block, one
  // slot per group: a pass's features (used when F <= PASS_F, every tuned problem), then the
  // chunk's (max, sum) and padding to 16 bytes.
  static constexpr bool BM = NW == 1 && RPB > 1;
  static constexpr int BM_SLOTS = BM ? RPB : 1;
  static constexpr int BM_F = BM ? (PASS_F + 3) / 4 * 4 : 0;
  // ASYNC: 16-byte pieces each thread stages (two groups of ILP entries, TILES pieces each).
  static constexpr int STAGE = ASYNC ? 2 * ILP * TILES : 1;
  // The scalar twin's config (values rows not VEC-aligned, a rare fallback): element loads,
  // one gather at a time from registers, the same FMAs in the same order. Until the fifteenth
  // session it was a second path inside every vector kernel, which then had the registers the
  // most either path needed (ILP > 1 element-wise loads, all hoisted: tpr8.fl8.t2.e2.g2 bf16
  // 144 registers against 101, perf-notes' eighth session, hence ILP 1 here) and 42% more
  // code for the same executed path (the seed shape 2-5% slower warm, fifteenth session). Now
  // it is a kernel of its own (csrgat_fused_scalar_twin), which the host launches instead.
  using Scalar = FusedConfig<TPR_, FL_, RPB_, 1, 1, EPL_, 1, SMEM_ == 3 ? 0 : SMEM_, ONLINE_, LPT_,
                             Index_, Value_, SLICED_, OUT16_>;
};

template <class C>
struct FusedShared {
  uint4 stage[C::STAGE][C::ASYNC ? C::BLOCK : 1];  // [piece][thread]: conflict-free 16 B
  long long col[C::SMEM_PAIRS];
  float w[C::SMEM_PAIRS];
  float red[C::NW > 1 ? C::PASS_F : 1];
  Stat stat[C::XW];
  alignas(16) float part[C::BM_SLOTS][C::BM_F + 4];  // block-merged chunks' partials
};

// Sixteen bytes of zeros in this module's global memory (each module, NVRTC's or the
// library's, has its own copy).
static __device__ __align__(16) const uint4 kZero16 = {0u, 0u, 0u, 0u};

// As load_vec, but only when `ok` (else zeros): one unconditional 16-byte load of p, or of
// kZero16 when !ok (an L1 hit after the first, no DRAM bytes), so the loaded registers have one
// definition and go straight to the FMAs. (v4-v5 used a predicated load into registers holding
// zeros, the CUTLASS pattern; ptxas turned it into a load into scratch registers and a
// predicated copy right after it, which waited for the data, so a slot's ILP loads went out
// one after the other: perf-notes v6.)
template <class T, int V>
__device__ __forceinline__ void load_vec_if(const T* __restrict__ p, bool ok, float (&o)[V]) {
  static_assert(V * sizeof(T) == 16, "16-byte loads only");
  load_vec<T, V>(ok ? p : reinterpret_cast<const T*>(&kZero16), o);
}

// The pieces of one gathered row that this lane loads for the pass starting at f0, for the
// gathers issued before the softmax (EARLY), whose values are used only when the entry is
// taken (a branch skips the FMAs of the others) and only below F (no accumulator past F is
// stored): piece ti at src + f, or at src past F. The caller points an entry it does not take
// at row 0, so every address is valid and none is kZero16's: the zero line's address is a
// constant-bank read that missed on the cold chain, after the columns' shuffles (cora,
// seventeenth session: 7% of the warp samples). Apart from the loads so that a caller can
// compute them before it waits for the previous kernel.
template <class C>
__device__ __forceinline__ void row_pieces(const typename C::Value* src, int f0, int f_lane, int F,
                                           const typename C::Value* (&p)[C::TILES]) {
#pragma unroll
  for (int ti = 0; ti < C::TILES; ++ti) {
    const int f = f0 + (ti * C::FL + f_lane) * C::VEC;
    p[ti] = src + (f < F ? f : 0);
  }
}

// row_pieces' loads: this lane's values of an EARLY gather (garbage where row_pieces says).
template <class C>
__device__ __forceinline__ void load_row_early(const typename C::Value* __restrict__ src, int f0,
                                               int f_lane, int F,
                                               float (&v)[C::TILES][C::VEC]) {
  const typename C::Value* p[C::TILES];
  row_pieces<C>(src, f0, f_lane, F, p);
#pragma unroll
  for (int ti = 0; ti < C::TILES; ++ti) load_vec<typename C::Value, C::VEC>(p[ti], v[ti]);
}

// This lane's values of one gathered row for the pass starting at f0, for a slot that issues
// several rows' loads before their FMAs: v[ti][:] = src[f .. f + VEC), zeros past F or when
// !ok. 16-byte vectors use load_vec_if; narrower ones (not in the tuned spaces) load
// unconditionally from a valid address (the caller points a row it does not take at row 0;
// a lane past F reads feature 0) and zero the values by a select.
template <class C>
__device__ __forceinline__ void load_row(const typename C::Value* __restrict__ src, int f0,
                                         int f_lane, int F, bool ok,
                                         float (&v)[C::TILES][C::VEC]) {
  using Value = typename C::Value;
#pragma unroll
  for (int ti = 0; ti < C::TILES; ++ti) {
    const int f = f0 + (ti * C::FL + f_lane) * C::VEC;
    if constexpr (C::VEC * sizeof(Value) == 16) {
      load_vec_if<Value, C::VEC>(src + f, ok && f < F, v[ti]);
    } else {
      load_vec<Value, C::VEC>(src + (f < F ? f : 0), v[ti]);
#pragma unroll
      for (int k = 0; k < C::VEC; ++k) v[ti][k] = ok && f < F ? v[ti][k] : 0.f;
    }
  }
}

// acc *= s
template <class C>
__device__ __forceinline__ void scale_acc(float (&acc)[C::TILES][C::VEC], float s) {
#pragma unroll
  for (int i = 0; i < C::TILES; ++i)
#pragma unroll
    for (int k = 0; k < C::VEC; ++k) acc[i][k] *= s;
}
// Online softmax: the running max grows from st.m to m_new; the sum and the accumulators
// (weighted by exp(x - st.m) so far) are rescaled to the new max (a factor 0 when st.m is
// -inf, i.e. nothing was accumulated).
// Its exponential is exp2f, not fast_exp, on purpose: with the ftz MUFU alone the rescale is
// short enough for ptxas to predicate it instead of branching around it, and a row then pays
// its latency on every batch (the max rarely grows after the first): citeseer +4% (twenty-fourth
// session, calls 1-2); exp2f's range scaling keeps the branch (citeseer -0.6%).
template <class C>
__device__ __forceinline__ void rescale_to(Stat& st, float m_new, float (&acc)[C::TILES][C::VEC]) {
  const float scale = exp2f((st.m - m_new) * kLog2e);
  scale_acc<C>(acc, scale);
  st.l *= scale;
  st.m = m_new;
}
// acc += w * v
template <class C>
__device__ __forceinline__ void fma_row(float w, const float (&v)[C::TILES][C::VEC],
                                        float (&acc)[C::TILES][C::VEC]) {
#pragma unroll
  for (int ti = 0; ti < C::TILES; ++ti)
#pragma unroll
    for (int k = 0; k < C::VEC; ++k) acc[ti][k] = fmaf(w, v[ti][k], acc[ti][k]);
}
// acc[ti][:] += w * src[f .. f + VEC) for this lane's features f of the pass starting at f0:
// one row at a time (ilp 1 and the direct mode). Kept apart from load_row on purpose: with the
// plain `if (f < F)` here ptxas emits v3's code; routing it through load_vec_if (then a
// predicated PTX load) made the register-capped power-law and R-MAT winners (tpr32 mb8) 4-7%
// slower, same machine, same ids, alternating builds (docs/data/v4/call6).
template <class C>
__device__ __forceinline__ void gather_fma(const typename C::Value* __restrict__ src, int f0,
                                           int f_lane, int F, float w,
                                           float (&acc)[C::TILES][C::VEC]) {
#pragma unroll
  for (int ti = 0; ti < C::TILES; ++ti) {
    const int f = f0 + (ti * C::FL + f_lane) * C::VEC;
    float v[C::VEC];
    if (f < F) {
      load_vec<typename C::Value, C::VEC>(src + f, v);
    } else {
#pragma unroll
      for (int k = 0; k < C::VEC; ++k) v[k] = 0.f;
    }
#pragma unroll
    for (int k = 0; k < C::VEC; ++k) acc[ti][k] = fmaf(w, v[k], acc[ti][k]);
  }
}

// c * row_stride, the first element of values row c (before the head's offset). With 32-bit
// indices the column and the row stride (H * F) fit 32 bits (the hosts check H * F), so this is
// one 32 x 32 -> 64-bit multiply instead of a 64-bit product of a shuffled 64-bit column.
template <class C>
__device__ __forceinline__ long long row_offset(long long c, long long row_stride) {
  if constexpr (sizeof(typename C::Index) == 4)
    return static_cast<long long>(static_cast<int>(c)) * static_cast<int>(row_stride);
  else
    return c * row_stride;
}

// (col, score) of edges e0 + k * WARP_TPR (k < EPL); past ee: column 0, score -inf; and
// `on_cols(c)`, work that needs only the columns. The task's wait for the previous kernel
// (pdl_wait), when it has not waited yet, goes before the scores: col is the graph's structure,
// scores are not. With Reorder the order follows the launch (KernelArgs::overlapped).
// Overlapped: cols, on_cols, wait, scores: on_cols runs while the previous kernel does, and
// after the wait the scores and whatever on_cols prepared go out at once. Plain (the wait
// returns at once): cols, scores, on_cols: the scores are in flight during on_cols, and the
// softmax after it finds them there. Without Reorder: cols, on_cols, wait, scores; where the
// task may wait here (WaitInside: the ilp-1 warp kernels), cols, wait, scores, on_cols instead,
// the columns kept as loaded (Index) until the scores are out: a use of them before the wait's
// branch (their widening) made every batch wait for the columns before loading the scores, two
// round trips instead of one (SASS, sixteenth session).
template <class C, bool Reorder, bool WaitInside, class OnCols>
__device__ __forceinline__ void load_batch(const typename C::Index* __restrict__ col,
                                           const float* __restrict__ scores, int H, int h,
                                           long long e0, long long ee, long long (&c)[C::EPL],
                                           float (&s)[C::EPL], bool& waited, bool overlapped,
                                           OnCols&& on_cols) {
  using Index = typename C::Index;
  constexpr bool kDefer = !Reorder && WaitInside;  // columns widened after the scores
  Index loaded[C::EPL];
#pragma unroll
  for (int k = 0; k < C::EPL; ++k) {
    const long long e = e0 + static_cast<long long>(k) * C::WARP_TPR;
    if constexpr (kDefer)
      loaded[k] = e < ee ? col[e] : Index(0);
    else
      c[k] = e < ee ? static_cast<long long>(col[e]) : 0;
  }
  // Reorder, plain: the scores loaded before on_cols (and before the wait, which returns at
  // once without the launch attribute); overlapped: these loads are off, the ones below on.
  const bool late = !Reorder || overlapped;
  float early[C::EPL];
#pragma unroll
  for (int k = 0; k < C::EPL; ++k) {
    const long long e = e0 + static_cast<long long>(k) * C::WARP_TPR;
    early[k] = !late && e < ee ? scores[e * H + h] : neg_inf();
  }
  if constexpr (!kDefer) on_cols(c);
  if (!waited) {
    pdl_wait();
    waited = true;
  }
#pragma unroll
  for (int k = 0; k < C::EPL; ++k) {
    const long long e = e0 + static_cast<long long>(k) * C::WARP_TPR;
    s[k] = late && e < ee ? scores[e * H + h] : early[k];
  }
  if constexpr (kDefer) {
#pragma unroll
    for (int k = 0; k < C::EPL; ++k) c[k] = static_cast<long long>(loaded[k]);
    on_cols(c);
  }
}

// One task: edges [eb, ee) of `row`, head h. Writes the normalised result to dst (F results,
// stride 1: float32 in a chunk's partial row, C::Out in an out row) and returns the row's (max,
// sum). All TPR threads call it with the same task.
template <class C, class D>
__device__ __forceinline__ Stat run_task(const KernelArgs& a, FusedShared<C>& sh, long long eb,
                                         long long ee, int h, D* __restrict__ dst) {
  using Index = typename C::Index;
  using Value = typename C::Value;
  const Index* __restrict__ col = static_cast<const Index*>(a.col);
  const Value* __restrict__ values = static_cast<const Value*>(a.values);
  const float* __restrict__ scores = a.scores;
  const int H = a.heads;
  const int F = a.feat;                       // the features this task computes
  const int LD = row_length<C>(a);           // and the length of a head's values row
  const long long row_stride = static_cast<long long>(H) * LD;

  const int t = threadIdx.x % C::TPR;  // thread in group
  const int warp_in_group = t / C::WARP_TPR;
  const int wl = t % C::WARP_TPR;  // lane in the group's part of this warp
  const int f_lane = wl % C::FL;
  const int slot = wl / C::FL;
  const unsigned mask = group_mask<C::WARP_TPR>();
  const int pair_base = threadIdx.x - wl;  // this warp-part's first staging slot

  // The wait for the previous kernel (pdl_wait): the online register-gather batches wait inside
  // their first batch, after its col loads (load_batch), so that the columns' round trip runs
  // while the previous kernel does; with ilp > 1 (first gathers before the softmax) the scores
  // and those gathers are then one round trip. The others wait here: the cp.async kernels (the
  // split cost 6 registers) and the ilp-1 groups of several warps (10: tpr128, 62 -> 72).
  // Every path has waited before its first write (below, for a task with no edges).
  constexpr bool kBatchWait =
      C::ONLINE && !C::DIRECT && !C::SMEM && !C::ASYNC && (C::ILP > 1 || C::NW == 1);
  bool waited = !kBatchWait;
  if constexpr (!kBatchWait) pdl_wait();

  // ---- pass 1 (two-pass only): the row's max and sum over all edges ----
  Stat row{neg_inf(), 0.f};
  if (!C::ONLINE) {
    Stat mine{neg_inf(), 0.f};
    for (long long e = eb + t; e < ee; e += C::TPR) mine = add_score(mine, scores[e * H + h]);
    row = warp_merge_stat<C::WARP_TPR>(mine, mask);
    if (C::NW > 1) {
      if (wl == 0) sh.stat[warp_in_group] = row;
      __syncthreads();
      row = sh.stat[0];
#pragma unroll
      for (int w = 1; w < C::NW; ++w) row = merge(row, sh.stat[w]);
      __syncthreads();
    }
  }
  const float inv_l = row.l > 0.f ? __fdividef(1.f, row.l) : 0.f;

  for (int f0 = 0; f0 < F; f0 += C::PASS_F) {
    float acc[C::TILES][C::VEC];
#pragma unroll
    for (int i = 0; i < C::TILES; ++i)
#pragma unroll
      for (int k = 0; k < C::VEC; ++k) acc[i][k] = 0.f;
    Stat run{neg_inf(), 0.f};  // ONLINE: this warp-part's running (max, sum)

    if constexpr (C::DIRECT) {
      constexpr int U = 4;  // edges per slot in flight
      const int slots = C::NW * C::ES;
      Stat st{neg_inf(), 0.f};  // ONLINE: this slot's running (max, sum)
      for (long long e0 = eb + warp_in_group * C::ES + slot; e0 < ee;
           e0 += static_cast<long long>(slots) * U) {
        long long cj[U];
        float sj[U], wj[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const long long e = e0 + static_cast<long long>(u) * slots;
          const bool ok = e < ee;
          cj[u] = ok ? static_cast<long long>(col[e]) : 0;
          sj[u] = ok ? scores[e * H + h] : neg_inf();
        }
        if (C::ONLINE) {
          float bm = sj[0];
#pragma unroll
          for (int u = 1; u < U; ++u) bm = fmaxf(bm, sj[u]);
          const float m_new = fmaxf(st.m, bm);
          if (m_new == neg_inf()) continue;  // nothing but -inf so far
          if (m_new != st.m) rescale_to<C>(st, m_new, acc);
#pragma unroll
          for (int u = 0; u < U; ++u) {
            wj[u] = sj[u] == neg_inf() ? 0.f : fast_exp(sj[u] - st.m);
            st.l += wj[u];
          }
        } else {
#pragma unroll
          for (int u = 0; u < U; ++u)
            wj[u] = sj[u] == neg_inf() ? 0.f : fast_exp(sj[u] - row.m) * inv_l;
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
          if (wj[u] != 0.f)
            gather_fma<C>(values + cj[u] * row_stride + static_cast<long long>(h) * LD, f0,
                                   f_lane, F, wj[u], acc);
        }
      }
      if (C::ONLINE) {
        // The slots of this warp-part meet at a common max; the plain sums below then merge them.
        float m_all = st.m;
#pragma unroll
        for (int off = C::FL; off < C::WARP_TPR; off *= 2)
          m_all = fmaxf(m_all, __shfl_xor_sync(mask, m_all, off, C::WARP_TPR));
        const float sc = st.m == neg_inf() ? 0.f : fast_exp(st.m - m_all);
        scale_acc<C>(acc, sc);
        float l_all = st.l * sc;
#pragma unroll
        for (int off = C::FL; off < C::WARP_TPR; off *= 2)
          l_all += __shfl_xor_sync(mask, l_all, off, C::WARP_TPR);
        run = {m_all, l_all};
      }
    } else {
      // Batch mode. A batch is EPL * WARP_TPR consecutive edges: lane wl holds edges
      // base + k * WARP_TPR + wl (k < EPL). Columns are held and shuffled as 64-bit values:
      // with 32-bit ones ptxas hoisted the address arithmetic and used 24 more registers
      // (tpr32.fl8.t2: 96 instead of 72), which cost more occupancy than it saved.
      // (Version 3 first prefetched the next batch here: 8 more registers, and slower.)
      constexpr int BATCH = C::EPL * C::WARP_TPR;
      const long long step = static_cast<long long>(C::NW) * BATCH;
      for (long long base = eb + static_cast<long long>(warp_in_group) * BATCH; base < ee;
           base += step) {
        // EARLY (register gathers, ilp > 1): the slot's first ILP gathers go out right after
        // the batch's loads, on the columns alone, and the softmax below runs while they are in
        // flight (before, they waited for the weights: the batch max, its exponentials and their
        // shuffles). Entries past the row read row 0 and are not added (row_pieces), nor is an
        // entry of weight 0 (score -inf).
        // PRE (the kernels that wait inside their first batch, 16-byte vectors): the gathers'
        // final addresses (the columns' shuffles, the row arithmetic, row_pieces' choice) are
        // computed from the columns in load_batch's on_cols, which an overlapped launch runs
        // before its wait: after the wait the scores and the gathers go out at once (the
        // twelfth session's kernels had ~190 instructions there).
        constexpr bool EARLY = C::ILP > 1 && !C::SMEM && !C::ASYNC;
        constexpr bool PRE = EARLY && kBatchWait && C::VEC * sizeof(Value) == 16;
        // Entries of this batch in the row: before the batch's loads where PRE needs them, after
        // them elsewhere (the other kernels keep the code measured in the twelfth session).
        auto batch_entries = [&] { return static_cast<int>(min(static_cast<long long>(BATCH), ee - base)); };
        const int nb_pre = PRE ? batch_entries() : 0;
        // Batch entry i of this slot is j = i * ES + slot: lane j % WARP_TPR holds it in
        // register i / FL (j / WARP_TPR == i / FL because slot < ES and ES * FL == WARP_TPR).
        // from_lane(r, i) is that lane's r[i / FL], chosen by selects (pick) so that a run-time i
        // keeps r in registers.
        auto from_lane = [&](const auto& r, int i) {
          return __shfl_sync(mask, pick(r, i / C::FL), (i * C::ES + slot) % C::WARP_TPR, C::WARP_TPR);
        };
        const Value* piece0[PRE ? C::ILP : 1][C::TILES];
        long long ccol[C::EPL];
        float csc[C::EPL];
        load_batch<C, PRE, kBatchWait>(col, scores, H, h, base + wl, ee, ccol, csc, waited, a.overlapped != 0,
                           [&](const long long(&c)[C::EPL]) {
                             if constexpr (PRE) {
                               // The shuffles first, together (every lane); 32-bit indices move
                               // as 32-bit values (row_offset uses only those bits).
                               long long cj[C::ILP];
                               if constexpr (sizeof(Index) == 4) {
                                 int c32[C::EPL];
#pragma unroll
                                 for (int k = 0; k < C::EPL; ++k) c32[k] = static_cast<int>(c[k]);
#pragma unroll
                                 for (int g = 0; g < C::ILP; ++g) cj[g] = from_lane(c32, g);
                               } else {
#pragma unroll
                                 for (int g = 0; g < C::ILP; ++g) cj[g] = from_lane(c, g);
                               }
#pragma unroll
                               for (int g = 0; g < C::ILP; ++g) {
                                 const bool ok = g * C::ES + slot < nb_pre;
                                 row_pieces<C>(values + row_offset<C>(ok ? cj[g] : 0, row_stride) +
                                                   static_cast<long long>(h) * LD,
                                               f0, f_lane, F, piece0[g]);
                               }
                             }
                           });
        const int nb = PRE ? nb_pre : batch_entries();
        float v0[EARLY ? C::ILP : 1][C::TILES][C::VEC];
        if constexpr (PRE) {
#pragma unroll
          for (int g = 0; g < C::ILP; ++g)
#pragma unroll
            for (int ti = 0; ti < C::TILES; ++ti) load_vec<Value, C::VEC>(piece0[g][ti], v0[g][ti]);
        } else if constexpr (EARLY) {
#pragma unroll
          for (int g = 0; g < C::ILP; ++g) {
            const long long cj = from_lane(ccol, g);
            const bool ok = g * C::ES + slot < nb;
            load_row_early<C>(values + (ok ? cj : 0) * row_stride + static_cast<long long>(h) * LD,
                              f0, f_lane, F, v0[g]);
          }
        }
        float w[C::EPL];
        if (C::ONLINE) {
          float bm = csc[0];
#pragma unroll
          for (int k = 1; k < C::EPL; ++k) bm = fmaxf(bm, csc[k]);
          const float m_new = fmaxf(run.m, group_max<C::WARP_TPR>(bm, mask));
          if (m_new != run.m && m_new != neg_inf()) rescale_to<C>(run, m_new, acc);
          // This lane's share of the sum; the lanes' shares are added once, after the loop.
#pragma unroll
          for (int k = 0; k < C::EPL; ++k) {
            w[k] = csc[k] == neg_inf() ? 0.f : fast_exp(csc[k] - run.m);
            run.l += w[k];
          }
        } else {
#pragma unroll
          for (int k = 0; k < C::EPL; ++k)
            w[k] = csc[k] == neg_inf() ? 0.f : fast_exp(csc[k] - row.m) * inv_l;
        }
        if (C::SMEM) {  // EPL == 1 (checked)
          __syncwarp(mask);
          sh.col[threadIdx.x] = ccol[0];
          sh.w[threadIdx.x] = w[0];
          __syncwarp(mask);
        }
        auto take = [&](int i, long long& cj, float& wj) {
          const int j = i * C::ES + slot;
          if (C::SMEM) {
            cj = j < nb ? sh.col[pair_base + j] : 0;
            wj = j < nb ? sh.w[pair_base + j] : 0.f;
          } else {
            cj = from_lane(ccol, i);
            wj = from_lane(w, i);
          }
          return j < nb && wj != 0.f;
        };
        // The slot takes FL * EPL entries, ILP at a time. ILP 1: a branch around each gather,
        // which keeps ptxas from hoisting the next gather above this one's FMAs (fewest
        // registers; a row of d edges is d / ES dependent round trips per slot). ILP > 1: the
        // ILP entries' loads (untaken ones read kZero16, or row 0 for the EARLY first ILP) all
        // go out before their FMAs, with up to ~125 registers: d / (ES * ILP) round trips.
        // Measured (perf-notes, v6): ilp 4 wins graphs of few blocks (seed shape, cora,
        // citeseer, wiki-vote: 11-25% over run 5's choices), ilp 2 under the 64-register cap the
        // long-row sub-warps, and ilp 1 keeps the dense skewed graphs.
        if constexpr (C::ASYNC) {
          // Group g is entries [g * ILP, (g + 1) * ILP) of this slot, staged in buffer g % 2.
          // Entries past the row or of weight 0 stage zeros (src_bytes 0: no DRAM bytes).
          constexpr int NG = C::FL * C::EPL / C::ILP;
          const int ng = min(NG, (nb + C::ES * C::ILP - 1) / (C::ES * C::ILP));
          auto piece = [&](int g, int u, int ti) -> uint4& {
            return sh.stage[((g & 1) * C::ILP + u) * C::TILES + ti][threadIdx.x];
          };
          // The group loop is not unrolled: unrolled, ptxas hoisted every entry's shuffles and
          // addresses to the top of the batch (tpr8.fl8.t2.g2 bf16: 168 registers), which is
          // the register pressure this mode is meant to remove (from_lane's selects keep the
          // entries' registers out of local memory for a run-time i).
          auto entry = [&](int i, long long& cj, float& wj) {
            cj = from_lane(ccol, i);
            wj = from_lane(w, i);  // every lane shuffles; past the row, weight 0
            wj = i * C::ES + slot < nb ? wj : 0.f;
            return wj != 0.f;
          };
          auto issue = [&](int g) {
#pragma unroll
            for (int u = 0; u < C::ILP; ++u) {
              long long cj;
              float wj;
              const bool ok = entry(g * C::ILP + u, cj, wj);
              const Value* src = values + (ok ? cj : 0) * row_stride + static_cast<long long>(h) * LD;
#pragma unroll
              for (int ti = 0; ti < C::TILES; ++ti) {
                const int f = f0 + (ti * C::FL + f_lane) * C::VEC;
                const bool in = ok && f < F;
                cp_async16(&piece(g, u, ti), in ? static_cast<const void*>(src + f) : values,
                           in ? 16 : 0);
              }
            }
            cp_async_commit();
          };
          issue(0);
#pragma unroll 1
          for (int g = 0; g < ng; ++g) {
            if (g + 1 < ng) {
              issue(g + 1);
              cp_async_wait<1>();
            } else {
              cp_async_wait<0>();
            }
#pragma unroll
            for (int u = 0; u < C::ILP; ++u) {
              // The weight again by shuffle (no registers held across the copies); zero for an
              // entry past the row, whose staged bytes are zeros too.
              const int i = g * C::ILP + u;
              float wj = from_lane(w, i);
              wj = i * C::ES + slot < nb ? wj : 0.f;
#pragma unroll
              for (int ti = 0; ti < C::TILES; ++ti) {
                float v[C::VEC];
                unpack_vec<Value, C::VEC>(piece(g, u, ti), v);
#pragma unroll
                for (int k = 0; k < C::VEC; ++k) acc[ti][k] = fmaf(wj, v[k], acc[ti][k]);
              }
            }
          }
        } else {
#pragma unroll
          for (int i0 = 0; i0 < C::FL * C::EPL; i0 += C::ILP) {
            if (C::ILP > 1 && i0 * C::ES >= nb) break;  // the rest of the batch is past the row
            if constexpr (C::ILP == 1) {
              long long cj;
              float wj;
              if (take(i0, cj, wj))
                gather_fma<C>(values + cj * row_stride + static_cast<long long>(h) * LD,
                                       f0, f_lane, F, wj, acc);
            } else if (EARLY && i0 == 0) {
              // The gathers issued before the softmax: their weights now.
#pragma unroll
              for (int g = 0; g < C::ILP; ++g) {
                const float wj = from_lane(w, g);
                if (g * C::ES + slot < nb && wj != 0.f) fma_row<C>(wj, v0[EARLY ? g : 0], acc);
              }
            } else {
              float v[C::ILP][C::TILES][C::VEC];
              float wg[C::ILP];
#pragma unroll
              for (int g = 0; g < C::ILP; ++g) {
                long long cj;
                float wj;
                const bool ok = take(i0 + g, cj, wj);
                wg[g] = ok ? wj : 0.f;
                load_row<C>(values + (ok ? cj : 0) * row_stride + static_cast<long long>(h) * LD,
                                     f0, f_lane, F, ok, v[g]);
              }
#pragma unroll
              for (int g = 0; g < C::ILP; ++g) fma_row<C>(wg[g], v[g], acc);
            }
          }
        }  // register gathers
      }
      if (C::ONLINE) run.l = warp_sum<C::WARP_TPR>(run.l, mask);
    }  // batch (shuffle / shared-memory) mode

    // ---- merge the edge slots of this warp-part (same max: plain sums) ----
#pragma unroll
    for (int i = 0; i < C::TILES; ++i)
#pragma unroll
      for (int k = 0; k < C::VEC; ++k)
#pragma unroll
        for (int off = C::FL; off < C::WARP_TPR; off *= 2)
          acc[i][k] += __shfl_xor_sync(mask, acc[i][k], off, C::WARP_TPR);

    // ---- merge the warps of a multi-warp group ----
    if (C::NW > 1) {
      float scale = 1.f;
      if (C::ONLINE) {
        if (wl == 0) sh.stat[warp_in_group] = run;
        __syncthreads();
        Stat all = sh.stat[0];
#pragma unroll
        for (int w = 1; w < C::NW; ++w) all = merge(all, sh.stat[w]);
        scale = run.m == neg_inf() ? 0.f : fast_exp(run.m - all.m);
        run = all;
      }
      for (int w = 0; w < C::NW; ++w) {
        if (warp_in_group == w && slot == 0) {
#pragma unroll
          for (int i = 0; i < C::TILES; ++i)
#pragma unroll
            for (int k = 0; k < C::VEC; ++k) {
              const int idx = (i * C::FL + f_lane) * C::VEC + k;
              const float x = acc[i][k] * scale;
              sh.red[idx] = w == 0 ? x : sh.red[idx] + x;
            }
        }
        __syncthreads();
      }
#pragma unroll
      for (int i = 0; i < C::TILES; ++i)
#pragma unroll
        for (int k = 0; k < C::VEC; ++k) acc[i][k] = sh.red[(i * C::FL + f_lane) * C::VEC + k];
      __syncthreads();
    }
    if (C::ONLINE) row = run;

    if (!waited) {  // no batch: an empty task
      pdl_wait();
      waited = true;
    }
    // ---- write: the first warp's slot 0 lanes own the features ----
    const float norm = C::ONLINE ? (row.l > 0.f ? __fdividef(1.f, row.l) : 0.f) : 1.f;
    if (warp_in_group == 0 && slot == 0) {
      // 4-result stores where the row allows (16 bytes of float32, 8 of a `.o16` kernel's 16-bit
      // out): out rows and chunks' partial rows are aligned when F % 4 == 0 (checked here: a
      // caller's out may not be).
      const bool vec_store =
          C::VEC % 4 == 0 && reinterpret_cast<unsigned long long>(dst) % (4 * sizeof(D)) == 0;
#pragma unroll
      for (int ti = 0; ti < C::TILES; ++ti) {
        const int f = f0 + (ti * C::FL + f_lane) * C::VEC;
        if (vec_store) {
          if (f < F) {
#pragma unroll
            for (int k = 0; k < C::VEC; k += 4)
              store4(dst + f + k, make_float4(acc[ti][k] * norm, acc[ti][k + 1] * norm,
                                              acc[ti][k + 2] * norm, acc[ti][k + 3] * norm));
          }
        } else {
#pragma unroll
          for (int k = 0; k < C::VEC; ++k)
            if (f + k < F) store1(dst + f + k, acc[ti][k] * norm);
        }
      }
    }
  }
  return row;
}

// Where chunk task k = c * H + h keeps its result: the normalised row (F floats; rows are
// 16-byte aligned when F % 4 == 0) and, after all C * H rows, its (max, sum).
__device__ __forceinline__ float* partial_row(const KernelArgs& a, long long k) {
  return a.partials + k * a.feat;
}
__device__ __forceinline__ float* partial_stat(const KernelArgs& a, long long k) {
  return a.partials + (a.num_chunks * a.heads) * a.feat + 2 * k;
}

// The last chunk of a long row to finish merges all chunks' partials into out. A hub row has
// hundreds of chunks, so no loop here waits for one load before issuing the next: the row's
// (max, sum) comes from the lanes taking chunks in turn and a shuffle reduction (each warp of
// a multi-warp group does it for itself), then each thread sums 4 features over the chunks
// with 8 chunks' loads in flight (partial rows are 16-byte aligned: cudaMalloc'd, F % 4 == 0).
// (The first version looped over the chunks once per feature, one dependent L2 round trip
// each: ~2 ms on a 200,000-edge row at split 256.)
// LOCAL: every chunk of the row ran in this block, which has met at a barrier since they wrote
// their partials: plain loads (the L1 may hold the lines; __syncthreads makes the block's
// writes visible to them). Otherwise the chunks ran anywhere and the loads go to L2 (.cg).
template <bool LOCAL>
__device__ __forceinline__ float load_partial(const float* p) {
  return LOCAL ? __ldca(p) : __ldcg(p);
}
template <bool LOCAL>
__device__ __forceinline__ float4 load_partial4(const float4* p) {
  return LOCAL ? __ldca(p) : __ldcg(p);
}
template <class C, bool LOCAL>
__device__ __forceinline__ void merge_chunks(const KernelArgs& a, const ChunkDesc& cd, int h,
                                             typename C::Out* __restrict__ dst) {
  const int F = a.feat;
  const int H = a.heads;
  const int t = threadIdx.x % C::TPR;
  const int wl = t % C::WARP_TPR;
  const unsigned mask = group_mask<C::WARP_TPR>();
  const long long k0 = static_cast<long long>(cd.first) * H + h;  // chunk c: k0 + c * H
  timeline_mark<C>(2);
  Stat all{neg_inf(), 0.f};
#pragma unroll 4
  for (int c = wl; c < cd.count; c += C::WARP_TPR) {
    const float* s = partial_stat(a, k0 + static_cast<long long>(c) * H);
    all = merge(all, Stat{load_partial<LOCAL>(s), load_partial<LOCAL>(s + 1)});
  }
  all = warp_merge_stat<C::WARP_TPR>(all, mask);
  timeline_mark_after<C>(3, all.l);
  const float inv_l = all.l > 0.f ? __fdividef(1.f, all.l) : 0.f;
  // Chunk c's weight in the row: its sum rescaled to the row's max, over the row's sum.
  auto weight = [&](long long k) {
    const float* s = partial_stat(a, k);
    const float m = load_partial<LOCAL>(s), l = load_partial<LOCAL>(s + 1);
    return l > 0.f ? l * fast_exp(m - all.m) * inv_l : 0.f;
  };
  // Out rows are aligned for 4 results when F % 4 == 0 and the caller's out is (cudaMalloc is).
  if (F % 4 == 0 && reinterpret_cast<unsigned long long>(dst) % (4 * sizeof(*dst)) == 0) {
    for (int f = 4 * t; f < F; f += 4 * C::TPR) {
      float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 8
      for (int c = 0; c < cd.count; ++c) {
        const long long k = k0 + static_cast<long long>(c) * H;
        const float w = weight(k);
        const float4 p = load_partial4<LOCAL>(reinterpret_cast<const float4*>(partial_row(a, k) + f));
        x.x = fmaf(w, p.x, x.x);
        x.y = fmaf(w, p.y, x.y);
        x.z = fmaf(w, p.z, x.z);
        x.w = fmaf(w, p.w, x.w);
      }
      if (f == 0) timeline_mark_after<C>(4, x.x);
      store4(dst + f, x);
    }
  } else {
    for (int f = t; f < F; f += C::TPR) {
      float x = 0.f;
#pragma unroll 8
      for (int c = 0; c < cd.count; ++c) {
        const long long k = k0 + static_cast<long long>(c) * H;
        x = fmaf(weight(k), load_partial<LOCAL>(partial_row(a, k) + f), x);
      }
      store1(dst + f, x);
    }
  }
}

// A row whose chunks all ran in this block (`.bm`), merged by the group of its first chunk after
// the block's barrier, which makes the chunks' partials visible to it. merge_chunks walks a hub
// row's hundreds of chunks in loops; on a few chunks those loops are a chain of dependent
// loads, exponentials and shuffles (tuner timeline, twenty-first session: ~1.2 us from the
// barrier to the row's end on citeseer and cora, after the rows had ended). Here the chunks go
// in groups of kMergeGroup whose loads are all issued before any is used: each lane loads the
// group's (max, sum) (broadcast loads) and takes the row's, then each thread loads its 4
// features of every chunk of the group before it weighs and adds them: two load latencies and
// one round of exponentials per group.
// The partials are where the chunks left them (Src): in the block's shared memory when the
// row fits a slot (SharedPartials, twenty-second session: from L2 they were the merge's last
// ~0.4 us on citeseer, the L1 not holding other warps' stores), else in global memory
// (GlobalPartials, plain loads: the L1 may hold them). From global memory one group at most
// (rows of 1-4 chunks): groups chained one L2 round trip each (pubmed +5.9%, twenty-first
// session), so rows of 5-16 chunks whose features do not fit a slot keep merge_chunks. From
// shared memory a group's loads take ~30 cycles, so every row of the block merges here, up to
// RPB chunks (twenty-third session: citeseer's rows of 99 edges in chunks of 16, 7 chunks in a
// block of 8 warps, took 1.5 us to merge through merge_chunks, call 1).
constexpr int kMergeGroup = 4;
struct GlobalPartials {  // chunk c of the row: task k0 + c * H of KernelArgs::partials
  static constexpr int kMaxChunks = kMergeGroup;  // one group: see above
  const KernelArgs& a;
  long long k0;
  int H;
  __device__ __forceinline__ Stat stat(int c) const {
    const float2 v = __ldca(reinterpret_cast<const float2*>(
        partial_stat(a, k0 + static_cast<long long>(c) * H)));
    return Stat{v.x, v.y};
  }
  __device__ __forceinline__ const float* row(int c) const {
    return partial_row(a, k0 + static_cast<long long>(c) * H);
  }
  __device__ __forceinline__ float4 load4(int c, int f) const {
    return __ldca(reinterpret_cast<const float4*>(row(c) + f));
  }
  __device__ __forceinline__ float load(int c, int f) const { return __ldca(row(c) + f); }
};
template <class C>
struct SharedPartials {  // chunk c of the row: the block's slot s0 + c * H
  static constexpr int kMaxChunks = C::BM_SLOTS;
  const FusedShared<C>& sh;
  int s0;
  int H;
  __device__ __forceinline__ Stat stat(int c) const {
    const float2 v = *reinterpret_cast<const float2*>(&sh.part[s0 + c * H][C::BM_F]);
    return Stat{v.x, v.y};
  }
  __device__ __forceinline__ float4 load4(int c, int f) const {
    return *reinterpret_cast<const float4*>(&sh.part[s0 + c * H][f]);
  }
  __device__ __forceinline__ float load(int c, int f) const { return sh.part[s0 + c * H][f]; }
};
template <class C, class Src>
__device__ __forceinline__ void merge_block_chunks(const KernelArgs& a, const ChunkDesc& cd,
                                                   const Src& src,
                                                   typename C::Out* __restrict__ dst) {
  constexpr int M = C::RPB < Src::kMaxChunks ? C::RPB : Src::kMaxChunks;  // chunks at most
  constexpr int K = M < kMergeGroup ? M : kMergeGroup;                   // per group
  const int F = a.feat;
  const int t = threadIdx.x % C::TPR;
  const int n = cd.count;
  // Chunk c's (max, sum), (-inf, 0) past the row's chunks; loads of chunk 0 stand in for
  // those (in bounds, unused), so that every load is unconditional.
  auto stat = [&](int c) {
    const Stat st = src.stat(c < n ? c : 0);
    return c < n ? st : Stat{neg_inf(), 0.f};
  };
  // Each group of K chunks starting at c0 that the row has: fn(c0). Up to two groups (blocks of
  // 8 groups) unrolled, one branch to the second: tpr32 fl16 rpb8's rolled loop over them
  // spent 71% of the merge's samples waiting for instruction fetch, cold (call 5). Blocks of 16
  // groups keep the loop: four unrolled groups made ptxas spill up to 136 bytes more.
  auto groups = [&](auto&& fn) {
    if constexpr (M <= 2 * K) {
      fn(0);
      if constexpr (M > K)
        if (K < n) fn(K);
    } else {
#pragma unroll 1
      for (int c0 = 0; c0 < n; c0 += K) fn(c0);
    }
  };
  timeline_mark<C>(2);
  float m_all = neg_inf(), l_all = 0.f;
  groups([&](int c0) {
    Stat g[K];
#pragma unroll
    for (int c = 0; c < K; ++c) g[c] = stat(c0 + c);
    float m = g[0].m;
#pragma unroll
    for (int c = 1; c < K; ++c) m = fmaxf(m, g[c].m);
    float l = 0.f;
#pragma unroll
    for (int c = 0; c < K; ++c) l += g[c].l > 0.f ? g[c].l * fast_exp(g[c].m - m) : 0.f;
    if constexpr (M <= K) {
      m_all = m;
      l_all = l;
    } else {
      const Stat all = merge(Stat{m_all, l_all}, Stat{m, l});
      m_all = all.m;
      l_all = all.l;
    }
  });
  timeline_mark_after<C>(3, l_all);
  const float inv_l = l_all > 0.f ? __fdividef(1.f, l_all) : 0.f;
  auto weight = [&](const Stat& st) {
    return st.l > 0.f ? st.l * fast_exp(st.m - m_all) * inv_l : 0.f;
  };
  if (F % 4 == 0 && reinterpret_cast<unsigned long long>(dst) % (4 * sizeof(*dst)) == 0) {
    for (int f = 4 * t; f < F; f += 4 * C::TPR) {
      float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
      groups([&](int c0) {
        Stat g[K];
        float4 p[K];
#pragma unroll
        for (int c = 0; c < K; ++c) {
          g[c] = stat(c0 + c);  // again (L1 or shared-memory hits): fewer registers live
          p[c] = src.load4(c0 + c < n ? c0 + c : 0, f);
        }
#pragma unroll
        for (int c = 0; c < K; ++c) {
          const float w = weight(g[c]);
          x.x = fmaf(w, p[c].x, x.x);
          x.y = fmaf(w, p[c].y, x.y);
          x.z = fmaf(w, p[c].z, x.z);
          x.w = fmaf(w, p[c].w, x.w);
        }
      });
      if (f == 0) timeline_mark_after<C>(4, x.x);
      store4(dst + f, x);
    }
  } else {
    for (int f = t; f < F; f += C::TPR) {
      float x = 0.f;
      groups([&](int c0) {
#pragma unroll
        for (int c = c0; c < c0 + K; ++c)
          if (c < n) x = fmaf(weight(stat(c)), src.load(c, f), x);
      });
      store1(dst + f, x);
    }
  }
}

template <class C>
__device__ __forceinline__ void fused_body(const KernelArgs& a, FusedShared<C>& sh,
                                           unsigned* last_flag) {
  static_assert(C::TPR >= 1 && C::TPR <= 1024 && (C::TPR & (C::TPR - 1)) == 0,
                "TPR is a power of two in [1, 1024]");
  static_assert(C::FL >= 1 && C::FL <= C::WARP_TPR && C::WARP_TPR % C::FL == 0,
                "FL divides the group's lanes in a warp");
  static_assert(C::NW == 1 || C::RPB == 1, "multi-warp groups own their block");
  static_assert(C::BLOCK % 32 == 0 || C::BLOCK == C::TPR, "blocks are whole warps");
  static_assert(C::VEC == 1 || C::VEC == 2 || C::VEC == 4 || C::VEC == 8, "VEC in {1,2,4,8}");
  static_assert(C::VEC * sizeof(typename C::Value) <= 16, "at most 16-byte loads");
  static_assert(C::EPL == 1 || C::EPL == 2 || C::EPL == 4, "EPL in {1,2,4}");
  static_assert(C::EPL == 1 || (!C::SMEM && !C::DIRECT), "EPL > 1 is for the shuffle batch mode");
  static_assert(C::ILP >= 1 && (C::ILP & (C::ILP - 1)) == 0 && C::ILP <= C::FL * C::EPL,
                "ILP is a power of two that divides a slot's FL * EPL batch entries");
  static_assert(C::ILP == 1 || !C::DIRECT, "ILP > 1 is for the batch modes");
  static_assert(!C::ASYNC || C::VEC * sizeof(typename C::Value) == 16,
                "SMEM 3 stages 16-byte pieces");

  // Task arithmetic in 32 bits: the host keeps (N + C) * H below 2^31, and a 64-bit division
  // would be a called subroutine that makes ptxas spill around it.
  const unsigned H = static_cast<unsigned>(a.heads);
  const unsigned task = blockIdx.x * C::RPB + threadIdx.x / C::TPR;
  const unsigned chunk_tasks = static_cast<unsigned>(a.num_chunks) * H;
  const unsigned total = chunk_tasks + static_cast<unsigned>(a.num_rows) * H;
  if (task >= total) return;  // a whole group leaves together
#if defined(CSRGAT_TEST_KNOBS)
  if (a.fault == 2) {
    // Spin on the global timer (an asm volatile read the compiler cannot drop) forever.
    while (global_ns() != ~0ull) {
    }
  }
#endif
  const long long F = a.feat;
  const long long row_len = row_length<C>(a);  // of a head's output row
  if (task < chunk_tasks) {
    const unsigned c = task / H;  // (div_heads here too cost the cp.async kernels 6 registers)
    const int h = static_cast<int>(task % H);
    const ChunkDesc cd = a.chunks[c];  // before the wait in run_task: the host's plan
    const long long k = static_cast<long long>(c) * H + h;
    const int t = threadIdx.x % C::TPR;
    // A padding entry of the plan (count 0, build_split_plan) has no edges and no row.
    const bool pad = cd.count == 0;
    // Rows whose chunks all ran in this block merge here, after one barrier, with no fence,
    // atomic or L2 round trip: the group of the row's first chunk reads the others' partials.
    // The host's plan puts a row of at most RPB / H chunks into one block where it can
    // (build_split_plan's per_block) when the launch asks for it (`.bm`, a.block_merge). Only
    // blocks made of chunk tasks alone meet at the barrier (a test every thread of the block
    // agrees on), so each of their threads reaches it.
    // (Nineteenth session: before, every row merged through the hand-off below, whose fence,
    // atomic and L2 loads put about four more round trips on a split row's chain.)
    const bool block_meets =
        C::BM && a.block_merge && (blockIdx.x + 1) * C::RPB <= chunk_tasks;
    const unsigned t0 = blockIdx.x * C::RPB;
    const long long first_task = static_cast<long long>(cd.first) * H + h;
    const bool in_block = block_meets && !pad && first_task >= t0 &&
                          static_cast<long long>(cd.first + cd.count - 1) * H + h < t0 + C::RPB;
    // A row whose features fit a slot keeps its partials in the block's shared memory (slot =
    // task - t0), the others in global memory.
    const bool shared_part = in_block && F <= C::PASS_F;
    if (!pad) {
      float* part = shared_part ? sh.part[C::BM ? task - t0 : 0] : partial_row(a, k);
      const Stat st = run_task<C>(a, sh, cd.begin, cd.end, h, part);
      if (t == 0) {
        // The slot's (max, sum) follow its features (the test on the pointer keeps no more
        // values live across run_task: +36 bytes of spills on tpr16 rpb8 mb8 otherwise). In
        // global memory the pair may sit at an odd offset (an unpacked plan, F odd: C * H * F).
        if (C::BM && __isShared(part)) {
          *reinterpret_cast<float2*>(part + C::BM_F) = make_float2(st.m, st.l);
        } else {
          float* s = partial_stat(a, k);
          s[0] = st.m;
          s[1] = st.l;
        }
      }
      timeline_mark<C>(0);
    }
    if (block_meets) {
      __syncthreads();
      timeline_mark<C>(1);
      if (pad) return;
      if (in_block) {
        if (c == static_cast<unsigned>(cd.first)) {
          typename C::Out* dst = static_cast<typename C::Out*>(a.out) +
                                 (cd.row * static_cast<long long>(H) + h) * row_len;
          // Every row merges in merge_block_chunks from shared memory; from global memory
          // those of at most GlobalPartials::kMaxChunks chunks.
          if (shared_part)
            merge_block_chunks<C>(a, cd, SharedPartials<C>{sh, static_cast<int>(first_task - t0),
                                                           static_cast<int>(H)}, dst);
          else if (C::RPB <= GlobalPartials::kMaxChunks || cd.count <= GlobalPartials::kMaxChunks)
            merge_block_chunks<C>(a, cd, GlobalPartials{a, first_task, static_cast<int>(H)}, dst);
          else
            merge_chunks<C, true>(a, cd, h, dst);
        }
        return;
      }
    } else if (pad) {
      return;
    }
    // Rows whose chunks ran in several blocks: publish this chunk, count it, and let the last
    // one to arrive merge, the pattern of CUTLASS's barrier (arrive_inc) and cooperative
    // groups' grid sync. Release: the group meets (its lanes' partial stores come before lane
    // 0's next operations), lane 0 fences at GPU scope and adds to the row's counter. Acquire:
    // the last chunk's lane 0 fences again, then the group meets before it reads the other
    // chunks' partials. (Until the nineteenth session every lane ran __threadfence() before
    // the count and again in the last chunk: two MEMBAR.SC.GPU and two L1 invalidations per
    // chunk, see fence_release_gpu.)
    const unsigned gmask = group_mask<C::WARP_TPR>();
    if (C::NW > 1) {
      __syncthreads();
    } else {
      __syncwarp(gmask);
    }
    const int g = threadIdx.x / C::TPR;
    if (t == 0) {
      fence_release_gpu();
      const unsigned done =
          atomic_add_relaxed_gpu(a.counters + static_cast<long long>(cd.first) * H + h, 1u);
      const bool last = done + 1 == static_cast<unsigned>(cd.count);
      if (last) fence_acquire_gpu();
      last_flag[g] = last;
    }
    if (C::NW > 1) {
      __syncthreads();
    } else {
      __syncwarp(gmask);
    }
    timeline_mark<C>(1);
    if (last_flag[g]) {
      typename C::Out* dst =
          static_cast<typename C::Out*>(a.out) + (cd.row * static_cast<long long>(H) + h) * row_len;
      merge_chunks<C, false>(a, cd, h, dst);
      if (t == 0) a.counters[static_cast<long long>(cd.first) * H + h] = 0u;
    }
    return;
  }
  unsigned row_task, hu;
  div_heads(task - chunk_tasks, H, row_task, hu);
  const int h = static_cast<int>(hu);
  const typename C::Index* rp = static_cast<const typename C::Index*>(a.row_ptr);
  // A template parameter: kernels without it read no order (a run-time null test alone made
  // the row_ptr loads wait on a predicated load: +2% on the seed shape, v5b). An LPT kernel
  // given no order (the library without a Shape) takes rows in index order.
  long long row = row_task;
  if constexpr (C::LPT) {
    const typename C::Index* order = static_cast<const typename C::Index*>(a.row_order);
    if (order) row = order[row];
  }
  const long long eb = rp[row], ee = rp[row + 1];
  if (a.split_threshold > 0 && ee - eb > a.split_threshold) return;  // done as chunks
  typename C::Out* dst =
      static_cast<typename C::Out*>(a.out) + (row * static_cast<long long>(H) + h) * row_len;
#if defined(CSRGAT_TEST_KNOBS)
  // (Test-only: the one write before the wait, an out-of-bounds crash. After run_task it kept
  // dst live across the task: +2 to +8 registers.)
  if (a.fault == 1 && threadIdx.x % C::TPR == 0) store1(dst + (1ll << 40), 1.f);
#endif
  run_task<C>(a, sh, eb, ee, h, dst);  // waits for the previous kernel (pdl_wait)
  timeline_mark<C>(0);
#if defined(CSRGAT_TEST_KNOBS)
  if (a.slow_percent != 0 && (task - chunk_tasks) % 100u < a.slow_percent)
    run_task<C>(a, sh, eb, ee, h, dst);
  if (a.delay_ns != 0 && threadIdx.x % C::TPR == 0) {
    const unsigned long long t0 = global_ns();
    while (global_ns() - t0 < a.delay_ns) {
    }
  }
#endif
}

}  // namespace csrgat::kern

namespace csrgat::kern {

template <bool B>
struct EnableIf {};
template <>
struct EnableIf<true> {
  using type = int;
};

template <class C>
__device__ __forceinline__ void kernel_body(const KernelArgs& a) {
#if defined(CSRGAT_TIMELINE)
  const unsigned long long start_ns = global_ns();
  const long long start_cycles = clock64();
#endif
  __shared__ FusedShared<C> sh;
  __shared__ unsigned last_flag[C::RPB];
  pdl_launch_dependents();
  if (a.prefetch) prefetch_inputs<C>(a);
  // Rows this kernel's loads cannot take are the scalar twin's (the host checks the same
  // condition, values_rows_aligned in launch.h): a kernel launched on them stops the context
  // rather than read past its rows or return wrong sums.
  if (C::VEC > 1 && (a.feat % C::VEC != 0 || (reinterpret_cast<unsigned long long>(a.values) %
                                               (C::VEC * sizeof(typename C::Value))) != 0))
    __trap();
  fused_body<C>(a, sh, last_flag);
#if defined(CSRGAT_TIMELINE)
  if (threadIdx.x % C::TPR == 0) {  // field by field: the marks are written already
    const long long cycles = clock64() - start_cycles;
    csrgat::TimelineRecord& r = timeline_record<C>();
    r.start_ns = start_ns;
    r.end_ns = global_ns();
    r.sm = sm_id();
    r.cycles = static_cast<unsigned>(cycles);
    r.block = blockIdx.x;
  }
#endif
}

}  // namespace csrgat::kern

// The kernel: one instantiation per parameter set. With VEC > 1 only for values rows that are
// VEC-aligned (F % VEC == 0 and an aligned base, checked on the host); other rows go to its
// scalar twin (csrgat_fused_scalar_twin below).
//
// MINB > 0 asks ptxas (__launch_bounds__(block, MINB)) for registers that let MINB blocks
// share an SM: more warps in flight at the price of possible spills, which the tuner weighs.
// MINB 0 has no __launch_bounds__ at all: even (block, 1) changes ptxas' choices (the tpr8
// 128-thread kernel: 86 registers with it, 72 without). The two cases are two templates of one
// name; the last template parameter (defaulted) lets exactly one of them exist per MINB.
template <int TPR, int FL, int RPB, int VEC, int TILES, int EPL, int ILP, int MINB, int SMEM,
          int ONLINE, int LPT, class Index, class Value, int SLICED = 0, int OUT16 = 0,
          typename csrgat::kern::EnableIf<MINB == 0>::type = 0>
__global__ void csrgat_fused(const csrgat::KernelArgs a) {
  csrgat::kern::kernel_body<csrgat::kern::FusedConfig<TPR, FL, RPB, VEC, TILES, EPL, ILP, SMEM,
                                                      ONLINE, LPT, Index, Value, SLICED, OUT16>>(a);
}
template <int TPR, int FL, int RPB, int VEC, int TILES, int EPL, int ILP, int MINB, int SMEM,
          int ONLINE, int LPT, class Index, class Value, int SLICED = 0, int OUT16 = 0,
          typename csrgat::kern::EnableIf<(MINB > 0)>::type = 0>
__global__ void __launch_bounds__(TPR* RPB, MINB) csrgat_fused(const csrgat::KernelArgs a) {
  csrgat::kern::kernel_body<csrgat::kern::FusedConfig<TPR, FL, RPB, VEC, TILES, EPL, ILP, SMEM,
                                                      ONLINE, LPT, Index, Value, SLICED, OUT16>>(a);
}

#if !defined(__CUDACC_RTC__)
// Host code (the library's dispatch table): the scalar twin of csrgat_fused<TPR, ..., Value>,
// the kernel of its FusedConfig::Scalar with the same launch bounds, for values rows that are
// not VEC-aligned; the kernel itself when VEC is 1. The tuner names the same instantiation for
// NVRTC (VariantParams::scalar_kernel_name).
template <int TPR, int FL, int RPB, int VEC, int TILES, int EPL, int ILP, int MINB, int SMEM,
          int ONLINE, int LPT, class Index, class Value, int SLICED = 0, int OUT16 = 0>
constexpr void (*csrgat_fused_scalar_twin())(const csrgat::KernelArgs) {
  using S = typename csrgat::kern::FusedConfig<TPR, FL, RPB, VEC, TILES, EPL, ILP, SMEM, ONLINE,
                                               LPT, Index, Value, SLICED, OUT16>::Scalar;
  if constexpr (VEC == 1)
    return &csrgat_fused<TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, Index, Value,
                         SLICED, OUT16>;
  else
    return &csrgat_fused<S::TPR, S::FL, S::RPB, S::VEC, S::TILES, S::EPL, S::ILP, MINB,
                         S::SMEM_MODE, ONLINE, LPT, Index, Value, SLICED, OUT16>;
}
#endif
