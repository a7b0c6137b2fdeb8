// colblock kernels: the column-blocked sweep of the DRAM-bound aggregation (issue 7, target 2),
// shared by the probe that measured its design (profiler/tools/colblock_probe.cu, the thirty-
// second to thirty-fourth sessions; docs/perf-notes.md) and the production library's launcher
// (csrgat/colblock.cu: the tuner's colblock.* variants and `tuner bench --impl colblock` use it
// too). Compiled by nvcc, not NVRTC, and for sm_90 or later only (bulk copies, mbarrier
// transaction counts): the NVRTC family stays what the tuner compiles.
//
// The design. A graph whose values matrix is far larger than L2 gathers each source row from
// DRAM once a use. Here every resident warp (a persistent grid) holds the accumulators of R rows
// on chip and gathers their sources in partition order (sources cut into P partitions of S rows,
// S a power of two; the order comes from a plan built once per graph), while a soft grid barrier
// keeps the warps within `lag` partitions of each other: a window of sources that fits in L2, so
// a batch of (resident warps x R) rows reads a source row from DRAM about once however many of
// its rows gather it. The barrier orders the schedule only: a warp that waited too long goes on
// (counted in `timeouts`), and no result depends on it.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "variants/colblock_plan.h"

namespace csrgat::colblock {

constexpr int kProfileFields = 6;

// One REDUX instruction (call 11: five shuffles and adds were a third of the barrier's polls).
__device__ __forceinline__ int warp_sum_int(int v) { return __reduce_add_sync(0xffffffffu, v); }

// The soft grid barrier of one warp. A step's counter is spread over kLines lines (warp w adds
// to line w % kLines; a poll reads one line a lane): additions to one address serialise in L2
// (call 4: a step took ~4.2 us with 8 lines for 2112 warps, whatever the lag). Call 5 spread
// them over 128 lines, and every poll then read 4 KB: 24-250 GB of extra L2 traffic, 2.5-3x
// slower. Steps share kSlotsRing counters in turn: step s counts in slot s % kSlotsRing, and is
// done when the slot holds total_warps x (s / kSlotsRing + 1); a warp adds for step s only once
// step s - kSlotsRing is done. It only orders the schedule: a warp that waited spin_limit polls
// goes on (counted in timeouts) and marks the launch's barrier abandoned, after which no wait of
// that launch sleeps (a grid that is not all resident — an MPS limit, another process on the
// SMs — would otherwise pay spin_limit polls at every one of its batches x partitions steps);
// no result depends on it.
constexpr int kLines = 32;
constexpr int kSlotsRing = 32;  // 16 until the thirty-second session's call 6
static_assert(kMaxLag == kSlotsRing - 1, "a warp runs at most a ring less one step ahead");
constexpr int kLineWords = 32;
constexpr int kStepWords = kSlotsRing * kLines * kLineWords;
// The barrier's memory, zeroed before each launch: the step counters, then a line whose first
// word is the abandoned mark.
constexpr size_t kBarrierBytes = static_cast<size_t>(kStepWords + kLineWords) * sizeof(unsigned);

// kTimedGap (tma_gather's kTrim bit 6; the library's bfloat16 sweep): after a failed poll the warp
// sleeps until the SM clock has passed the pause (2 cycles a nanosecond: ~1 ns at the 1.98 GHz both
// boards run) before it polls again; without it one __nanosleep(pause) a poll, whose length is
// a hint (the fifty-fourth session's per-instruction counts: 45 M polls of ~19 instructions and
// 32 lines each under Nsight Compute, 20% of the bfloat16 sweep's instructions, at 4096 ns).
template <bool kProfile, bool kTimedGap = false>
struct SoftBarrier {
  unsigned* step_done;
  unsigned* timeouts;
  int total_warps, spin_limit, lag, lane;
  unsigned* my_line;
  int cleared = -1;  // the highest step every warp is known to have finished
  int pending_step = -1;  // prefetch(): the step whose counter lines `pending` holds, a lane a line
  int pending = 0;
  unsigned long long t_wait = 0, n_waits = 0, n_slept = 0;
  unsigned first_pause = 64;  // ns slept after the first failed poll, doubling to 1024 (or to it)

  __device__ SoftBarrier(unsigned* steps, unsigned* timeouts_, int warps, int spins, int lag_,
                         int gw, int lane_)
      : step_done(steps), timeouts(timeouts_), total_warps(warps), spin_limit(spins), lag(lag_),
        lane(lane_), my_line(steps + (gw % kLines) * kLineWords) {}

  __device__ const volatile unsigned* slot_lines(int step) const {
    return step_done + static_cast<size_t>(step % kSlotsRing) * kLines * kLineWords;
  }

  // By the whole warp: starts reading the counter of a step a later wait_for(step) will want,
  // so that the wait finds it done without a round trip to L2 (counters only grow: a value read
  // early that already reaches the target still does).
  __device__ void prefetch(int step) {
    static_assert(kLines == 32, "a lane a line");
    if (step <= cleared || step < 0) return;
    pending_step = step;
    pending = static_cast<int>(slot_lines(step)[lane * kLineWords]);
  }

  // By the whole warp: returns once every warp has finished `step`.
  __device__ void wait_for(int step) {
    if (step <= cleared) return;
    const int target = total_warps * (step / kSlotsRing + 1);
    if (step == pending_step && warp_sum_int(pending) >= target) {
      cleared = step;
      return;
    }
    const long long t0 = kProfile ? clock64() : 0;
    if (kProfile) ++n_waits;
    const volatile unsigned* slot_lines = this->slot_lines(step);
    unsigned pause = first_pause;
    for (int spins = 0;; ++spins) {
      int mine = 0;
      for (int l = lane; l < kLines; l += 32) mine += static_cast<int>(slot_lines[l * kLineWords]);
      if (warp_sum_int(mine) >= target) break;
      volatile unsigned* abandoned = step_done + kStepWords;
      if (*abandoned != 0u) break;  // a warp of this launch gave up: nobody waits any more
      if (spins >= spin_limit) {
        if (lane == 0) {
          atomicAdd(timeouts, 1u);
          *abandoned = 1u;
        }
        break;
      }
      if (kProfile && spins == 0) ++n_slept;
      if constexpr (kTimedGap) {
        const long long until = clock64() + 2ll * pause;
        do __nanosleep(pause);
        while (clock64() < until);
      } else {
        __nanosleep(pause);
      }
      pause = min(pause * 2, max(1024u, first_pause));
    }
    cleared = step;
    if (kProfile) t_wait += clock64() - t0;
  }

  // By the whole warp: this warp has finished `step`.
  __device__ void signal(int step) {
    if (lag < 0) return;  // no barrier: nobody waits for the counters
    if (step >= kSlotsRing) wait_for(step - kSlotsRing);
    if (lane == 0)
      atomicAdd(my_line + static_cast<size_t>(step % kSlotsRing) * kLines * kLineWords, 1u);
  }

  // By lane 0: adds this warp's profile (kProfileFields words) to the grid's.
  __device__ void record(unsigned long long* profile, unsigned long long t_setup,
                         unsigned long long total_cycles, unsigned long long rounds) const {
    atomicAdd(profile + 0, t_setup);
    atomicAdd(profile + 1, t_wait);
    atomicAdd(profile + 2, total_cycles - t_setup - t_wait);
    atomicAdd(profile + 3, rounds);
    atomicAdd(profile + 4, n_waits);
    atomicAdd(profile + 5, n_slept);
  }
};

// The arguments of the planned kernels (tma_gather here, the probe's stream_gather). F = 128 and
// one head only: a lane holds one float4 of a row.
struct StreamArgs {
  const int* row_ptr;
  const float* scores;
  const float4* values;  // (n, 32)
  float4* out;           // (n, 32)
  // Each warp batch's items (col | row << 24, the edge's offset from the batch's first edge) in
  // partition order: with cap > 0, cap a warp batch (batches x total_warps x cap, the probe's
  // builder); with cap 0, the batch's edges permuted in place (E items: colblock_plan.h).
  const uint2* plan;
  int n;
  int rows_per_warp;     // R (at most 31)
  int part_rows;         // S
  int parts;             // P
  int cap;               // see plan
  int lag;
  int total_warps;
  int batches;
  unsigned* step_done;
  unsigned* timeouts;
  int spin_limit;
  unsigned long long* profile;  // kProfileFields, as sweep_gather's (setup: the rows' statistics)
  const float2* row_stats;      // (n) each row's maximum and 1 / sum from row_stats_pass; null:
                                // a batch takes its rows' statistics itself (a lane a row)
  // The profiling instance: kWarpTraceWords a warp (its SM, its cycles less the waits, its
  // waits); null: not recorded.
  unsigned long long* warp_trace;
  int part_shift;  // S = 1 << part_shift when S is a power of two (the ringed kernels'), else -1
  int poll_pause_ns;  // tma_gather: the barrier's first sleep after a failed poll (0: 64 ns)
};
constexpr int kWarpTraceWords = 3;

// The L1 policies of a sweep's loads (Geometry::l1_policy, `.l1p<N>` in a colblock id; the
// thirty-ninth session, from the thirty-fourth's call 9: the items' scores, loaded one by one from
// anywhere in their batch's 2.4 KB, missed L1 ~2 times in 3 and were ~4 GB of the sweep's 52 GB of
// L2 traffic). 0: every load allocates in L1 (the sweep as measured since the thirty-fourth
// session; the items by a plain load). 1, the control of 2: the items by the read-only path (.nc,
// as __ldg), no hint. 2: the items, each read once, bypass L1 (.nc with L1::no_allocate), so that
// they do not evict the batch's score lines. 3: as 2, and the scores are kept in L1 at evict_last
// priority (a row's statistics bring its scores' line in; its items read it again later in the
// batch). kMaxL1Policy: variants/colblock_plan.h.

template <int L1P>
__device__ __forceinline__ uint2 ld_item(const uint2* p) {
  static_assert(L1P >= 0 && L1P <= kMaxL1Policy, "an L1 policy");
  if constexpr (L1P == 0) {
    return *p;
  } else if constexpr (L1P == 1) {
    return __ldg(p);
  } else {
    uint2 v;
    asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];"
        : "=r"(v.x), "=r"(v.y)
        : "l"(__cvta_generic_to_global(p)));
    return v;
  }
}

template <int L1P>
__device__ __forceinline__ float ld_score(const float* p) {
  if constexpr (L1P < 3) {
    return __ldg(p);
  } else {
    float v;
    asm("ld.global.nc.L1::evict_last.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p)));
    return v;
  }
}

// By each lane: the line holding `p` into L2 (from DRAM), nothing into a register (no load for a
// later instruction to wait on).
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// A row's softmax maximum and 1 / sum over scores[lo, hi), online, 16 loads in flight at a time.
template <int L1P = 0>
__device__ __forceinline__ float2 row_softmax_stats(const float* scores, int lo, int hi) {
  constexpr int kStat = 16;
  float m = -INFINITY, sum = 0.f;
  for (int e0 = lo; e0 < hi; e0 += kStat) {
    float x[kStat];
#pragma unroll
    for (int k = 0; k < kStat; ++k) x[k] = e0 + k < hi ? ld_score<L1P>(scores + e0 + k) : -INFINITY;
    float m2 = m;
#pragma unroll
    for (int k = 0; k < kStat; ++k) m2 = fmaxf(m2, x[k]);
    if (m2 == -INFINITY) continue;  // every score so far -inf: their weights are 0
    sum *= __expf(m - m2);
#pragma unroll
    for (int k = 0; k < kStat; ++k) sum += __expf(x[k] - m2);
    m = m2;
  }
  // A row whose scores are all -inf (or none): maximum 0 and 1 / sum 0, so that its weights
  // exp(-inf - 0) x 0 are 0, not NaN.
  return make_float2(m == -INFINITY ? 0.f : m, sum > 0.f ? 1.f / sum : 0.f);
}

// The pre-pass of stream_gather's row statistics: a thread a row (a launch before the sweep, in
// the timed call), so that a batch starts with one load a lane instead of a row's scores.
__global__ void __launch_bounds__(256) row_stats_pass(int n, const int* row_ptr,
                                                      const float* scores, float2* stats) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) stats[row] = row_softmax_stats(scores, row_ptr[row], row_ptr[row + 1]);
}

__device__ __forceinline__ void add_weighted(float4& acc, float w, const float4& v) {
  acc.x += w * v.x;
  acc.y += w * v.y;
  acc.z += w * v.z;
  acc.w += w * v.w;
}

// One warp's batch of a planned kernel (stream_gather, tma_gather): its R rows' bounds, its items
// in partition order (a lane each a chunk of 32: col | row << 24 and the edge's offset, weighed
// into col | row << 24 and the softmax weight), and the partitions it has reported finished.
// AHEAD: the items a chunk's gathers run ahead of it (the ring); L1P: the L1 policy of its loads;
// Barrier: the kernel's SoftBarrier.
template <int AHEAD, bool kProfile, int L1P = 0, class Barrier = SoftBarrier<kProfile>>
struct WarpBatch {
  const StreamArgs& a;
  Barrier& bar;
  const float2* stats;
  int lane;
  int r0;  // below n + total_warps x R (< 2^25: n < 2^24, colblock.h), so int
  int nr, my_rp, e_first, n_items, step0;
  bool fits;
  const uint2* items;
  int reported = -1;  // this batch's partitions reported finished

  __device__ WarpBatch(const StreamArgs& args, Barrier& barrier, const float2* st, int b, int gw,
                       int lane_)
      : a(args), bar(barrier), stats(st), lane(lane_) {
    const int R = a.rows_per_warp;
    // In int, not 64-bit: the float32 sweep kept gw x R - n in two registers across its batches
    // and spilled one, refilled at every batch's start (the sixty-third session: float32 -0.39%
    // on an H100 without it; docs/perf-notes.md).
    r0 = (b * a.total_warps + gw) * R;
    nr = max(0, min(R, a.n - r0));
    my_rp = lane <= nr && nr > 0 ? a.row_ptr[r0 + lane] : 0;
    e_first = __shfl_sync(0xffffffffu, my_rp, 0);
    const int e_end = __shfl_sync(0xffffffffu, my_rp, nr);
    fits = a.cap == 0 || e_end - e_first <= a.cap;
    n_items = fits ? e_end - e_first : 0;  // else out untouched
    items = a.plan + (a.cap > 0 ? (static_cast<size_t>(b) * a.total_warps + gw) * a.cap
                                : static_cast<size_t>(e_first));
    step0 = b * a.parts;
  }
  // By the whole warp, into `stats` (then __syncwarp): lane r row r's maximum and 1 / sum, from
  // the pre-pass or taken here.
  __device__ void take_stats(float2* out) const {
    const int hi = __shfl_down_sync(0xffffffffu, my_rp, 1);
    if (lane < nr)
      out[lane] =
          a.row_stats ? a.row_stats[r0 + lane] : row_softmax_stats<L1P>(a.scores, my_rp, hi);
  }
  __device__ void report_below(int q_end) {
    for (int q = reported + 1; q < q_end; ++q) bar.signal(step0 + q);
    reported = max(reported, q_end - 1);
  }
  __device__ uint2 fetch(int c) const {
    const int i = c * 32 + lane;
    return i < n_items ? ld_item<L1P>(items + i) : make_uint2(0u, 0u);
  }
  __device__ uint2 weigh(int c, uint2 it) const {
    const int i = c * 32 + lane;
    if (i >= n_items) return make_uint2(0u, 0u);
    const float2 st = stats[it.x >> 24];
    const float w = __expf(ld_score<L1P>(a.scores + e_first + it.y) - st.x) * st.y;
    return make_uint2(it.x, __float_as_uint(w));
  }
  // Whether an item of chunk c weighed 0 (it): an edge masked by a -inf score, or a weight below
  // float32's range (one vote a chunk; tma_gather then looks for NaN rows: rows_again).
  __device__ bool zero_in(int c, uint2 it) const {
    return __any_sync(0xffffffffu, it.y == 0u && c * 32 + lane < n_items);
  }
  // Chunk c + 2's items, weighed from the score s_raw loaded for raw during chunk c.
  __device__ uint2 weigh_loaded(int c, uint2 raw, float s_raw) const {
    if ((c + 2) * 32 + lane >= n_items) return make_uint2(0u, 0u);
    const float2 st = stats[raw.x >> 24];
    return make_uint2(raw.x, __float_as_uint(__expf(s_raw - st.x) * st.y));
  }
  __device__ float load_score(int c, uint2 raw) const {
    return (c + 2) * 32 + lane < n_items ? ld_score<L1P>(a.scores + e_first + raw.y) : 0.f;
  }
  // (call 4: an integer division by S, ~20 instructions, five a chunk)
  __device__ int part(unsigned x) const {
    return static_cast<int>(a.part_shift >= 0 ? (x & 0xffffffu) >> a.part_shift
                                              : (x & 0xffffffu) / a.part_rows);
  }
  // The step chunk c waits for: every warp has finished the partition lag below the last one
  // the chunk loads from, but never one this warp has not reported (its first's - 1); -1: none.
  __device__ int needed_step(int c, uint2 cur, uint2 next) const {
    const int hi = min(n_items - 1, c * 32 + 31 + AHEAD);
    const unsigned x_hi = __shfl_sync(0xffffffffu, (hi >> 5) == c ? cur.x : next.x, hi & 31);
    const int first = part(__shfl_sync(0xffffffffu, cur.x, 0));
    return max(-1, step0 + min(part(x_hi) - a.lag, first - 1));
  }
  // After chunk c: reports the partitions below the next chunk's first (all at the end).
  __device__ void report_after(int c, uint2 next) {
    report_below((c + 1) * 32 < n_items ? part(__shfl_sync(0xffffffffu, next.x, 0)) : a.parts);
  }
};

// By lane 0 of a profiling instance: the warp's profile into the grid's, and its trace.
template <class Barrier>
__device__ void record_warp(const StreamArgs& a, const Barrier& bar, int gw,
                            unsigned long long t_setup, unsigned long long total,
                            unsigned long long n_chunks) {
  bar.record(a.profile, t_setup, total, n_chunks);
  if (a.warp_trace) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    unsigned long long* t = a.warp_trace + static_cast<size_t>(gw) * kWarpTraceWords;
    t[0] = smid;
    t[1] = total - bar.t_wait;
    t[2] = bar.t_wait;
  }
}

// --- tma_gather: the gathers' ring in shared memory, filled by bulk copies ---------------------
// stream_gather's ring holds LA float4 a lane in registers, and its accumulators take shared
// memory: registers and shared memory together bound the rows on chip (x) and the gathers in
// flight. Here a warp's ring is K slots of shared memory (a source row each: 512 bytes of
// float32, 256 of bfloat16), filled
// by one lane's bulk copy (cp.async.bulk, the TMA unit: no register and no L1 line holds a gather
// in flight) and each slot's mbarrier counts its bytes in. The registers freed hold RG of the
// warp's R rows' accumulators (a uniform branch picks the row), shared memory the other R - RG.

// One warp's shared memory: K ring slots (a source row each: 512 bytes of float32, 256 of
// bfloat16), (R - RG) x 32 float4 accumulators, the items of the chunk and the next (64 x 8
// bytes), R (max, 1 / sum) pairs, K mbarriers.
__host__ __device__ inline size_t tma_warp_bytes(int rows, int reg_rows, int ring,
                                                 int row_bytes = 512) {
  return (static_cast<size_t>(ring) * row_bytes + static_cast<size_t>(rows - reg_rows) * 512 +
          64 * 8 + rows * 8 + ring * 8 + 15) / 16 * 16;
}

// A lane's four features of a source row in the ring, or in global memory (the lane's 16 bytes of
// float32, or 8 of bfloat16 widened: a bfloat16 is a float32's upper half).
template <class V>
__device__ __forceinline__ float4 ring_piece(const unsigned char* slot, int lane) {
  if constexpr (sizeof(V) == 4) {
    return reinterpret_cast<const float4*>(slot)[lane];
  } else {
    const uint2 w = reinterpret_cast<const uint2*>(slot)[lane];
    return make_float4(__uint_as_float(w.x << 16), __uint_as_float(w.x & 0xffff0000u),
                       __uint_as_float(w.y << 16), __uint_as_float(w.y & 0xffff0000u));
  }
}

// A warp's ring of `bytes` zeroed by its lanes and fenced for the bulk copies (async proxy) that
// will overwrite it.
__device__ __forceinline__ void zero_ring(unsigned char* ring, int bytes, int lane) {
  for (int i = lane; i < bytes / 16; i += 32)
    reinterpret_cast<float4*>(ring)[i] = make_float4(0.f, 0.f, 0.f, 0.f);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The rows of the warp's batch in `again` (bit r: row r, r < nr) summed again in float32 with no
// product and written out, so that a non-finite value reaches only the rows that gather it, as in
// the reference: mma_gather's bit 5 (a group's product spreads 0 x Inf = NaN over all its rows),
// and tma_gather's rows that came out NaN in a batch with an item of weight 0 (an edge masked by
// a -inf score from a +Inf or NaN source: the reference skips it, the adds made it 0 x Inf). One
// walk of the batch's items serves up to kPassRows rows at once (a pass), their sums in the idle
// ring (ring_bytes at least kPassRows x 512: no copy is in flight after the batch's last chunk),
// the next chunk's items fetched while a chunk's are added, and 8 of a chunk's items loaded before
// any is added (the fifty-ninth session's walk a row, each item's load waited for alone, took 6.5x
// mma_gather's clean time with 64 poisoned sources: call 6). Items of weight 0 are skipped, as the
// reference skips them (0 x Inf is NaN). The ring is zeroed again after (mma_gather: a later
// batch's partial group reads stale slots, times weight 0) and fenced for the bulk copies that
// refill it. Lane l: features 4 l .. 4 l + 3 of V rows (128 of them a row).
template <class V, int kPassRows, class Batch>
__device__ __forceinline__ void rows_again(const StreamArgs& a, const Batch& w,
                                           const unsigned char* vbytes, unsigned again,
                                           unsigned char* ring, int ring_bytes, int lane) {
  static_assert(kPassRows == 8 || kPassRows == 16, "passes tile the 32 rows' bits");
  constexpr unsigned kPassMask = (1u << kPassRows) - 1u;
  constexpr size_t kRowBytes = 128 * sizeof(V);
  constexpr int kIlp = 8;
  float4* const sums = reinterpret_cast<float4*>(ring);  // row r of a pass at its rank's 512 bytes
  // Passes of rows 0 .. kPassRows - 1, and on, unrolled (mma_gather: a loop over passes instead
  // spilled 124 bytes in the sweep's loop).
#pragma unroll
  for (int half = 0; half < 32 / kPassRows; ++half) {
    const unsigned pass = again & (kPassMask << (half * kPassRows));
    if (pass == 0) continue;
    const int rows = __popc(pass);
    const auto slot_of = [pass](unsigned r) { return __popc(pass & ((1u << r) - 1u)); };
    for (int i = 0; i < rows; ++i) sums[i * 32 + lane] = make_float4(0.f, 0.f, 0.f, 0.f);
    uint2 raw = w.fetch(0);
    for (int c = 0; c * 32 < w.n_items; ++c) {
      const uint2 it = w.weigh(c, raw);  // (col | row << 24, weight); 0 past the end
      raw = w.fetch(c + 1);
      unsigned m = __ballot_sync(0xffffffffu, c * 32 + lane < w.n_items &&
                                                  ((pass >> (it.x >> 24)) & 1u) != 0 &&
                                                  __uint_as_float(it.y) != 0.f);
      while (m != 0) {
        float4 v[kIlp];
        float wk[kIlp];
        int slot[kIlp];
#pragma unroll
        for (int u = 0; u < kIlp; ++u) {
          const bool live = m != 0;
          const int k = live ? __ffs(m) - 1 : 0;
          m &= m - 1;
          const unsigned x = __shfl_sync(0xffffffffu, it.x, k);
          const float wt = __uint_as_float(__shfl_sync(0xffffffffu, it.y, k));
          wk[u] = live ? wt : 0.f;
          slot[u] = slot_of(x >> 24);
          v[u] = live ? ring_piece<V>(vbytes + static_cast<size_t>(x & 0xffffffu) * kRowBytes, lane)
                      : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int u = 0; u < kIlp; ++u)
          if (wk[u] != 0.f) {  // in item order: each row's sum as the walk a row added it
            float4 s = sums[slot[u] * 32 + lane];
            add_weighted(s, wk[u], v[u]);
            sums[slot[u] * 32 + lane] = s;
          }
      }
    }
    for (unsigned p = pass; p != 0; p &= p - 1) {
      const int r = __ffs(p) - 1;
      a.out[static_cast<size_t>(w.r0 + r) * 32 + lane] = sums[slot_of(r) * 32 + lane];
    }
  }
  zero_ring(ring, ring_bytes, lane);
  __syncwarp();
}

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

// By each lane that calls it: one arrival on `bar`, expecting `bytes` more to come in.
__device__ __forceinline__ void mbar_arrive_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes)
               : "memory");
}

// By each lane that calls it: copies `bytes` from global memory into `dst` (16-aligned), counted
// in on `bar`. No proxy fence before it: the warp's reads of the slot's last contents have
// returned (their values were added, and __syncwarp came between), as in CUTLASS's pipelines,
// whose consumers release a slot by an mbarrier arrive alone (call 2's fence.proxy.async
// compiled to MEMBAR.ALL.CTA and was dropped before the call).
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, unsigned bytes,
                                          unsigned long long* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}

// By each lane: copies 16 bytes from global memory into `dst` (L2 only, no L1 line), in the
// lane's current cp.async group.
__device__ __forceinline__ void async_copy16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src) : "memory");
}

__device__ __forceinline__ void async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Returns once at most N of the lane's committed cp.async groups are still in flight.
template <int N>
__device__ __forceinline__ void async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

__device__ __forceinline__ bool mbar_try_wait(unsigned long long* bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(done)
      : "r"(smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

// By the whole warp (converged): true in one lane (elect.sync). ptxas knows that one lane runs
// what it guards, so the bulk copies there move their operands to uniform registers once each
// (R2UR), without the loop over the active lanes that a copy guarded by `lane < n` compiles to
// (ELECT, four R2UR, UBLKCP and a branch, a lane).
__device__ __forceinline__ bool elect_one() {
  unsigned one;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "elect.sync _|p, 0xffffffff;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(one));
  return one != 0;
}

// Staged item t's source row (its column: the low 24 bits of col | row << 24).
__device__ __forceinline__ unsigned staged_source(const uint2* staged, int t) {
  return staged[t].x & 0xffffffu;
}

// By the whole warp (converged): one elected lane arrives on `bar` expecting the group's bytes
// and copies item j's row (src[j], read before the first copy: a load between two copies waits
// behind the first's memory clobber) of `row_bytes` into slot first + j of `ring` (`slot_bytes`
// apart), for the first min(left, GS) items; a whole group (left >= GS) with no check an item.
template <int GS>
__device__ __forceinline__ void copy_group(unsigned char* ring, int first, unsigned slot_bytes,
                                           const unsigned char* vbytes, unsigned row_bytes,
                                           const unsigned (&src)[GS], int left,
                                           unsigned long long* bar) {
  if (left >= GS) {
    if (elect_one()) {
      mbar_arrive_expect(bar, GS * row_bytes);
#pragma unroll
      for (int j = 0; j < GS; ++j)
        bulk_copy(ring + (first + j) * slot_bytes, vbytes + static_cast<size_t>(src[j]) * row_bytes,
                  row_bytes, bar);
    }
  } else if (elect_one()) {
    mbar_arrive_expect(bar, static_cast<unsigned>(left) * row_bytes);
#pragma unroll
    for (int j = 0; j < GS; ++j)
      if (j < left)
        bulk_copy(ring + (first + j) * slot_bytes, vbytes + static_cast<size_t>(src[j]) * row_bytes,
                  row_bytes, bar);
  }
}

// By the whole warp: returns once `bar`'s phase with this parity has completed; traps after 2^26
// polls (a copy that never arrives, an issue without its wait) rather than hang the run.
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
  for (unsigned polls = 0; !mbar_try_wait(bar, parity); ++polls)
    if (polls == (1u << 26)) __trap();
}

// acc[r] += w v for a warp-uniform r in [LO, LO + N), by a tree of uniform branches (the array
// stays in registers: every index is static).
template <int LO, int N, int M>
__device__ __forceinline__ void add_to_reg_row(float4 (&acc)[M], int r, float w, const float4& v) {
  if constexpr (N == 1) {
    add_weighted(acc[LO], w, v);
  } else {
    constexpr int H = N / 2;
    if (r < LO + H)
      add_to_reg_row<LO, H>(acc, r, w, v);
    else
      add_to_reg_row<LO + H, N - H>(acc, r, w, v);
  }
}

// acc[r] += w v for a warp-uniform r in [0, N) by a switch (N at most 16). ptxas (CUDA 13, sm_90)
// compiles it to a compare tree whose leaf is one block of 4 FFMA, where it if-converts
// add_to_reg_row's last level into pairs of predicated FFMA that both issue.
template <int N, int M>
__device__ __forceinline__ void add_to_reg_row_switch(float4 (&acc)[M], int r, float w,
                                                      const float4& v) {
  static_assert(N <= 16 && N <= M, "at most 16 register rows");
#define CSRGAT_REG_ROW_CASE(k)                                   \
  case k:                                                        \
    if constexpr (k < N) add_weighted(acc[k < M ? k : 0], w, v); \
    break;
  // clang-format off
  switch (r) {
    CSRGAT_REG_ROW_CASE(0) CSRGAT_REG_ROW_CASE(1) CSRGAT_REG_ROW_CASE(2) CSRGAT_REG_ROW_CASE(3)
    CSRGAT_REG_ROW_CASE(4) CSRGAT_REG_ROW_CASE(5) CSRGAT_REG_ROW_CASE(6) CSRGAT_REG_ROW_CASE(7)
    CSRGAT_REG_ROW_CASE(8) CSRGAT_REG_ROW_CASE(9) CSRGAT_REG_ROW_CASE(10) CSRGAT_REG_ROW_CASE(11)
    CSRGAT_REG_ROW_CASE(12) CSRGAT_REG_ROW_CASE(13) CSRGAT_REG_ROW_CASE(14) CSRGAT_REG_ROW_CASE(15)
    default:
      break;
  }
  // clang-format on
#undef CSRGAT_REG_ROW_CASE
}

// The ring's K slots form K / GS groups of GS: the warp waits once a group, adds its GS items,
// and refills it with the items K ahead (call 2, a wait and a copy an item, unrolled over the
// chunk: 72 instructions an item, 4.6 G in all, and instruction-fetch stalls from ~135 KB of code).
// kAsync false: lanes 0 .. GS - 1 refill a group by a bulk copy each (the TMA unit), counted on
// the group's mbarrier (GS arrivals); each copy is ~9 instructions of a uniform-register loop
// (call 3: 59 instructions an item in all). kAsync true: every lane copies its 16 bytes of each
// of the group's rows (cp.async, one instruction for the warp's 512 bytes), the group one
// cp.async group of each lane, and a lane waits for its own copies only: it reads back only the
// 16 bytes it wrote (no mbarrier, and no __syncwarp before a slot is overwritten).
// PF > 0: with each group's refill, its lanes prefetch the rows of the items PF beyond it into
// L2 (a line request a lane, no destination on chip), so that the ring's copies wait for L2
// rather than DRAM (call 5: the warps' stalls were mostly the copies' waits, with ~120 gathers
// in flight an SM, which the ring's shared memory bounds).
// V: the values' storage, float (4-byte elements) or a 16-bit type whose bits are a float32's
// upper half (__nv_bfloat16, or unsigned short standing for it): its rows are 256 bytes, copied
// whole (bulk copies only) and widened as they are added; a.values points at them (typed float4
// for the float32 rows the probe reads). L1P: the L1 policy of the items' and scores' loads
// (kMaxL1Policy's comment). kTrim, the group loop's trims (the fifty-second session,
// docs/perf-notes.md): bit 0 adds a whole group's items without a bound check an item, bit 1 picks
// a register row by add_to_reg_row_switch (together, trim 3: 4.8-5.2% fewer instructions; on an
// H100 the bfloat16 sweep 2.4% faster, the float32 sweep, DRAM-bound there, unchanged); 0 is the
// loop as measured until then, kept for colblock_probe's side-by-side runs. Bit 2 (the
// fifty-third session): one elected lane arrives on a group's mbarrier (count 1) and issues its
// GS copies, ~37 instructions a group where GS lanes' copies took ~59 (each lane's copy a loop
// over the active lanes: ELECT, R2UR, UBLKCP; trim 7 against trim 3 on an H100: 6.0-6.4% fewer
// instructions, float32 0.5% and bfloat16 1.4% faster). Bit 3: the copies' sources read before
// the first copy (trim 15 against 7 on an H100: bfloat16 4.3% faster, float32 unchanged, DRAM-
// bound there); trim 15, all four, is the default and the library's float32 sweep. Bit 4: a
// group's refill sources read before its wait rather than after its adds (trim 31 against 15 on
// an H100, the fifty-fourth session: bfloat16 1.2% faster, the library's bfloat16 sweep; float32
// 0.5% slower, 0.65% more instructions). Bit 5: a chunk's items fetched at its start, a chunk
// before they are needed, not at its end (the bit's comment in the loop; trim 63 against 31:
// bfloat16 4.1% faster, the library's bfloat16 sweep; float32 47 against 15 0.8% slower). Measured
// and removed (the fifty-fourth session's bits 6 and 7, probe only): the barrier's counters for the
// next chunk read at a chunk's start (bfloat16 1.2-1.4% slower), a chunk's items prefetched into
// L1 at its start in place of bit 5 (1.8% slower; with the counters 0.2%). Bit 6 now (the
// fifty-fifth session): the barrier's polls a timed pause apart (SoftBarrier's kTimedGap; with
// groups of 8, the library's bfloat16 sweep at 127: 4.1% faster than 63 in groups of 4). Measured
// and removed (the fifty-fifth session's bits 7 and 8, probe only): the barrier's prefetch also
// reading the counters of the step 2 or 4 after the one a chunk needs, clearing it when done
// (bfloat16 +0.3% and +5.4%, float32 +0.8% and +4%, with 2-6% more L2 bytes); then bit 7 again,
// past a batch's first chunk a chunk's barrier wait before its first refill rather than at its
// top (bfloat16 +2.0%, float32 +0.2%). Measured and removed (the fifty-sixth session's bits 7
// and 8, probe only): an item's row by a jump table (one `brx.idx` to 31 blocks, rows 10-30 at
// immediate shared offsets: 6.8% fewer instructions, bfloat16 9.3% slower, its branch-resolving,
// no-instruction and short-scoreboard stalls up; in a loop not unrolled 4.6% slower). Measured
// and removed (the fifty-seventh session's bit 7, probe and a library trial): the barrier's
// counters also read two chunks ahead, alone (bfloat16 1.5% slower: a read a chunk older falls
// short of its target for two chunks in three) and summed at the chunk's end with a fresh read
// where short (3.3% slower: 3.8% more instructions at the same stalls an issue; float32's waits
// halved, its time unchanged). ptxas already carries the step a chunk waits for from the end of
// the chunk before (its prefetch's) across the loop's back edge: keeping it in a variable left
// the SASS's shuffles as they were.
template <int K, int GS, int RG, int kMinBlocks, bool kAsync, int PF, bool kProfile,
          class V = float, int L1P = 0, int kTrim = 15>
__global__ void __launch_bounds__(128, kMinBlocks) tma_gather(const StreamArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // bulk copies and mbarrier transaction counts are sm_90's (the host checks first)
#else
  static_assert(32 % K == 0 && K <= 32 && K % GS == 0 && GS <= 32, "groups tile the chunk");
  static_assert(31 + K + PF < 64, "copied and prefetched items come from the staged two chunks");
  static_assert((kTrim & 16) == 0 || (kTrim & 12) == 12, "bit 4 hands sources to bits 2 and 3");
  static_assert(kTrim < 128, "bits 0-6");
  static_assert(sizeof(V) == 4 || (sizeof(V) == 2 && !kAsync && PF == 0),
                "16-bit rows: bulk copies, no prefetch");
  constexpr int kGroups = K / GS, kReg = RG > 0 ? RG : 1;
  constexpr unsigned kRowBytes = 128 * sizeof(V);
  static_assert(K * kRowBytes >= 8 * 512, "rows_again's passes of 8 rows' sums fit the ring");
  const unsigned char* const vbytes = reinterpret_cast<const unsigned char*>(a.values);
  extern __shared__ float4 smem4[];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int wib = static_cast<int>(threadIdx.x) >> 5;
  const int gw = blockIdx.x * 4 + wib;
  const int R = a.rows_per_warp;
  float4* ring = reinterpret_cast<float4*>(reinterpret_cast<unsigned char*>(smem4) +
                                           wib * tma_warp_bytes(R, RG, K, kRowBytes));
  unsigned char* const ring_bytes = reinterpret_cast<unsigned char*>(ring);
  float4* acc = reinterpret_cast<float4*>(ring_bytes + K * kRowBytes);  // rows RG .. R - 1
  uint2* staged = reinterpret_cast<uint2*>(acc + (R - RG) * 32);  // chunk c's items, then c + 1's
  float2* stats = reinterpret_cast<float2*>(staged + 64);
  unsigned long long* bars = reinterpret_cast<unsigned long long*>(stats + R);
  if (!kAsync && lane < kGroups) mbar_init(bars + lane, (kTrim & 4) != 0 ? 1 : GS);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncwarp();
  unsigned phase = 0;  // bit g: the parity of group g's next phase
  using Barrier = SoftBarrier<kProfile, (kTrim & 64) != 0>;
  Barrier bar(a.step_done, a.timeouts, a.total_warps, a.spin_limit, a.lag, gw, lane);
  if (a.poll_pause_ns > 0) bar.first_pause = a.poll_pause_ns;
  unsigned long long t_setup = 0, n_chunks = 0;
  const long long t_start = kProfile ? clock64() : 0;
  for (int b = 0; b < a.batches; ++b) {
    const long long t_batch = kProfile ? clock64() : 0;
    // The barrier's schedule covers the items the ring and the prefetches run ahead (review:
    // call 6's PF ran up to PF items past the partitions the barrier allowed).
    WarpBatch<K + PF, kProfile, L1P, Barrier> w(a, bar, stats, b, gw, lane);
    const int n_items = w.n_items;
    bool zero_weight = false;  // an item weighed 0 (warp-uniform: WarpBatch::zero_in's vote)
    float4 racc[kReg];
#pragma unroll
    for (int k = 0; k < kReg; ++k) racc[k] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int r = 0; r < R - RG; ++r) acc[r * 32 + lane] = make_float4(0.f, 0.f, 0.f, 0.f);
    w.take_stats(stats);
    __syncwarp();
    if (kProfile) t_setup += clock64() - t_batch;
    // By the whole warp: group g's copies of the chunk's items t .. t + GS - 1 (t chunk-relative,
    // below 64: past 31 the next chunk's), when item t exists; lane j < GS copies item t + j.
    // The items' sources come from `staged` (a broadcast load each: call 4's two shuffles an
    // item, each with its divergence check, ~4 instructions).
    // Staged item t's source row (its column).
    auto item_source = [&](int t) { return staged_source(staged, t); };
    // pre (bit 4): the group's GS sources, read by the caller ahead of time (nullptr: read here).
    auto refill = [&](int g, int c, int t, const unsigned* pre = nullptr) {
      if constexpr (PF > 0) {  // the items PF further ahead, from DRAM into L2
#pragma unroll
        for (int j = 0; j < GS; ++j)
          if (c * 32 + t + PF + j < n_items)
            prefetch_l2(a.values + static_cast<size_t>(item_source(t + PF + j)) * 32 + lane);
      }
      if constexpr (kAsync) {  // every group commits, copies or none: the waits count groups
#pragma unroll
        for (int j = 0; j < GS; ++j) {
          const unsigned x = item_source(t + j);
          if (c * 32 + t + j < n_items)
            async_copy16(ring + (g * GS + j) * 32 + lane,
                         a.values + static_cast<size_t>(x) * 32 + lane);
        }
        async_commit();
        return;
      }
      if (c * 32 + t >= n_items) return;  // never waited for: its phase must not complete
      if constexpr ((kTrim & 4) != 0) {   // one lane's arrival and copies
        const int left = n_items - (c * 32 + t);
        // Bit 3: the group's sources read before the first copy, not each between two copies
        // (an asm with a memory clobber: ptxas keeps a load after the copy before it, so each
        // copy waited for its own load, call 3's short-scoreboard stalls on R2UR).
        unsigned src[GS];
        if constexpr ((kTrim & 8) != 0) {
#pragma unroll
          for (int j = 0; j < GS; ++j) src[j] = pre != nullptr ? pre[j] : item_source(t + j);
        }
        auto copy = [&](int j) {
          unsigned x;  // (a ?: on src warns of a read before its set where bit 3 is off)
          if constexpr ((kTrim & 8) != 0)
            x = src[j];
          else
            x = item_source(t + j);
          bulk_copy(ring_bytes + (g * GS + j) * kRowBytes,
                    vbytes + static_cast<size_t>(x) * kRowBytes, kRowBytes, bars + g);
        };
        if (left >= GS) {  // a whole group
          if (elect_one()) {
            mbar_arrive_expect(bars + g, GS * kRowBytes);
#pragma unroll
            for (int j = 0; j < GS; ++j) copy(j);
          }
        } else if (elect_one()) {
          mbar_arrive_expect(bars + g, static_cast<unsigned>(left) * kRowBytes);
#pragma unroll
          for (int j = 0; j < GS; ++j)
            if (j < left) copy(j);
        }
        return;
      }
      const int tl = t + lane;
      if (lane < GS) {
        const bool valid = c * 32 + tl < n_items;
        mbar_arrive_expect(bars + g, valid ? kRowBytes : 0u);
        if (valid)
          bulk_copy(ring_bytes + (g * GS + lane) * kRowBytes,
                    vbytes + static_cast<size_t>(item_source(tl)) * kRowBytes, kRowBytes, bars + g);
      }
    };
    if (n_items > 0) {
      uint2 m_cur = w.weigh(0, w.fetch(0));
      uint2 m_next = w.weigh(1, w.fetch(1));
      uint2 raw = w.fetch(2);
      zero_weight = w.zero_in(0, m_cur) || w.zero_in(1, m_next);
      w.report_below(w.part(__shfl_sync(0xffffffffu, m_cur.x, 0)));
      for (int c = 0; c * 32 < n_items; ++c) {
        if (kProfile) ++n_chunks;
        if (a.lag > 0) bar.wait_for(w.needed_step(c, m_cur, m_next));
        __syncwarp();  // the last chunk's reads of `staged` are done
        staged[lane] = m_cur;
        staged[32 + lane] = m_next;
        __syncwarp();
        if (c == 0) {
#pragma unroll
          for (int g = 0; g < kGroups; ++g) refill(g, 0, g * GS);
        }
        const float s_raw = w.load_score(c, raw);
        // Bit 5: chunk c + 3's items fetched here, a chunk before load_score needs them (at the
        // chunk's end, ptxas issued the load above weigh_loaded and moved its result into raw's
        // registers at once: a load's latency a chunk, 5.8% of call 3's stall samples).
        uint2 raw_ahead = make_uint2(0u, 0u);
        if constexpr ((kTrim & 32) != 0) raw_ahead = w.fetch(c + 3);
        const int in_chunk = min(32, n_items - c * 32);
#pragma unroll 1
        for (int t0 = 0; t0 < in_chunk; t0 += GS) {
          const int g = (t0 / GS) % kGroups;  // K divides 32: chunks start at group 0
          // Bit 4: the sources of this group's refill (items t0 + K ..) read before its wait, so
          // that their loads are done when the copies issue.
          unsigned next_src[GS];
          if constexpr ((kTrim & 16) != 0) {
#pragma unroll
            for (int j = 0; j < GS; ++j) next_src[j] = item_source(t0 + K + j);
          }
          if constexpr (kAsync) {
            async_wait<kGroups - 1>();  // group g's copies are the oldest of the lane's
          } else {
            mbar_wait(bars + g, (phase >> g) & 1u);
            phase ^= 1u << g;
          }
          // Item t0 + j of the chunk: its entry and its ring slot g GS + j's piece of the row.
          // (call 8: loading item j + 1's entry and row before adding item j gained nothing)
          auto entry = [&](int j) { return staged[t0 + j]; };
          auto piece = [&](int j) {
            return ring_piece<V>(ring_bytes + (g * GS + j) * kRowBytes, lane);
          };
          // An item's weighted row into its row's accumulator (trim 0 tests the register rows
          // first, as measured: ptxas lays the branches out by the order they are written in).
          auto add = [&](uint2 it, const float4& v) {
            const float wt = __uint_as_float(it.y);
            const int r = static_cast<int>(it.x >> 24);
            auto to_shared = [&] { add_weighted(acc[(r - RG) * 32 + lane], wt, v); };
            if constexpr (kTrim == 0) {
              if (r < RG)
                add_to_reg_row<0, kReg>(racc, r, wt, v);
              else
                to_shared();
            } else if (r >= RG) {
              to_shared();
            } else if constexpr ((kTrim & 2) != 0) {
              add_to_reg_row_switch<RG>(racc, r, wt, v);
            } else {
              add_to_reg_row<0, kReg>(racc, r, wt, v);
            }
          };
          if constexpr (kTrim == 0) {  // the loop as measured until the fifty-second session
#pragma unroll
            for (int j = 0; j < GS; ++j) {
              const uint2 it = entry(j);
              const float4 v = piece(j);
              if (t0 + j < in_chunk) add(it, v);
            }
          } else if ((kTrim & 1) != 0 && t0 + GS <= in_chunk) {  // a whole group: no bound checked
#pragma unroll
            for (int j = 0; j < GS; ++j) add(entry(j), piece(j));
          } else {
#pragma unroll
            for (int j = 0; j < GS; ++j)
              if (t0 + j < in_chunk) add(entry(j), piece(j));
          }
          if (!kAsync) __syncwarp();  // every lane has read the group's slots
          refill(g, c, t0 + K, (kTrim & 16) != 0 ? next_src : nullptr);
        }
        w.report_after(c, m_next);
        m_cur = m_next;
        m_next = w.weigh_loaded(c, raw, s_raw);
        zero_weight = zero_weight || w.zero_in(c + 2, m_next);
        raw = (kTrim & 32) != 0 ? raw_ahead : w.fetch(c + 3);
        if (a.lag > 0 && (c + 1) * 32 < n_items) bar.prefetch(w.needed_step(c + 1, m_cur, m_next));
      }
    }
    w.report_below(a.parts);
    __syncwarp();
    if (w.fits) {
      // Where an item weighed 0 (none in a graph without masked edges): bit r set where row r
      // came out NaN, summed again by rows_again without its weight-0 items (an edge masked by a
      // -inf score from a +Inf source added 0 x Inf; a row NaN for another reason is NaN again
      // there, as in the reference).
      unsigned again = 0;
      if (zero_weight) {
        auto nan_in = [](const float4& v) { return isnan(v.x + v.y + v.z + v.w); };
#pragma unroll
        for (int k = 0; k < RG; ++k)
          if (k < w.nr && nan_in(racc[k])) again |= 1u << k;
        for (int r = RG; r < w.nr; ++r)
          if (nan_in(acc[(r - RG) * 32 + lane])) again |= 1u << r;
        again = __reduce_or_sync(0xffffffffu, again);
      }
#pragma unroll
      for (int k = 0; k < RG; ++k)
        if (k < w.nr && ((again >> k) & 1u) == 0) a.out[(w.r0 + k) * 32 + lane] = racc[k];
      for (int r = RG; r < w.nr; ++r)
        if (((again >> r) & 1u) == 0) a.out[(w.r0 + r) * 32 + lane] = acc[(r - RG) * 32 + lane];
      if (again != 0) rows_again<V, 8>(a, w, vbytes, again, ring_bytes, K * kRowBytes, lane);
    }
    __syncwarp();
  }
  if (kProfile && lane == 0) record_warp(a, bar, gw, t_setup, clock64() - t_start, n_chunks);
#endif
}

// --- mma_gather: the bfloat16 sweep's adds on the tensor cores (the fifty-seventh session) -----
// tma_gather's bfloat16 sweep is bound by each warp's chain of issued instructions (~45 an item
// at ~9.6 stall cycles each: the item's row picked by a tree of uniform branches, its 8 bytes a
// lane widened, four FFMA). Here a group of 16 items is one product: the accumulators (features x
// rows, float32) += the group's rows (features x 16 items, bfloat16, from the ring) times a
// sparse weight matrix (16 items x rows: item k's softmax weight in its row's column, zeros
// elsewhere), by mma.sync m16n8k16 (bfloat16 in, float32 accumulate): 8 feature tiles of 16 x RT
// row tiles of 8, each weight split into a bfloat16 pair (hi + lo, ~16 bits of the float32
// weight) for two products. No row dispatch and no widening: ~8 instructions an item were
// predicted where tma_gather issues ~45; Nsight Compute counted 31 (the fifty-eighth session's
// call 3: a group's 16 copies ~15 each), 26 with kTrim's bit 0. RT row tiles live in registers (32
// RT a lane) and RTS more in shared memory (4 KB a tile, in the C fragments' layout: a group loads,
// multiplies into and stores each, 16 instructions a tile a group), so R <= 8 (RT + RTS); the ring
// is K = 32 slots of 272 bytes (256 and 16 of padding: ldmatrix's 8 row addresses of a phase fall
// in distinct banks) in two groups of 16. A group's absent items (past the batch's last) weigh 0
// and their slots hold an earlier row (the ring is zeroed at the start): finite values times 0. A
// non-finite value in a gathered row would reach every row of the warp's group (0 x Inf), and,
// left in a slot, the rows of a later batch's partial group that never gathered it, where
// tma_gather keeps it to its own row: bit 5 sums such rows again (below). The caller guarantees R
// <= 8 (RT + RTS) (the probe's find_mma): a larger R would write row statistics over the mbarriers.
// Layout a warp (mma_warp_bytes): the ring, the RTS shared row tiles, the items of two chunks (64 x
// 8 bytes), 8 (RT + RTS) (max, 1 / sum) pairs, 2 mbarriers. Measured (the fifty-seventh session's
// call 13, an H100, uniform 2M d32 F128): correct (1.7e-3 from the float32 reference, as
// tma_gather's bfloat16 sweep) and 10-14% slower than the library's sweep (R 24 at 3 blocks 5826
// us, R 24 at 4 with a shared tile 5894, R 16 at 4 6044, against 5300): on the H100 the sweep is
// bound by its memory traffic (DRAM 79% of peak), not by its warps' issue; the H200, with 1.43x the
// DRAM, is where it is to be judged (scripts/gpu-v57e.sh). The fifty-eighth session's Nsight
// Compute (call 3) counted 31 instructions an item, not ~8 (a group's 16 copies ~240 of its ~415),
// and both sweeps bound by their warps' chains: kTrim's bits (probe only) take the library's
// copies. Bit 0: a group's sources read before its first copy and a whole group copied with no
// check an item (copy_group; tma_gather's bits 2-3); bit 1 (with 0): the next sources read before
// the group's wait (tma_gather's bit 4); bit 2: the weights' fragments built before the wait; bit
// 3: each weight rounded to bfloat16 (one product, ~2^-9 of it lost: accuracy traded, measured
// only); bit 4: chunk c + 5's items prefetched into L2 at chunk c (call 10's source counters: 24.5%
// of the stall samples at trim 1 were the chunk's top waiting for the items fetched a chunk before,
// a DRAM read at ~82% of its peak taking longer than mma's ~3.3 us chunk); bit 5: the finite
// contract kept (the fifty-ninth session): a row whose tile sums are not all finite is summed
// again by rows_again and written from there, so that a non-finite value reaches only the
// rows that gather it, as in tma_gather and the reference (the probe's --poison checks it; ~100
// instructions a batch of ~20,000 when every sum is finite). Measured (H100, the fifty-eighth
// session's calls 4, 9, 10, the sixtieth's calls 6, 9, 16): trim 1 1.0-2.2% faster than the
// library's bfloat16 sweep, 3 and 7 slower than 1, 9 1.1% faster than 1 at 3.7e-3 error, 17 as 1
// (bit 4 moves nothing), 33 and 49 as 1 and 17 (bit 5 costs nothing clean). The library runs
// trim 33 (csrgat/colblock.cu's tensor-core sweep). Measured and removed (the sixtieth session):
// the chunk's score and next items loaded before the barrier's wait (no change), and the next
// chunk's counters read at the chunk's top (+0.6% with the former, +7.7% alone: a counter read a
// chunk early is short more often, as tma_gather's two chunks ahead in the fifty-seventh session);
// the chunk head's long-scoreboard wait (19-26% of the stall samples) stayed with both, and lags
// 12 and 16 were 4.4% and 4.8% slower than 8.
constexpr int kMmaSlotBytes = 272;
__host__ __device__ constexpr size_t mma_warp_bytes(int rt, int rts) {
  return static_cast<size_t>(32 * kMmaSlotBytes + rts * 4096 + 64 * 8 + 8 * (rt + rts) * 8 + 16);
}

__device__ __forceinline__ void ldsm_x4_trans(unsigned addr, unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

// d += a b: m16n8k16, a (16 x 16) and b (16 x 8) bfloat16 pairs, d float32.
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                               unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// {lo, hi} as a bfloat16 pair (lo in the low half), each rounded to nearest even.
__device__ __forceinline__ unsigned bf16x2(float lo, float hi) {
  unsigned r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

template <int RT, int RTS, int kMinBlocks, bool kProfile, int kTrim = 0>
__global__ void __launch_bounds__(128, kMinBlocks) mma_gather(const StreamArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // bulk copies and mbarrier transaction counts are sm_90's (the host checks first)
#else
  constexpr int K = 32, GS = 16, kGroups = K / GS, kFeatTiles = 8;
  constexpr unsigned kRowBytes = 256;
  const unsigned char* const vbytes = reinterpret_cast<const unsigned char*>(a.values);
  extern __shared__ float4 smem4[];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int wib = static_cast<int>(threadIdx.x) >> 5;
  const int gw = blockIdx.x * 4 + wib;
  static_assert(RT >= 1 && RTS >= 0, "a register row tile at least");
  static_assert(kTrim < 64 && ((kTrim & 2) == 0 || (kTrim & 1) != 0), "bits 0-5; 1 needs 0");
  constexpr bool kLo = (kTrim & 8) == 0;  // bit 3: the weights rounded to bfloat16, no lo product
  constexpr int kTiles = RT + RTS;
  static_assert(kTiles <= 4, "32 rows at most: bit 5's row marks are one word");
  static_assert(K * kMmaSlotBytes >= 16 * 512, "bit 5's sums of 16 rows fit the ring");
  unsigned char* const ring =
      reinterpret_cast<unsigned char*>(smem4) + wib * mma_warp_bytes(RT, RTS);
  // Shared row tile s: feature tile i's C fragment of lane l at float4 (8 s + i) 32 + l.
  float4* const sacc = reinterpret_cast<float4*>(ring + K * kMmaSlotBytes);
  uint2* staged = reinterpret_cast<uint2*>(sacc + RTS * 8 * 32);
  float2* stats = reinterpret_cast<float2*>(staged + 64);
  unsigned long long* bars = reinterpret_cast<unsigned long long*>(stats + 8 * kTiles);
  zero_ring(ring, K * kMmaSlotBytes, lane);
  if (lane < kGroups) mbar_init(bars + lane, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncwarp();
  unsigned phase = 0;
  using Barrier = SoftBarrier<kProfile, true>;
  Barrier bar(a.step_done, a.timeouts, a.total_warps, a.spin_limit, a.lag, gw, lane);
  if (a.poll_pause_ns > 0) bar.first_pause = a.poll_pause_ns;
  // ldmatrix's row addresses: lane t reads item (t & 7) + 8 (t >> 4)'s 16 bytes at 16 ((t >> 3)
  // & 1) within a feature tile (32 bytes): matrices 0-3 are a0-a3 of the m16n8k16 A fragment.
  const unsigned lane_row =
      smem_addr(ring) + static_cast<unsigned>(((lane & 7) + ((lane >> 4) << 3)) * kMmaSlotBytes +
                                              ((lane >> 3) & 1) * 16);
  const int q = lane & 3, g8 = lane >> 2;  // the fragments' column pair and row
  unsigned long long t_setup = 0, n_chunks = 0;
  const long long t_start = kProfile ? clock64() : 0;
  for (int b = 0; b < a.batches; ++b) {
    const long long t_batch = kProfile ? clock64() : 0;
    WarpBatch<K, kProfile, 0, Barrier> w(a, bar, stats, b, gw, lane);
    const int n_items = w.n_items;
    float acc[kFeatTiles][RT][4];
#pragma unroll
    for (int i = 0; i < kFeatTiles; ++i)
#pragma unroll
      for (int j = 0; j < RT; ++j)
#pragma unroll
        for (int k = 0; k < 4; ++k) acc[i][j][k] = 0.f;
    for (int i = 0; i < RTS * 8; ++i) sacc[i * 32 + lane] = make_float4(0.f, 0.f, 0.f, 0.f);
    w.take_stats(stats);
    __syncwarp();
    if (kProfile) t_setup += clock64() - t_batch;
    // Group g's slots from the chunk's items t .. t + 15 (t below 64), by one elected lane; pre
    // (bit 1): their sources, read by the caller before the group's wait (nullptr: read here).
    auto refill = [&](int g, int c, int t, const unsigned* pre = nullptr) {
      const int left = n_items - (c * 32 + t);
      if (left <= 0) return;  // never waited for: its phase must not complete
      if constexpr ((kTrim & 1) != 0) {  // bit 0: sources before the copies, whole groups unchecked
        unsigned src[GS];
#pragma unroll
        for (int j = 0; j < GS; ++j)
          src[j] = pre != nullptr ? pre[j] : staged_source(staged, t + j);
        copy_group<GS>(ring, g * GS, kMmaSlotBytes, vbytes, kRowBytes, src, left, bars + g);
      } else if (elect_one()) {
        mbar_arrive_expect(bars + g, static_cast<unsigned>(min(left, GS)) * kRowBytes);
#pragma unroll
        for (int j = 0; j < GS; ++j)
          if (j < left)
            bulk_copy(ring + (g * GS + j) * kMmaSlotBytes,
                      vbytes + static_cast<size_t>(staged_source(staged, t + j)) * kRowBytes,
                      kRowBytes, bars + g);
      }
    };
    if (n_items > 0) {
      uint2 m_cur = w.weigh(0, w.fetch(0));
      uint2 m_next = w.weigh(1, w.fetch(1));
      uint2 raw = w.fetch(2);
      w.report_below(w.part(__shfl_sync(0xffffffffu, m_cur.x, 0)));
      for (int c = 0; c * 32 < n_items; ++c) {
        if (kProfile) ++n_chunks;
        if (a.lag > 0) bar.wait_for(w.needed_step(c, m_cur, m_next));
        __syncwarp();  // the last chunk's reads of `staged` are done
        staged[lane] = m_cur;
        staged[32 + lane] = m_next;
        __syncwarp();
        if (c == 0) {
#pragma unroll
          for (int g = 0; g < kGroups; ++g) refill(g, 0, g * GS);
        }
        const float s_raw = w.load_score(c, raw);
        const uint2 raw_ahead = w.fetch(c + 3);
        if constexpr ((kTrim & 16) != 0) {  // bit 4: chunk c + 5's items into L2, a line a lane
          const int i = (c + 5) * 32 + lane;
          if ((lane & 15) == 0 && i < n_items) prefetch_l2(w.items + i);
        }
        const int in_chunk = min(32, n_items - c * 32);
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
          const int t0 = g * GS;
          if (t0 >= in_chunk) break;
          unsigned next_src[GS];  // bit 1: the group's refill sources, read before its wait
          if constexpr ((kTrim & 2) != 0) {
#pragma unroll
            for (int j = 0; j < GS; ++j) next_src[j] = staged_source(staged, t0 + K + j);
          }
          auto wait_group = [&] {  // group g's slots filled (this phase), its parity flipped
            mbar_wait(bars + g, (phase >> g) & 1u);
            phase ^= 1u << g;
          };
          if constexpr ((kTrim & 4) == 0) wait_group();
          // B fragments: items 2q, 2q + 1 (b0) and 2q + 8, 2q + 9 (b1) of the group, column g8
          // of row tile j: the item's weight where its row is 8 j + g8, else 0; hi and lo parts.
          const uint4 e01 = *reinterpret_cast<const uint4*>(staged + t0 + 2 * q);
          const uint4 e89 = *reinterpret_cast<const uint4*>(staged + t0 + 2 * q + 8);
          const unsigned rows[4] = {e01.x >> 24, e01.z >> 24, e89.x >> 24, e89.z >> 24};
          const float wt[4] = {__uint_as_float(e01.y), __uint_as_float(e01.w),
                               __uint_as_float(e89.y), __uint_as_float(e89.w)};
          float hi[4], lo[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            hi[k] = kLo ? __uint_as_float(bf16x2(0.f, wt[k]) & 0xffff0000u) : wt[k];
            lo[k] = wt[k] - hi[k];
          }
          unsigned bh[kTiles][2], bl[kTiles][2];
#pragma unroll
          for (int j = 0; j < kTiles; ++j) {
            const unsigned n = static_cast<unsigned>(8 * j + g8);
            float h[4], l[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
              h[k] = rows[k] == n ? hi[k] : 0.f;
              l[k] = rows[k] == n ? lo[k] : 0.f;
            }
            bh[j][0] = bf16x2(h[0], h[1]);
            bh[j][1] = bf16x2(h[2], h[3]);
            if constexpr (kLo) {
              bl[j][0] = bf16x2(l[0], l[1]);
              bl[j][1] = bf16x2(l[2], l[3]);
            }
          }
          if constexpr ((kTrim & 4) != 0) wait_group();  // bit 2: the fragments before the wait
          const unsigned base = lane_row + static_cast<unsigned>(g * GS * kMmaSlotBytes);
#pragma unroll
          for (int i = 0; i < kFeatTiles; ++i) {
            unsigned af[4];
            ldsm_x4_trans(base + 32 * i, af);
#pragma unroll
            for (int j = 0; j < RT; ++j) {
              mma_bf16_16816(acc[i][j], af, bh[j][0], bh[j][1]);
              if constexpr (kLo) mma_bf16_16816(acc[i][j], af, bl[j][0], bl[j][1]);
            }
#pragma unroll
            for (int t = 0; t < RTS; ++t) {
              float4* const p = sacc + (8 * t + i) * 32 + lane;
              const float4 v = *p;
              float d[4] = {v.x, v.y, v.z, v.w};
              mma_bf16_16816(d, af, bh[RT + t][0], bh[RT + t][1]);
              if constexpr (kLo) mma_bf16_16816(d, af, bl[RT + t][0], bl[RT + t][1]);
              *p = make_float4(d[0], d[1], d[2], d[3]);
            }
          }
          __syncwarp();  // every lane has read the group's slots
          refill(g, c, t0 + K, (kTrim & 2) != 0 ? next_src : nullptr);
        }
        w.report_after(c, m_next);
        m_cur = m_next;
        m_next = w.weigh_loaded(c, raw, s_raw);
        raw = raw_ahead;
        if (a.lag > 0 && (c + 1) * 32 < n_items) bar.prefetch(w.needed_step(c + 1, m_cur, m_next));
      }
    }
    w.report_below(a.parts);
    __syncwarp();
    if (w.fits) {  // acc[i][j]: features 16 i + g8 (+ 8 for 2, 3), rows 8 j + 2 q (+ 1 for 1, 3)
      float* const out = reinterpret_cast<float*>(a.out);
      // Bit 5: bit r set where row r's sums are not all finite (a non-finite gathered value, or
      // 0 x Inf from another row's): such rows are written by rows_again, not from the tiles.
      unsigned again = 0;
      if constexpr ((kTrim & 32) != 0) {
#pragma unroll
        for (int j = 0; j < kTiles; ++j)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            float s = 0.f;
#pragma unroll
            for (int i = 0; i < kFeatTiles; ++i) {
              if (j < RT) {
                s += acc[i][j][h] + acc[i][j][2 + h];
              } else {
                const float4 v = sacc[(8 * (j - RT) + i) * 32 + lane];
                s += h == 0 ? v.x + v.z : v.y + v.w;
              }
            }
            if ((__float_as_uint(s) & 0x7f800000u) == 0x7f800000u)
              again |= 1u << (8 * j + 2 * q + h);
          }
        // Rows past nr (no items: their weights are 0) may be NaN too; they are not the batch's.
        again = __reduce_or_sync(0xffffffffu, again) & (w.nr < 32 ? (1u << w.nr) - 1u : ~0u);
      }
#pragma unroll
      for (int j = 0; j < RT; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = 8 * j + 2 * q + h;
          if (r < w.nr && ((again >> r) & 1u) == 0) {
            float* const o = out + static_cast<size_t>(w.r0 + r) * 128 + g8;
#pragma unroll
            for (int i = 0; i < kFeatTiles; ++i) {
              o[16 * i] = acc[i][j][h];
              o[16 * i + 8] = acc[i][j][2 + h];
            }
          }
        }
#pragma unroll
      for (int t = 0; t < RTS; ++t)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = 8 * (RT + t) + 2 * q + h;
          if (r < w.nr && ((again >> r) & 1u) == 0) {
            float* const o = out + static_cast<size_t>(w.r0 + r) * 128 + g8;
#pragma unroll
            for (int i = 0; i < kFeatTiles; ++i) {
              const float4 v = sacc[(8 * t + i) * 32 + lane];
              o[16 * i] = h == 0 ? v.x : v.y;
              o[16 * i + 8] = h == 0 ? v.z : v.w;
            }
          }
        }
      if (again != 0)
        rows_again<unsigned short, 16>(a, w, vbytes, again, ring, K * kMmaSlotBytes, lane);
    }
    __syncwarp();
  }
  if (kProfile && lane == 0) record_warp(a, bar, gw, t_setup, clock64() - t_start, n_chunks);
#endif
}

}  // namespace csrgat::colblock
