// colblock_probe: can the gathers of a DRAM-bound uniform random graph reuse L2 if all resident
// warps sweep the sources in step? (Target 2 of issue 7 asks the uniform 2M graph, F = 128, for
// 0.7x the seed's time; the tuned kernel reads nearly every gather from DRAM at the copy roof.)
//   colblock_probe <out.json> [--device N]
//                  [--config
//                  R,MB,LAG,U[,plan|,streamB[+stats]|,tmaB[rRG][gGS][pPF][sNS][tT][a][h][+stats]]
//                  [--once]] [--poison N]
// --config runs one sweep configuration on uniform 2M only; --once launches each kernel once,
// untimed and without counters (for ncu); --poison N sets one value of N source rows to +Inf
// before the reference runs (a sweep passes where its output is +Inf exactly where the
// reference's is: a non-finite value reaches only the rows that gather it).
//
// The model. Every warp keeps the accumulators of R rows on chip (shared memory) for a whole
// sweep over the sources, cut into P partitions of S rows, and gathers its rows' sources in
// partition order (its edges bucketed by partition once per batch of rows), U a round. A soft
// grid barrier (a warp gathers from partition p once every warp has finished partition p - lag;
// it only orders the schedule, the results do not depend on it) keeps the resident warps within
// lag + 1 partitions, a window that fits in L2. Then each batch of B = (resident warps) x R rows
// reads a source row from DRAM once however many of its rows gather it: per batch N (1 - exp(-B d /
// N)) distinct rows instead of B d gathers, so the gathers' DRAM bytes fall by the factor (1 -
// exp(-x)) / x, x = B d / N. Uniform 2M, d 32, F 128 with B ~ 34K rows (256 rows an SM): x = 0.54,
// 0.77x the gather bytes (32.8 -> 25.3 GB). Without the barrier (lag < 0) the same buckets give no
// reuse: the warps drift apart.
//
// The baseline is the probes' plain kernel (uniform_graph.cuh, one slice) on the same graph,
// whose columns are sorted within each row here (the sweep needs no order; sorting only makes
// the bucketing cheap to reason about and costs the baseline nothing); the seed kernel
// (variants/baselines.cuh) runs beside it, for target 2's ratio. Each configuration: cold
// GPU time (CUPTI; the counters' memset is inside the sample), DRAM and L2 bytes from the
// counters, the barrier's timeouts (a warp that waited spin_limit polls goes on), and its
// largest difference from the baseline's output.
// Exit: 0 done, 1 error, 3 no CUDA device, 64 usage.
#include <cuda_bf16.h>

#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/timer.h"
#include "profiler/tools/uniform_graph.cuh"
#include "variants/colblock.cuh"
#include "variants/baselines.cuh"
#include "variants/kernel_args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <string>
#include <vector>

namespace prof = csrgat::profiler;
using namespace csrgat::probe;
using namespace csrgat::colblock;

namespace {

// Sorts each row's (col, score) pairs by column; rows of at most kMax edges.
template <int kMax>
__global__ void sort_rows(int n, const int* row_ptr, int* col, float* scores) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  const int eb = row_ptr[row], len = min(row_ptr[row + 1] - eb, kMax);
  int c[kMax];
  float s[kMax];
  for (int i = 0; i < len; ++i) {
    c[i] = col[eb + i];
    s[i] = scores[eb + i];
  }
  for (int i = 1; i < len; ++i) {
    const int ck = c[i];
    const float sk = s[i];
    int j = i - 1;
    for (; j >= 0 && c[j] > ck; --j) {
      c[j + 1] = c[j];
      s[j + 1] = s[j];
    }
    c[j + 1] = ck;
    s[j + 1] = sk;
  }
  for (int i = 0; i < len; ++i) {
    col[eb + i] = c[i];
    scores[eb + i] = s[i];
  }
}

struct SweepArgs {
  const int* row_ptr;
  const int* col;
  const float* scores;
  const float4* values;  // (n, f4)
  float4* out;           // (n, f4)
  int n;
  int f4;
  int rows_per_warp;     // R (at most 255)
  int part_rows;         // S: sources per partition
  int parts;             // P
  int cap;               // items a warp can bucket: the most edges of R consecutive rows
  int lag;               // a warp gathers from partition p once all finished p - lag; < 0: never waits
  int total_warps;
  int batches;
  unsigned* step_done;   // kSlotsRing x kLines counters, one 128-byte line each, zeroed
  unsigned* timeouts;    // waits given up after spin_limit polls
  int spin_limit;
  // Where the warps' time went, summed over warps (SM clock cycles): each batch's bucketing,
  // the waits (their polls included), everything else (the rounds, the outputs); then the
  // rounds, the waits, the waits that slept. Null: not recorded.
  unsigned long long* profile;  // kProfileFields
  // The partition order of a graph's edges belongs to the graph, not to a call: with `plan`, a
  // batch's items (col | row << 24, the edge's offset in the warp's edges) come from a plan
  // built once, cap a warp and batch, and the weights from the scores staged in shared memory;
  // with `plan_out`, the kernel only buckets, writes the plan and gathers nothing.
  const uint2* plan;
  uint2* plan_out;
};


// One warp's shared memory: kSlots x R x G float4 accumulators, R row maxima and sums, R + 1 row
// bounds, P + 1 bucket offsets, P + 1 bucket cursors, cap items (col | row << 24, weight).
__host__ __device__ inline size_t warp_smem_bytes(const SweepArgs& a, int slots, int g) {
  const size_t acc = static_cast<size_t>(slots) * a.rows_per_warp * g * 16;
  const size_t words = 3 * static_cast<size_t>(a.rows_per_warp) + 1 + 2 * (a.parts + 1);
  const size_t items = static_cast<size_t>(a.cap) * (a.plan ? 12 : 8);  // + the scores
  return (acc + (words + 1) / 2 * 8 + items + 15) / 16 * 16;
}


// Float max in shared memory through the integer order of IEEE floats.
__device__ __forceinline__ void atomic_max_float(float* addr, float v) {
  if (v >= 0.f)
    atomicMax(reinterpret_cast<int*>(addr), __float_as_int(v));
  else
    atomicMin(reinterpret_cast<unsigned*>(addr), __float_as_uint(v));
}

// The row of edge e among the warp's rows: the last r with rp[r] <= e.
__device__ __forceinline__ int row_of(const int* rp, int nr, int e) {
  int lo = 0, hi = nr;
  while (hi - lo > 1) {
    const int mid = (lo + hi) >> 1;
    if (rp[mid] <= e) lo = mid; else hi = mid;
  }
  return lo;
}

// G threads per row (G = f4: one float4 of the row each), 32 / G item slots per warp, each with
// its own accumulators; U gathers in flight a slot. Each batch: the warp's R rows' edges are
// bucketed by source partition (two passes, all edges' loads in flight at once), then gathered
// in bucket order, U a round; before a round the warp waits until every warp has finished the
// partition lag below the round's last; after it, it reports the partitions it has finished.
template <int G, int U>
__global__ void __launch_bounds__(128) sweep_gather(const SweepArgs a) {
  constexpr int kSlots = 32 / G, kRound = kSlots * U, kPass = 8;  // kPass: edges a lane loads at once
  extern __shared__ float4 smem4[];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp_in_block = static_cast<int>(threadIdx.x) >> 5;
  const int gw = blockIdx.x * (blockDim.x >> 5) + warp_in_block;
  if (gw >= a.total_warps) return;  // the plan builder's last block, when warps a block do not divide
  const int slot = lane / G, f = lane % G;
  const int R = a.rows_per_warp, P = a.parts, S = a.part_rows;
  unsigned char* base = reinterpret_cast<unsigned char*>(smem4) +
                        warp_in_block * warp_smem_bytes(a, kSlots, G);
  float4* acc = reinterpret_cast<float4*>(base);
  float* row_max = reinterpret_cast<float*>(acc + kSlots * R * G);
  float* row_sum = row_max + R;
  int* rp = reinterpret_cast<int*>(row_sum + R);
  int* off = rp + R + 1;
  int* cur = off + P + 1;
  uint2* items = reinterpret_cast<uint2*>(
      base + static_cast<size_t>(kSlots) * R * G * 16 +
      (3 * static_cast<size_t>(R) + 1 + 2 * (P + 1) + 1) / 2 * 8);
  float* staged = reinterpret_cast<float*>(items + a.cap);  // the batch's scores (with a plan)
  auto part = [&](int idx) { return static_cast<int>((items[idx].x & 0xffffffu) / S); };
  SoftBarrier<true> bar(a.step_done, a.timeouts, a.total_warps, a.spin_limit, a.lag, gw, lane);
  unsigned long long t_bucket = 0, n_rounds = 0;
  auto wait_for = [&](int step) { bar.wait_for(step); };
  auto signal = [&](int step) { bar.signal(step); };

  const long long t_start = clock64();
  for (int b = 0; b < a.batches; ++b) {
    const long long t_batch = clock64();
    const long long r0 = (static_cast<long long>(b) * a.total_warps + gw) * R;
    const int nr = static_cast<int>(max(0LL, min(static_cast<long long>(R), a.n - r0)));
    for (int i = lane; i <= nr && nr > 0; i += 32) rp[i] = a.row_ptr[r0 + i];
    for (int i = lane; i < kSlots * R * G; i += 32) acc[i] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int i = lane; i < R; i += 32) {
      row_max[i] = -INFINITY;
      row_sum[i] = 0.f;
    }
    for (int i = lane; i <= P; i += 32) cur[i] = 0;
    __syncwarp();
    const int e_first = nr > 0 ? rp[0] : 0;
    const bool fits = nr > 0 && rp[nr] - e_first <= a.cap;  // else out untouched (the check shows)
    const int e_last = fits ? rp[nr] : e_first;
    if (a.plan) {
      // The batch's items from the plan, its scores staged; row statistics a lane a row; the
      // bucket offsets where the items' partitions change.
      const int n_items = e_last - e_first;
      const uint2* src = a.plan + (static_cast<size_t>(b) * a.total_warps + gw) * a.cap;
      for (int i = lane; i < n_items; i += 32) {
        items[i] = src[i];
        staged[i] = __ldg(a.scores + e_first + i);
      }
      __syncwarp();
      for (int r = lane; r < nr; r += 32) {
        const int lo = rp[r] - e_first, hi = rp[r + 1] - e_first;
        float mx = -INFINITY, sum = 0.f;
        for (int i = lo; i < hi; ++i) mx = fmaxf(mx, staged[i]);
        for (int i = lo; i < hi; ++i) sum += __expf(staged[i] - mx);
        row_max[r] = mx;
        row_sum[r] = sum;
      }
      for (int i = lane; i < n_items; i += 32)
        for (int q = (i > 0 ? part(i - 1) : -1) + 1; q <= part(i); ++q) off[q] = i;
      if (lane == 0)
        for (int q = (n_items > 0 ? part(n_items - 1) : -1) + 1; q <= P; ++q) off[q] = n_items;
      __syncwarp();
    } else {
      // Each of the batch's edges once, kPass a lane at a time with all their loads in flight.
      auto for_batch_edges = [&](auto&& visit) {
        for (int e0 = e_first + lane; e0 < e_last; e0 += 32 * kPass) {
          int c[kPass];
          float sc[kPass];
#pragma unroll
          for (int k = 0; k < kPass; ++k) {
            const int e = e0 + 32 * k;
            c[k] = e < e_last ? __ldg(a.col + e) : 0;
            sc[k] = e < e_last ? __ldg(a.scores + e) : 0.f;
          }
#pragma unroll
          for (int k = 0; k < kPass; ++k)
            if (e0 + 32 * k < e_last) visit(e0 + 32 * k, c[k], sc[k]);
        }
      };
      // Pass 1: row maxima and bucket sizes.
      for_batch_edges([&](int e, int c, float sc) {
        atomic_max_float(&row_max[row_of(rp, nr, e)], sc);
        atomicAdd(&cur[c / S], 1);
      });
      __syncwarp();
      // Exclusive scan of the bucket sizes: each lane a run of consecutive buckets.
      {
        const int per = (P + 31) / 32, lo = min(P, lane * per), hi = min(P, lo + per);
        int run = 0;
        for (int i = lo; i < hi; ++i) run += cur[i];
        int incl = run;
        for (int o = 1; o < 32; o <<= 1) {
          const int up = __shfl_up_sync(0xffffffffu, incl, o);
          if (lane >= o) incl += up;
        }
        int pos = incl - run;
        __syncwarp();
        for (int i = lo; i < hi; ++i) {
          const int sz = cur[i];
          off[i] = pos;
          cur[i] = pos;
          pos += sz;
        }
        if (lane == 31) off[P] = incl;
      }
      __syncwarp();
      // Pass 2: the items, with their unnormalised softmax weights; the rows' sums.
      for_batch_edges([&](int e, int c, float sc) {
        const int r = row_of(rp, nr, e);
        const float w = __expf(sc - row_max[r]);
        atomicAdd(&row_sum[r], w);
        const int at = atomicAdd(&cur[c / S], 1);
        items[at] = make_uint2(static_cast<unsigned>(c) | (static_cast<unsigned>(r) << 24),
                               a.plan_out ? static_cast<unsigned>(e - e_first) : __float_as_uint(w));
      });
      __syncwarp();
    }
    t_bucket += clock64() - t_batch;
    const int total = e_last - e_first;
    if (a.plan_out) {  // building the plan: this batch's items, then the next batch
      uint2* dst = a.plan_out + (static_cast<size_t>(b) * a.total_warps + gw) * a.cap;
      for (int i = lane; i < total; i += 32) dst[i] = items[i];
      __syncwarp();
      continue;
    }
    const int step0 = b * P;
    int reported = -1;  // partitions of this batch this warp has reported finished
    for (int i0 = 0; i0 < total;) {
      // The round: at most kRound items, and with a barrier only partitions below
      // first + lag, so that the partition it waits for (its last's - lag) is one this warp
      // has finished and reported itself.
      // Partitions before the round's first item hold none of this warp's items: report them
      // first, or the wait below could be for one of them.
      for (int q = reported + 1; q < part(i0); ++q) signal(step0 + q);
      reported = max(reported, part(i0) - 1);
      ++n_rounds;
      int end = min(total, i0 + kRound);
      if (a.lag > 0) {
        end = min(end, off[min(P, part(i0) + a.lag)]);
        const int step = step0 + part(end - 1) - a.lag;
        if (step >= 0) wait_for(step);
      }
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int idx = i0 + slot + u * kSlots;
        v[u] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (idx < end)
          v[u] = __ldg(a.values + static_cast<long long>(items[idx].x & 0xffffffu) * a.f4 + f);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int idx = i0 + slot + u * kSlots;
        if (idx < end) {
          const uint2 it = items[idx];
          const float w = a.plan ? __expf(staged[it.y] - row_max[it.x >> 24]) : __uint_as_float(it.y);
          float4& A = acc[(slot * R + static_cast<int>(it.x >> 24)) * G + f];
          A.x += w * v[u].x;
          A.y += w * v[u].y;
          A.z += w * v[u].z;
          A.w += w * v[u].w;
        }
      }
      __syncwarp();
      const int next = end < total ? part(end) : P;  // every partition below it is finished
      for (int q = reported + 1; q < next; ++q) signal(step0 + q);
      reported = max(reported, next - 1);
      i0 = end;
    }
    for (int q = reported + 1; q < P; ++q) signal(step0 + q);
    for (int i = lane; i < nr * G && fits; i += 32) {
      const int r = i / G, ff = i % G;
      float4 t = acc[r * G + ff];
      for (int sl = 1; sl < kSlots; ++sl) {
        const float4 o = acc[(sl * R + r) * G + ff];
        t.x += o.x;
        t.y += o.y;
        t.z += o.z;
        t.w += o.w;
      }
      const float inv = row_sum[r] > 0.f ? 1.f / row_sum[r] : 0.f;
      a.out[(r0 + r) * a.f4 + ff] = make_float4(t.x * inv, t.y * inv, t.z * inv, t.w * inv);
    }
    __syncwarp();
  }
  if (lane == 0 && a.profile) {
    const unsigned long long total_cycles = clock64() - t_start;
    bar.record(a.profile, t_bucket, total_cycles, n_rounds);
  }
}

// The streamed sweep (thirty-second session): the rounds of sweep_gather leave a warp's gathers
// idle between rounds (call 9: 3.9 us a round of 16 at half the baseline's bandwidth). Here a
// warp keeps LA gathers in flight all the time: item j's row is loaded while item j - LA is
// added into its row's accumulators, over a register ring indexed by j % LA (LA divides 32; the
// chunk of 32 items is unrolled, so every index is static). The items (col | row << 24, the
// edge's offset in the batch) come from a plan built once per graph, a lane an item, fetched
// two chunks ahead; a lane computes its item's normalised softmax weight from the scores and
// its row's maximum and sum (a lane a row, once per batch). Shared memory holds only the
// accumulators and the rows' statistics, so more warps and rows fit an SM than in sweep_gather
// (x ~ 0.8 against 0.47). F = 128 only: a lane holds one float4 of a row.
// One warp's shared memory: R x 32 float4 accumulators, then R (max, 1 / sum) pairs.
__host__ __device__ inline size_t stream_warp_bytes(int rows) {
  return (static_cast<size_t>(rows) * 32 * 16 + rows * 8 + 15) / 16 * 16;
}


// kProfile: the instance that records where the warps' time goes (a launch of its own, untimed);
// the timed instance carries no clocks or counts.
template <int LA, int kMinBlocks, bool kProfile>
__global__ void __launch_bounds__(128, kMinBlocks) stream_gather(const StreamArgs a) {
  static_assert(32 % LA == 0, "the ring's index must be static across chunks");
  extern __shared__ float4 smem4[];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int wib = static_cast<int>(threadIdx.x) >> 5;
  const int gw = blockIdx.x * 4 + wib;
  const int R = a.rows_per_warp;
  float4* acc = reinterpret_cast<float4*>(reinterpret_cast<unsigned char*>(smem4) +
                                          wib * stream_warp_bytes(R));
  float2* stats = reinterpret_cast<float2*>(acc + R * 32);
  SoftBarrier<kProfile> bar(a.step_done, a.timeouts, a.total_warps, a.spin_limit, a.lag, gw, lane);
  unsigned long long t_setup = 0, n_chunks = 0;
  const long long t_start = kProfile ? clock64() : 0;
  for (int b = 0; b < a.batches; ++b) {
    const long long t_batch = kProfile ? clock64() : 0;
    WarpBatch<LA, kProfile> w(a, bar, stats, b, gw, lane);
    const int n_items = w.n_items;
    for (int r = 0; r < R; ++r) acc[r * 32 + lane] = make_float4(0.f, 0.f, 0.f, 0.f);
    w.take_stats(stats);
    __syncwarp();
    if (kProfile) t_setup += clock64() - t_batch;
    if (n_items > 0) {
      uint2 m_cur = w.weigh(0, w.fetch(0));
      uint2 m_next = w.weigh(1, w.fetch(1));
      uint2 raw = w.fetch(2);
      w.report_below(w.part(__shfl_sync(0xffffffffu, m_cur.x, 0)));
      float4 ring[LA];  // item j's source row, its row among the warp's and weight at j % LA
      unsigned ring_row[LA];
      float ring_w[LA];
      for (int c = 0; c * 32 < n_items; ++c) {
        if (kProfile) ++n_chunks;
        // The wait's counter was read a chunk ahead (prefetch below): it blocks only when the
        // value read then was short (call 4: a blocking poll a chunk, ~1.5 ms of R 12's waits).
        if (a.lag > 0) bar.wait_for(w.needed_step(c, m_cur, m_next));
        // The ring's loads are unconditional (an item past the end loads row 0, as its x is 0):
        // a predicated load into the ring made ptxas load into a temporary and copy it into the
        // ring register, and the copy waited for the load (call 1: one or two gathers in flight).
        if (c == 0) {
#pragma unroll
          for (int u = 0; u < LA; ++u) {
            const unsigned x = __shfl_sync(0xffffffffu, m_cur.x, u);
            ring[u] = __ldg(a.values + static_cast<size_t>(x & 0xffffffu) * 32 + lane);
            ring_row[u] = x >> 24;
            ring_w[u] = __uint_as_float(__shfl_sync(0xffffffffu, m_cur.y, u));
          }
        }
        float s_raw = 0.f;
#pragma unroll
        for (int u = 0; u < 32; ++u) {
          if (u == 8) s_raw = w.load_score(c, raw);
          if (c * 32 + u < n_items)
            add_weighted(acc[ring_row[u % LA] * 32 + lane], ring_w[u % LA], ring[u % LA]);
          // The item LA ahead: its row now, its weight and row kept beside it.
          const unsigned xl = __shfl_sync(0xffffffffu, u + LA < 32 ? m_cur.x : m_next.x, (u + LA) & 31);
          const float wl = __uint_as_float(
              __shfl_sync(0xffffffffu, u + LA < 32 ? m_cur.y : m_next.y, (u + LA) & 31));
          ring[u % LA] = __ldg(a.values + static_cast<size_t>(xl & 0xffffffu) * 32 + lane);
          ring_row[u % LA] = xl >> 24;
          ring_w[u % LA] = wl;
        }
        w.report_after(c, m_next);
        m_cur = m_next;
        m_next = w.weigh_loaded(c, raw, s_raw);
        raw = w.fetch(c + 3);
        if (a.lag > 0 && (c + 1) * 32 < n_items) bar.prefetch(w.needed_step(c + 1, m_cur, m_next));
      }
    }
    w.report_below(a.parts);
    __syncwarp();
    for (int r = 0; r < w.nr && w.fits; ++r) a.out[(w.r0 + r) * 32 + lane] = acc[r * 32 + lane];
    __syncwarp();
  }
  if (kProfile && lane == 0) record_warp(a, bar, gw, t_setup, clock64() - t_start, n_chunks);
}

template <int LA, int kMinBlocks>
std::pair<const void*, const void*> stream_kernel() {
  return {reinterpret_cast<const void*>(&stream_gather<LA, kMinBlocks, false>),
          reinterpret_cast<const void*>(&stream_gather<LA, kMinBlocks, true>)};
}

// (ring, blocks of 4 warps an SM the registers must allow): the timed and the profiling instance
std::pair<const void*, const void*> find_stream(int la, int min_blocks) {
  if (la == 8 && min_blocks == 6) return stream_kernel<8, 6>();
  if (la == 8 && min_blocks == 7) return stream_kernel<8, 7>();
  if (la == 16 && min_blocks == 4) return stream_kernel<16, 4>();
  if (la == 4 && min_blocks == 7) return stream_kernel<4, 7>();
  if (la == 4 && min_blocks == 6) return stream_kernel<4, 6>();
  return {nullptr, nullptr};
}

template <int K, int GS, int RG, int kMinBlocks, bool kAsync, int PF = 0, int kTrim = 0>
std::pair<const void*, const void*> tma_kernel() {
  return {reinterpret_cast<const void*>(
              &tma_gather<K, GS, RG, kMinBlocks, kAsync, PF, false, float, 0, kTrim>),
          reinterpret_cast<const void*>(
              &tma_gather<K, GS, RG, kMinBlocks, kAsync, PF, true, float, 0, kTrim>)};
}

// The library's bfloat16 instance (csrgat/colblock.cu: a ring of 16 rows of 256 bytes, the bits
// as unsigned short) in groups of GS with the trim of its group loop: the timed and the
// profiling one.
template <int GS, int kTrim>
std::pair<const void*, const void*> tma_bf16_kernel() {
  return {reinterpret_cast<const void*>(
              &tma_gather<16, GS, 10, 5, false, 0, false, unsigned short, 0, kTrim>),
          reinterpret_cast<const void*>(
              &tma_gather<16, GS, 10, 5, false, 0, true, unsigned short, 0, kTrim>)};
}

// float32 values to bfloat16 bits (round to nearest even), for the bfloat16 sweep.
__global__ void to_bf16_bits(const float* x, unsigned short* y, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const __nv_bfloat16 b = __float2bfloat16_rn(x[i]);
    y[i] = *reinterpret_cast<const unsigned short*>(&b);
  }
}

// (ring slots, slots a group, register rows, blocks of 4 warps an SM, cp.async rather than bulk
// copies, L2 prefetch distance, the trims of the group loop's instructions: tma_gather's kTrim,
// bfloat16 values): the timed and the profiling instance. The session's other options, measured and
// removed (docs/perf-notes.md, thirty-third session): the next item's loads ahead (call 8), the
// next batch's setup read early (call 10).
std::pair<const void*, const void*> find_tma(int k, int gs, int rg, int min_blocks, bool async,
                                             int pf, int trim, bool bf16) {
  // (The fifty-third session's deeper rings at trim 15, float32 K 16 and bfloat16 K 32 at 4
  // blocks an SM, 11-13% slower: measured and removed, the fifty-fourth session's call 1.)
  if (bf16) {  // the library's instance, a ring of 16 rows
    if (k != 16 || rg != 10 || min_blocks != 5 || async || pf != 0) return {nullptr, nullptr};
    if (gs == 8) {  // the fifty-fifth session: two groups of 8
      if (trim == 63) return tma_bf16_kernel<8, 63>();
      if (trim == 127) return tma_bf16_kernel<8, 127>();
      return {nullptr, nullptr};
    }
    if (gs != 4) return {nullptr, nullptr};
    if (trim == 0) return tma_bf16_kernel<4, 0>();
    if (trim == 3) return tma_bf16_kernel<4, 3>();
    if (trim == 7) return tma_bf16_kernel<4, 7>();
    if (trim == 15) return tma_bf16_kernel<4, 15>();
    if (trim == 31) return tma_bf16_kernel<4, 31>();
    if (trim == 63) return tma_bf16_kernel<4, 63>();
    if (trim == 127) return tma_bf16_kernel<4, 127>();
    return {nullptr, nullptr};
  }
  if (k != 8 || gs != 4) return {nullptr, nullptr};
  // The fifty-second (1-3), third (7-31), fourth (47) and fifth (79) sessions' trims.
  if (trim != 0) {
    if (async || rg != 10 || min_blocks != 5 || pf != 0) return {nullptr, nullptr};
    if (trim == 1) return tma_kernel<8, 4, 10, 5, false, 0, 1>();
    if (trim == 2) return tma_kernel<8, 4, 10, 5, false, 0, 2>();
    if (trim == 3) return tma_kernel<8, 4, 10, 5, false, 0, 3>();
    if (trim == 7) return tma_kernel<8, 4, 10, 5, false, 0, 7>();
    if (trim == 15) return tma_kernel<8, 4, 10, 5, false, 0, 15>();
    if (trim == 31) return tma_kernel<8, 4, 10, 5, false, 0, 31>();
    if (trim == 47) return tma_kernel<8, 4, 10, 5, false, 0, 47>();
    if (trim == 79) return tma_kernel<8, 4, 10, 5, false, 0, 79>();
    return {nullptr, nullptr};
  }
  if (!async && rg == 4 && min_blocks == 6 && pf == 0) return tma_kernel<8, 4, 4, 6, false>();
  if (!async && rg == 10 && min_blocks == 5 && pf == 0) return tma_kernel<8, 4, 10, 5, false>();
  if (!async && rg == 8 && min_blocks == 5 && pf == 0) return tma_kernel<8, 4, 8, 5, false>();
  if (async && rg == 10 && min_blocks == 5 && pf == 0) return tma_kernel<8, 4, 10, 5, true>();
  if (async && rg == 10 && min_blocks == 5 && pf == 8) return tma_kernel<8, 4, 10, 5, true, 8>();
  if (async && rg == 15 && min_blocks == 4 && pf == 0) return tma_kernel<8, 4, 15, 4, true>();
  return {nullptr, nullptr};
}

// mma_gather (the fifty-seventh session: the bfloat16 sweep's adds on the tensor cores) with RG /
// 8 row tiles in registers and the rest of R's in shared memory (mma_tiles_shared), at kMinBlocks:
// the timed and the profiling instance, with the group loop's kTrim (the fifty-eighth session's
// bits: 1 sources before the copies and whole groups unchecked, 2 the next sources before the
// group's wait, 4 the weights' fragments before it); K must be 32.
template <int RT, int RTS, int kMinBlocks, int kTrim = 0>
std::pair<const void*, const void*> mma_kernel() {
  return {reinterpret_cast<const void*>(&mma_gather<RT, RTS, kMinBlocks, false, kTrim>),
          reinterpret_cast<const void*>(&mma_gather<RT, RTS, kMinBlocks, true, kTrim>)};
}

int mma_tiles_shared(int r, int rg) {
  return std::max(0, (r - rg + 7) / 8);
}

std::pair<const void*, const void*> find_mma(int k, int r, int rg, int min_blocks, int trim) {
  if (k != 32) return {nullptr, nullptr};
  const int rts = mma_tiles_shared(r, rg);
  if (rg == 16 && rts == 0 && min_blocks == 4 && trim == 0) return mma_kernel<2, 0, 4>();
  if (rg == 16 && rts == 0 && min_blocks == 4 && trim == 7) return mma_kernel<2, 0, 4, 7>();
  if (rg == 16 && rts == 0 && min_blocks == 5 && trim == 0) return mma_kernel<2, 0, 5>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 0) return mma_kernel<3, 0, 3>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 1) return mma_kernel<3, 0, 3, 1>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 3) return mma_kernel<3, 0, 3, 3>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 7) return mma_kernel<3, 0, 3, 7>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 9) return mma_kernel<3, 0, 3, 9>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 17) return mma_kernel<3, 0, 3, 17>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 25) return mma_kernel<3, 0, 3, 25>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 33) return mma_kernel<3, 0, 3, 33>();
  if (rg == 24 && rts == 0 && min_blocks == 3 && trim == 49) return mma_kernel<3, 0, 3, 49>();
  if (rg == 24 && rts == 1 && min_blocks == 3 && trim == 1) return mma_kernel<3, 1, 3, 1>();
  if (rg == 16 && rts == 1 && min_blocks == 4 && trim == 0) return mma_kernel<2, 1, 4>();
  if (rg == 16 && rts == 1 && min_blocks == 4 && trim == 7) return mma_kernel<2, 1, 4, 7>();
  if (rg == 16 && rts == 1 && min_blocks == 4 && trim == 1) return mma_kernel<2, 1, 4, 1>();
  if (rg == 16 && rts == 1 && min_blocks == 4 && trim == 9) return mma_kernel<2, 1, 4, 9>();
  return {nullptr, nullptr};
}

struct Config {
  int rows_per_warp;
  double part_mb;  // S x F x 4 bytes
  int lag;
  int u;
  bool planned = false;  // the batches' items from a plan built once, untimed
  bool streamed = false;  // stream_gather (planned): u is its ring LA
  int min_blocks = 0;     // stream_gather: blocks of 4 warps an SM its registers allow
  bool pre_stats = false;  // stream_gather: the row statistics from row_stats_pass
  bool tma = false;        // tma_gather (planned): u is its ring's slots K
  int reg_rows = 0;        // tma_gather: RG of the R rows accumulate in registers
  int group = 1;           // tma_gather: ring slots a group (an mbarrier and a wait a group)
  bool async_copy = false;  // tma_gather: cp.async, 16 bytes a lane, rather than bulk copies
  int prefetch = 0;         // tma_gather: items beyond the ring prefetched into L2 (0: none)
  int pause_ns = 0;         // tma_gather: the barrier's first sleep after a failed poll (0: 64)
  int trim = 0;  // tma_gather: kTrim (whole groups, switch, elected copies, sources first, early)
  bool bf16 = false;  // tma_gather: bfloat16 values (the library's instance: K 16)
  bool mma = false;   // bf16: mma_gather (K 32; RG rows in registers, the rest in shared memory)
};

template <int G, int U>
const void* sweep_kernel() {
  return reinterpret_cast<const void*>(&sweep_gather<G, U>);
}

const void* find_sweep(int g, int u) {
  if (g == 32 && u == 4) return sweep_kernel<32, 4>();
  if (g == 32 && u == 8) return sweep_kernel<32, 8>();
  if (g == 16 && u == 4) return sweep_kernel<16, 4>();
  if (g == 16 && u == 8) return sweep_kernel<16, 8>();
  if (g == 32 && u == 16) return sweep_kernel<32, 16>();
  if (g == 16 && u == 16) return sweep_kernel<16, 16>();
  return nullptr;
}

// How the warps' busy cycles (their time less their waits, from the profiling launch) spread:
// over all warps, by the warp's place in its block, by its block's place on its SM (blocks of an
// SM ranked by index) and by SM. A barrier paces every warp at the slowest's rate, so the spread
// is what the waits cost.
nlohmann::json warp_spread(const unsigned long long* d_trace, int total_warps, int warps_per_block,
                           int blocks_per_sm, const prof::DeviceInfo& info) {
  std::vector<unsigned long long> t(static_cast<size_t>(total_warps) * kWarpTraceWords);
  CSRGAT_CUDA_CHECK(cudaMemcpy(t.data(), d_trace, t.size() * sizeof(t[0]), cudaMemcpyDeviceToHost));
  const double to_us = 1.0 / (info.sm_clock_max_mhz ? info.sm_clock_max_mhz : 1980.0);
  std::vector<double> busy(total_warps);
  std::vector<std::vector<int>> blocks_of_sm(info.sm_count);
  for (int w = 0; w < total_warps; ++w) {
    busy[w] = t[w * kWarpTraceWords + 1] * to_us;
    const int sm = static_cast<int>(t[w * kWarpTraceWords]);
    const int block = w / warps_per_block;
    if (sm < info.sm_count && w % warps_per_block == 0) blocks_of_sm[sm].push_back(block);
  }
  std::vector<double> by_place(warps_per_block), by_slot(blocks_per_sm), by_sm(info.sm_count);
  std::vector<int> n_slot(blocks_per_sm), n_sm(info.sm_count);
  for (int sm = 0; sm < info.sm_count; ++sm) {
    auto& blocks = blocks_of_sm[sm];
    std::sort(blocks.begin(), blocks.end());
    for (size_t k = 0; k < blocks.size(); ++k)
      for (int wi = 0; wi < warps_per_block; ++wi) {
        const double b = busy[blocks[k] * warps_per_block + wi];
        if (static_cast<int>(k) < blocks_per_sm) {
          by_slot[k] += b;
          ++n_slot[k];
        }
        by_sm[sm] += b;
        ++n_sm[sm];
      }
  }
  for (int w = 0; w < total_warps; ++w) by_place[w % warps_per_block] += busy[w];
  for (auto& v : by_place) v /= std::max(1, total_warps / warps_per_block);
  for (size_t k = 0; k < by_slot.size(); ++k) by_slot[k] /= std::max(1, n_slot[k]);
  std::vector<double> sm_means;
  for (int sm = 0; sm < info.sm_count; ++sm)
    if (n_sm[sm]) sm_means.push_back(by_sm[sm] / n_sm[sm]);
  std::vector<double> sorted = busy;
  std::sort(sorted.begin(), sorted.end());
  auto q = [&](const std::vector<double>& v, double f) { return v[static_cast<size_t>(f * (v.size() - 1))]; };
  std::sort(sm_means.begin(), sm_means.end());
  double mean = 0;
  for (double b : busy) mean += b;
  mean /= busy.size();
  std::printf("  warps' busy us: mean %.1f, min %.1f, p1 %.1f, p99 %.1f, max %.1f; by place in "
              "block", mean, sorted.front(), q(sorted, 0.01), q(sorted, 0.99), sorted.back());
  for (double v : by_place) std::printf(" %.1f", v);
  std::printf("; by block slot on SM");
  for (double v : by_slot) std::printf(" %.1f", v);
  std::printf("; SMs' means %.1f-%.1f\n", sm_means.front(), sm_means.back());
  return {{"busy_us_mean", mean}, {"busy_us_min", sorted.front()}, {"busy_us_p01", q(sorted, 0.01)},
          {"busy_us_p99", q(sorted, 0.99)}, {"busy_us_max", sorted.back()},
          {"busy_us_by_place_in_block", by_place}, {"busy_us_by_block_slot", by_slot},
          {"sm_mean_busy_us_min", sm_means.front()}, {"sm_mean_busy_us_max", sm_means.back()}};
}

struct Options {
  int device = 0;
  bool only = false;  // --config: one sweep configuration on uniform 2M (plus the reference)
  Config config{};
  bool once = false;  // --once: launch each kernel once, untimed (under ncu)
  int poison = 0;     // --poison N: N source rows with one value +Inf
};

// Value (i n / count) F + i % F set to +Inf for i < count: count rows spread over the graph.
__global__ void poison_values(float* values, int n, int feat, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[(static_cast<long long>(i) * n / count) * feat + i % feat] = INFINITY;
}

int run(const std::string& out_path, const Options& o) {
  const int device = o.device;
  prof::Timer timer(device);
  const prof::DeviceInfo info = announce_device(timer, device);
  prof::CounterSession counters(device, probe_metrics());
  say_if_unavailable(counters);
  prof::TimingOptions opt;
  opt.cache = prof::CacheMode::cold;
  opt.stop.max_samples = 11;
  opt.stop.max_seconds = 1.0;

  // lag 0 would wait on the warp's own partition.
  // {R, partition MB, lag, U (stream: LA; tma: K), planned, streamed, blocks, row statistics
  // pre-pass, tma, register rows, slots a group, cp.async, L2 prefetch, first poll sleep ns}
  // After the thirty-fourth session (calls 3, 6, 11): bulk RG 10 at 5 blocks, R 20 at 16.8 MB
  // and lag 15 (the thirty-third session's best) beside R 19 at 33.6 MB and lag 8 (the shipped
  // colblock's), and R 19 at 16.8 MB.
  // After the fifty-fifth session: the library's sweeps as it left them (float32 15 in groups
  // of 4 at 4096 ns; bfloat16 127 in groups of 8 at 1024 ns) beside float32 79 at 2048 ns (bit
  // 6, 0.4-0.6% faster on an H100, never run on an H200) and the bfloat16 sweep the session
  // started from (63 in groups of 4 at 4096 ns); each list in both orders. The fifty-seventh
  // session's calls 4 and 7 ran bit 7 (the barrier's counters read two chunks ahead, alone and
  // with a fresh read where short: bfloat16 127 against 255 in groups of 8, float32 47 against
  // 175 beside 15; both removed) in place of float32 79 and bfloat16 63. The fifty-sixth
  // session's call 10 ran an item's row by a jump table (bits 7 and 8 then, removed) on the
  // library's sweeps, call 15 6 blocks an SM with 8 register rows and R 16 (bfloat16 +15% in
  // groups of 8, +8% in groups of 4, float32 +2.4%; the instances removed). The fifty-fifth
  // session's lists: call 13 bit 7, a chunk's wait before its first refill (removed); call 10 the
  // barrier's prefetch also reading a step 2 or 4 later (bits 7 and 8 then, removed); call 8 the
  // new bfloat16 sweep against lags 6 and 7, R 17 and 21, 16.8 MB partitions; call 4 bit 6's pause
  // (512-4096 ns) at lags 8 and 10, float32 79 at 512-4096 ns; call 3 groups of 8 at lags 8-12 with
  // and without bit 6, float32 15 and 79 at lags 8 and 12; call 2 float32 15, 47 and 79, bfloat16
  // 63, 127 at 512-2048 ns, groups of 8, lags 12 and 16. The fifty-fourth session's lists ran 15
  // against 47 (bit 5), 111 and 207 (the counters read a chunk ahead: bit 6 then), 143 (the items
  // through L1: bit 7 then), bfloat16 31 against 63 and those bits; the fifty-third 3 and 7, 7 and
  // 15, 15 and 31; the fifty-second each trim 0-3.
  auto bulk = [](int r, double mb, int lag, int pause, int trim = 0, bool bf16 = false,
                 int gs = 4) {
    return Config{r,    mb, lag, bf16 ? 16 : 8, true, false, 5,    false,
                  true, 10, gs,  false,         0,    pause, trim, bf16};
  };
  auto mma = [](int r, int rg, int blocks, int trim = 0) {  // at 33 MB and lag 8, 1024 ns
    Config c{r, 33, 8, 32, true, false, blocks, false, true, rg, 16, false, 0, 1024, trim, true};
    c.mma = true;
    return c;
  };
  const std::vector<Config> configs_f128 = {
      bulk(19, 33, 8, 4096, 15), bulk(19, 33, 8, 2048, 79), bulk(19, 33, 8, 2048, 79),
      bulk(19, 33, 8, 4096, 15),
      // bfloat16 values, where the sweep is bound by its items, not its bytes (thirty-sixth
      // session)
      bulk(19, 33, 8, 1024, 127, true, 8), bulk(19, 33, 8, 4096, 63, true),
      bulk(19, 33, 8, 4096, 63, true), bulk(19, 33, 8, 1024, 127, true, 8),
      // The fifty-seventh session: mma_gather (the adds on the tensor cores), R 16 at 4 and 5
      // blocks an SM, R 24 at 3, R 24 at 4 with a row tile in shared memory, beside the library's
      // bfloat16 sweep above.
      mma(16, 16, 4), mma(16, 16, 5), mma(24, 24, 3), mma(24, 16, 4),
      // The fifty-eighth session: its group loop's trims (call 4: 1, the copies' sources first and
      // whole groups unchecked, 1.2% faster than 127; 3 and 7, the next sources and the weights'
      // fragments before the group's wait, slower than 1), then 9 (1 with the weights rounded to
      // bfloat16: one product), R 31 at 3 blocks (a shared row tile: 372 rows an SM) and R 24 at
      // 4 (384), between two runs of the library's bfloat16 sweep.
      mma(24, 24, 3, 1), mma(24, 24, 3, 9), mma(31, 24, 3, 1), mma(24, 16, 4, 1),
      // Call 10 onwards: 17 and 25 (1 and 9 with chunk c + 5's items prefetched into L2); the
      // fifty-ninth session: 33 and 49 (1 and 17 with the finite contract kept: bit 5); the
      // sixtieth session's calls 9 and 16 ran bits 6 and 7 (the chunk's loads before the barrier's
      // wait; the next chunk's counters read at its top: trims 65, 97, 161, 225; removed).
      mma(24, 24, 3, 17), mma(24, 24, 3, 25), bulk(19, 33, 8, 1024, 127, true, 8),
      mma(24, 24, 3, 1), mma(24, 24, 3, 17), mma(24, 24, 3, 33), mma(24, 24, 3, 49),
      bulk(19, 33, 8, 1024, 127, true, 8)};
  const std::vector<Config> configs_f64 = {{16, 16, -1, 16}, {16, 16, -1, 16, true},
                                           {16, 8, 8, 16, true}};
  const std::vector<Config> configs_only = {o.config};

  nlohmann::json out{{"device", prof::to_json(info)},
                     {"timing", prof::to_json(opt)},
                     {"problems", nlohmann::json::array()}};
  for (const Problem& p : target2_problems()) {
    if (o.only && p.feat != 128) continue;
    const DeviceGraph graph(p, info.sm_count);
    if (o.poison > 0) {
      poison_values<<<(o.poison + 255) / 256, 256>>>(graph.values, p.n, p.feat, o.poison);
      CSRGAT_CUDA_CHECK(cudaGetLastError());
      std::printf("%d source rows with a value of +Inf\n", o.poison);
    }
    const int f4 = p.feat / 4;
    unsigned *steps = nullptr, *timeouts = nullptr;
    unsigned long long* profile = nullptr;
    // Steps are numbered in an int, and a slot's target is total_warps x (step / kSlotsRing + 1).
    const size_t max_steps = 1 << 20;
    const size_t counter_bytes = kBarrierBytes;
    CSRGAT_CUDA_CHECK(cudaMalloc(&steps, counter_bytes));
    CSRGAT_CUDA_CHECK(cudaMalloc(&timeouts, sizeof(unsigned)));
    CSRGAT_CUDA_CHECK(cudaMalloc(&profile, kProfileFields * sizeof(unsigned long long)));
    unsigned long long* warp_trace = nullptr;  // stream_gather's profiling launch, a warp each
    CSRGAT_CUDA_CHECK(cudaMalloc(&warp_trace, static_cast<size_t>(1 << 16) * kWarpTraceWords *
                                                  sizeof(unsigned long long)));
    float2* row_stats = nullptr;  // row_stats_pass's output, for the configurations with pre_stats
    // The values as bfloat16 bits, for the `bf16` configurations (made by the first).
    unsigned short* values_bf16 = nullptr;
    CSRGAT_CUDA_CHECK(cudaMalloc(&row_stats, static_cast<size_t>(p.n) * sizeof(float2)));
    sort_rows<32><<<(p.n + 255) / 256, 256>>>(p.n, graph.row_ptr, graph.col, graph.scores);
    CSRGAT_CUDA_CHECK(cudaGetLastError());
    CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("\n%s: values %.0f MB (L2 %.0f MB), columns sorted within rows\n", p.name,
                graph.elems * 4 / 1e6, info.l2_bytes / 1e6);
    nlohmann::json pj{{"name", p.name}, {"nodes", p.n}, {"degree", p.d}, {"feat", p.feat},
                      {"configs", nlohmann::json::array()}};
    auto measure = [&](const std::function<void(cudaStream_t)>& launch, float* dst, bool check,
                       nlohmann::json row) {
      // NaN everywhere first: a row the kernel never writes then fails the check (an earlier
      // configuration's correct rows would pass it).
      if (check) CSRGAT_CUDA_CHECK(cudaMemset(dst, 0xff, graph.elems * sizeof(float)));
      prof::TimingResult t{};
      if (o.once) {  // under a profiler: one launch, untimed
        launch(nullptr);
        CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
      } else {
        t = timer.measure([&](cudaStream_t s, int) { launch(s); }, opt);
      }
      const auto [dram, lts] =
          o.once ? std::pair<double, double>{NAN, NAN} : dram_and_l2_bytes(counters, launch);
      const float max_diff = check ? graph.max_diff_from_ref(dst) : 0.f;
      row["timer"] = t.timer;
      row["median_us"] = t.gpu.median;
      row["q1_us"] = t.gpu.q1;
      row["q3_us"] = t.gpu.q3;
      row["n"] = t.gpu.n;
      row["dram_bytes"] = dram;
      row["lts_bytes"] = lts;
      row["max_abs_diff_vs_baseline"] = max_diff;
      std::printf("%-60s %9.1f us (q1 %.1f, q3 %.1f)  DRAM %6.2f GB  L2 %6.2f GB  diff %.1e\n",
                  row.value("label", std::string()).c_str(), t.gpu.median, t.gpu.q1, t.gpu.q3,
                  dram / 1e9, lts / 1e9, max_diff);
      return row;
    };
    // Baselines: the plain kernel, one slice, U = 4 and 8; the first is the reference.
    for (int u : {4, 8}) {
      if (u == 8 && o.only) continue;
      Args a{graph.row_ptr, graph.col, graph.scores, reinterpret_cast<const float4*>(graph.values),
             reinterpret_cast<float4*>(u == 4 ? graph.ref : graph.res), p.n, f4, 1,
             (p.n + 256 / f4 - 1) / (256 / f4), 1};
      const void* fn = u == 4 ? (f4 == 32 ? reinterpret_cast<const void*>(&sliced_gather<32, 4>)
                                          : reinterpret_cast<const void*>(&sliced_gather<16, 4>))
                              : (f4 == 32 ? reinterpret_cast<const void*>(&sliced_gather<32, 8>)
                                          : reinterpret_cast<const void*>(&sliced_gather<16, 8>));
      auto launch = [&, a, fn](cudaStream_t s) {
        Args copy = a;
        void* params[] = {&copy};
        CSRGAT_CUDA_CHECK(cudaLaunchKernel(fn, dim3(a.blocks_per_slice), dim3(256), params, 0, s));
      };
      nlohmann::json row{{"kind", "baseline"}, {"edges_in_flight", u},
                         {"label", "baseline U=" + std::to_string(u)}};
      pj["configs"].push_back(measure(launch, u == 4 ? graph.ref : graph.res, u != 4, row));
    }
    // The seed kernel (the tuner's `seed` baseline, variants/baselines.cuh: a block a row, a
    // thread a feature), so that a sweep's ratio to it, which target 2 asks (0.7x), is measured
    // in the same process (the thirty-third session could only chain it through the run of record).
    if (!o.only) {
      csrgat::KernelArgs k{};
      k.row_ptr = graph.row_ptr;
      k.col = graph.col;
      k.scores = graph.scores;
      k.values = graph.values;
      k.out = graph.res;
      k.num_rows = p.n;
      k.heads = 1;
      k.feat = k.feat_ld = p.feat;
      const void* fn = reinterpret_cast<const void*>(&csrgat_seed<int, float>);
      const size_t smem = static_cast<size_t>(p.d) * sizeof(float);  // every row has d edges
      auto launch = [k, fn, smem, n = p.n, feat = p.feat](cudaStream_t s) {
        csrgat::KernelArgs copy = k;
        void* params[] = {&copy};
        CSRGAT_CUDA_CHECK(cudaLaunchKernel(fn, dim3(n), dim3((feat + 31) / 32 * 32), params, smem, s));
      };
      nlohmann::json row{{"kind", "seed"}, {"label", "seed (csrgat_seed, the tuner's baseline)"}};
      pj["configs"].push_back(measure(launch, graph.res, true, row));
    }
    // The baseline (U = 4) with dynamic shared memory it does not use, at the same occupancy:
    // the L1 left to it bounds the lines in flight an SM if a miss needs L1 space for its data.
    for (int kb : {16, 24, 32}) {
      if (o.only || f4 != 32) break;
      const void* fn = reinterpret_cast<const void*>(&sliced_gather<32, 4>);
      const size_t bytes = static_cast<size_t>(kb) * 1024;
      int blocks_sm = 0, blocks_sm_plain = 0;
      CSRGAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm, fn, 256, bytes));
      CSRGAT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm_plain, fn, 256, 0));
      Args a{graph.row_ptr, graph.col, graph.scores, reinterpret_cast<const float4*>(graph.values),
             reinterpret_cast<float4*>(graph.res), p.n, f4, 1, (p.n + 256 / f4 - 1) / (256 / f4), 1};
      auto launch = [&, a, fn, bytes](cudaStream_t s) {
        Args copy = a;
        void* params[] = {&copy};
        CSRGAT_CUDA_CHECK(cudaLaunchKernel(fn, dim3(a.blocks_per_slice), dim3(256), params, bytes, s));
      };
      nlohmann::json row{{"kind", "baseline with unused shared memory"}, {"edges_in_flight", 4},
                         {"smem_per_block", bytes}, {"blocks_per_sm", blocks_sm},
                         {"blocks_per_sm_without", blocks_sm_plain},
                         {"label", "baseline U=4, " + std::to_string(kb) + " KB shared a block (" +
                                       std::to_string(blocks_sm) + " blocks an SM, " +
                                       std::to_string(blocks_sm_plain) + " without)"}};
      pj["configs"].push_back(measure(launch, graph.res, true, row));
    }
    for (const Config& c : o.only ? configs_only : p.feat == 128 ? configs_f128 : configs_f64) {
      // lag 0: a warp would wait for its own partition.
      if (c.lag == 0 || c.lag >= kSlotsRing) {
        std::printf("lag %d skipped: 1 to %d, or negative for no barrier\n", c.lag, kSlotsRing - 1);
        continue;
      }
      const bool ringed = c.streamed || c.tma;  // stream_gather's arguments and launch
      // (mma_gather: RG is its rows' capacity in registers, any more in shared row tiles)
      if (ringed && (f4 != 32 || c.rows_per_warp > 31 || (!c.mma && c.reg_rows > c.rows_per_warp) ||
                     p.n >= (1 << 24))) {
        std::printf("%s R=%d skipped: F = 128, RG <= R <= 31 and n < 2^24 (col | row << 24) only\n",
                    c.tma ? "tma" : "stream", c.rows_per_warp);
        continue;
      }
      const auto [fn, fn_profile] =
          c.mma        ? find_mma(c.u, c.rows_per_warp, c.reg_rows, c.min_blocks, c.trim)
          : c.tma      ? find_tma(c.u, c.group, c.reg_rows, c.min_blocks, c.async_copy, c.prefetch,
                                  c.trim, c.bf16)
          : c.streamed ? find_stream(c.u, c.min_blocks)
                       : std::pair{find_sweep(f4, c.u), find_sweep(f4, c.u)};
      if (!fn) {
        std::printf(
            "no kernel instantiated for U=%d (blocks %d; tma: register rows %d, group %d, "
            "%s, prefetch %d, trim %d, %s)\n",
            c.u, c.min_blocks, c.reg_rows, c.group, c.async_copy ? "cp.async" : "bulk", c.prefetch,
            c.trim, c.bf16 ? "bf16" : "f32");
        continue;
      }
      SweepArgs a{};
      a.row_ptr = graph.row_ptr;
      a.col = graph.col;
      a.scores = graph.scores;
      a.values = reinterpret_cast<const float4*>(graph.values);
      if (c.bf16) {  // the bfloat16 copy of the values, made once a problem
        if (!values_bf16) {
          CSRGAT_CUDA_CHECK(cudaMalloc(&values_bf16, graph.elems * sizeof(unsigned short)));
          to_bf16_bits<<<4 * info.sm_count, 256>>>(graph.values, values_bf16, graph.elems);
          CSRGAT_CUDA_CHECK(cudaGetLastError());
          CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
        }
        a.values = reinterpret_cast<const float4*>(values_bf16);  // the kernel reads its bytes
      }
      a.out = reinterpret_cast<float4*>(graph.res);
      a.n = p.n;
      a.f4 = f4;
      a.rows_per_warp = c.rows_per_warp;
      a.part_rows = std::max(1, static_cast<int>(c.part_mb * 1e6 / (p.feat * 4.0)));
      // The ringed kernels' S: the nearest power of two, a shift instead of a division (from the
      // thirty-third session's call 5; 16 MB at F = 128: 32768 rows, 16.8 MB, not 31250).
      int part_shift = -1;
      if (ringed) {
        part_shift = static_cast<int>(std::lround(std::log2(static_cast<double>(a.part_rows))));
        a.part_rows = 1 << part_shift;
      }
      a.parts = (p.n + a.part_rows - 1) / a.part_rows;
      a.cap = c.rows_per_warp * p.d;
      a.lag = c.lag;
      a.spin_limit = 5000;  // polls 64-1024 ns apart: ~5 ms before a warp gives up waiting
      // The occupancy below must be the planned kernel's (its shared memory holds the scores
      // too); the plan's address is set once it is built.
      const uint2 plan_placeholder{};
      a.plan = c.planned && !ringed ? &plan_placeholder : nullptr;
      // Warps a block (stream_gather: 4; sweep_gather: 4, 2 or 1, the most resident warps an
      // SM, fewer a block on a tie).
      int warps = 0, per_sm = 0;
      size_t smem = 0;
      for (int w : ringed ? std::vector<int>{4} : std::vector<int>{1, 2, 4}) {
        const size_t bytes =
            c.mma
                ? w * mma_warp_bytes(c.reg_rows / 8, mma_tiles_shared(c.rows_per_warp, c.reg_rows))
            : c.tma      ? w * tma_warp_bytes(c.rows_per_warp, c.reg_rows, c.u, c.bf16 ? 256 : 512)
            : c.streamed ? w * stream_warp_bytes(c.rows_per_warp)
                         : w * warp_smem_bytes(a, 32 / f4, f4);
        if (bytes > info.smem_per_block_optin) continue;
        CSRGAT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes)));
        int blocks_sm = 0;
        CSRGAT_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm, fn, 32 * w, bytes));
        if (blocks_sm * w > per_sm * warps || (warps == 0 && blocks_sm > 0)) {
          warps = w;
          per_sm = blocks_sm;
          smem = bytes;
        }
      }
      if (per_sm == 0) {
        std::printf("R=%d S=%.0f MB: the kernel's shared memory does not fit\n",
                    c.rows_per_warp, c.part_mb);
        continue;
      }
      for (const void* f : {fn, fn_profile})
        CSRGAT_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(smem)));
      const int blocks = per_sm * info.sm_count;
      a.total_warps = blocks * warps;
      const long long rows_per_batch = static_cast<long long>(a.total_warps) * a.rows_per_warp;
      a.batches = static_cast<int>((p.n + rows_per_batch - 1) / rows_per_batch);
      const size_t nsteps = static_cast<size_t>(a.batches) * a.parts;
      if (nsteps > max_steps) {
        std::printf("R=%d S=%.0f MB skipped: %zu steps, more than %zu\n", c.rows_per_warp,
                    c.part_mb, nsteps, max_steps);
        continue;
      }
      a.step_done = steps;
      a.timeouts = timeouts;
      CSRGAT_CUDA_CHECK(cudaMemset(timeouts, 0, sizeof(unsigned)));
      uint2* plan = nullptr;
      if (c.planned || c.streamed) {
        // The plan: sweep_gather over the same warps and batches buckets the edges once and
        // writes their items (blocks of 4 warps, whatever the measured kernel's occupancy).
        const size_t plan_items = static_cast<size_t>(a.batches) * a.total_warps * a.cap;
        CSRGAT_CUDA_CHECK(cudaMalloc(&plan, plan_items * sizeof(uint2)));
        SweepArgs build = a;
        build.plan = nullptr;
        build.plan_out = plan;
        build.lag = -1;
        const void* builder = find_sweep(f4, 16);
        const size_t build_smem = 4 * warp_smem_bytes(build, 32 / f4, f4);
        CSRGAT_CUDA_CHECK(cudaFuncSetAttribute(
            builder, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(build_smem)));
        void* params[] = {&build};
        CSRGAT_CUDA_CHECK(cudaLaunchKernel(builder, dim3((a.total_warps + 3) / 4), dim3(128), params,
                                           build_smem, nullptr));
        CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
        a.plan = plan;
      }
      StreamArgs sa{a.row_ptr, a.scores,       a.values,   a.out,          a.plan,
                    a.n,       a.rows_per_warp, a.part_rows, a.parts,      a.cap,
                    a.lag,     a.total_warps,  a.batches,  a.step_done,    a.timeouts,
                    a.spin_limit, nullptr, c.pre_stats ? row_stats : nullptr, nullptr,
                    part_shift, c.pause_ns};
      // One launch, its step counters zeroed first; `profile` non-null records the warps' time.
      auto go = [&, a, sa, fn = fn, fn_profile = fn_profile, smem, blocks, warps, counter_bytes](
                    cudaStream_t s, unsigned long long* profile) {
        CSRGAT_CUDA_CHECK(cudaMemsetAsync(a.step_done, 0, counter_bytes, s));
        if (sa.row_stats) {
          row_stats_pass<<<(a.n + 255) / 256, 256, 0, s>>>(a.n, a.row_ptr, a.scores,
                                                           const_cast<float2*>(sa.row_stats));
          CSRGAT_CUDA_CHECK(cudaGetLastError());
        }
        SweepArgs copy = a;
        StreamArgs scopy = sa;
        copy.profile = profile;
        scopy.profile = profile;
        scopy.warp_trace = profile ? warp_trace : nullptr;
        void* params[] = {ringed ? static_cast<void*>(&scopy) : static_cast<void*>(&copy)};
        CSRGAT_CUDA_CHECK(cudaLaunchKernel(profile ? fn_profile : fn, dim3(blocks),
                                           dim3(32 * warps), params, smem, s));
      };
      auto launch = [&go](cudaStream_t s) { go(s, nullptr); };
      const double x = static_cast<double>(rows_per_batch) * p.d / p.n;
      const std::string kind =
          c.tma ? std::string(c.async_copy ? "cpasync" : "tma") + (c.pre_stats ? "+stats" : "") +
                      " RG=" + std::to_string(c.reg_rows) + " GS=" + std::to_string(c.group) +
                      (c.prefetch ? " PF=" + std::to_string(c.prefetch) : "") +
                      (c.pause_ns ? " sleep=" + std::to_string(c.pause_ns) : "") +
                      (c.trim ? " trim=" + std::to_string(c.trim) : "") + (c.bf16 ? " bf16" : "") +
                      (c.mma ? " mma" : "")
          : c.streamed ? (c.pre_stats ? "stream+stats" : "stream")
          : c.planned  ? "sweep+plan"
                       : "sweep";
      char label[160];
      const double actual_mb = a.part_rows * p.feat * 4.0 / 1e6;  // after part_shift's rounding
      std::snprintf(label, sizeof label, "%s R=%d S=%.1fMB(P=%d) lag=%d %s=%d B=%lld x=%.2f", kind.c_str(),
                    c.rows_per_warp, actual_mb, a.parts, c.lag, c.tma ? "K" : c.streamed ? "LA" : "U", c.u,
                    rows_per_batch, x);
      nlohmann::json row{{"kind", c.tma        ? "tma"
                                  : c.streamed ? "stream"
                                  : c.planned  ? "sweep with plan"
                                               : "sweep"},
                         {"rows_per_warp", c.rows_per_warp},
                         {"partition_mb", actual_mb}, {"partition_mb_asked", c.part_mb},
                         {"partition_rows", a.part_rows}, {"partitions", a.parts},
                         {"lag", c.lag},              {"edges_in_flight", c.u},
                         {"blocks_per_sm", per_sm},   {"warps_per_block", warps},
                         {"smem_per_block", smem},
                         {"rows_per_batch", rows_per_batch}, {"batches", a.batches},
                         {"x", x},                    {"label", label}};
      if (ringed) {
        row["min_blocks"] = c.min_blocks;
        row["row_stats_pass"] = c.pre_stats;
      }
      if (c.tma) {
        row["register_rows"] = c.reg_rows;
        row["slots_a_group"] = c.group;
        row["l2_prefetch_items"] = c.prefetch;
        row["first_poll_sleep_ns"] = c.pause_ns ? c.pause_ns : 64;
        row["trim"] = c.trim;
        row["values"] = c.bf16 ? "bf16" : "f32";
        row["mma"] = c.mma;
        row["copies"] = c.async_copy ? "cp.async, 16 bytes a lane" : "bulk (TMA), 512 bytes a lane";
      }
      row = measure(launch, graph.res, true, row);
      unsigned timed_out = 0;
      CSRGAT_CUDA_CHECK(cudaMemcpy(&timed_out, timeouts, sizeof(unsigned), cudaMemcpyDeviceToHost));
      row["barrier_timeouts"] = timed_out;
      if (timed_out)
        std::printf("  barrier timeouts over the timed launches (not the profiling one): %u\n",
                    timed_out);
      if (!o.once) {
        // One more launch, recording where the warps' time went.
        CSRGAT_CUDA_CHECK(cudaMemset(profile, 0, kProfileFields * sizeof(unsigned long long)));
        go(nullptr, profile);
        CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
        unsigned long long pr[kProfileFields] = {};
        CSRGAT_CUDA_CHECK(cudaMemcpy(pr, profile, sizeof pr, cudaMemcpyDeviceToHost));
        const double per_warp_us = 1.0 / (a.total_warps * (info.sm_clock_max_mhz ? info.sm_clock_max_mhz : 1980.0));
        const double bucket = pr[0] * per_warp_us, wait = pr[1] * per_warp_us, rest = pr[2] * per_warp_us;
        std::printf("  a warp's time: %s %.1f us, waits %.1f us, rounds and outputs %.1f us; "
                    "%.0f rounds, %.0f waits (%.0f slept) a warp\n",
                    ringed ? "row statistics" : "bucketing", bucket, wait, rest,
                    double(pr[3]) / a.total_warps, double(pr[4]) / a.total_warps,
                    double(pr[5]) / a.total_warps);
        if (ringed) row["warp_spread"] = warp_spread(warp_trace, a.total_warps, warps, per_sm, info);
        row["warp_profile"] = {{ringed ? "row_statistics_us" : "bucketing_us", bucket},
                               {"waits_us", wait},
                               {"rounds_and_outputs_us", rest},
                               {"rounds", double(pr[3]) / a.total_warps},
                               {"waits", double(pr[4]) / a.total_warps},
                               {"waits_that_slept", double(pr[5]) / a.total_warps}};
      }
      // The model: the gathers' distinct rows per batch, plus the streams (col, scores, out).
      const double row_bytes = p.feat * (c.bf16 ? 2.0 : 4.0);
      row["model_gather_bytes"] =
          a.batches * p.n * (1.0 - std::exp(-x)) * row_bytes;
      pj["configs"].push_back(row);
      if (plan) CSRGAT_CUDA_CHECK(cudaFree(plan));
    }
    out["problems"].push_back(pj);
    for (void* ptr : {static_cast<void*>(steps), static_cast<void*>(timeouts),
                      static_cast<void*>(profile), static_cast<void*>(row_stats),
                      static_cast<void*>(warp_trace), static_cast<void*>(values_bf16)})
      cudaFree(ptr);
  }
  return write_probe_json(out, out_path, "colblock_probe");
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: colblock_probe <out.json> [--device N] [--config "
      "R,MB,LAG,U[,plan|,streamB[+stats]|,tmaB[rRG][gGS][pPF][sNS][tT][a][h][m][+stats]] "
      "[--once]] [--poison N]\n";
  std::string out_path;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      o.device = std::atoi(argv[++i]);
      continue;
    }
    if (a == "--config" && i + 1 < argc) {
      o.config = Config{};  // a repeated --config starts afresh
      double mb = 0;
      int used = 0;
      const char* spec = argv[++i];
      bool ok = std::sscanf(spec, "%d,%lf,%d,%d%n", &o.config.rows_per_warp, &mb, &o.config.lag,
                            &o.config.u, &used) == 4 &&
                o.config.rows_per_warp >= 1 && o.config.rows_per_warp <= 255 && mb > 0;
      const std::string kind = ok ? std::string(spec + used) : std::string();
      if (kind == ",plan") {
        o.config.planned = true;
      } else if (kind.rfind(",stream", 0) == 0) {
        o.config.planned = o.config.streamed = true;
        int digits = 0;
        ok = ok && std::sscanf(kind.c_str() + 7, "%d%n", &o.config.min_blocks, &digits) == 1;
        const std::string rest = ok ? kind.substr(7 + digits) : std::string();
        o.config.pre_stats = rest == "+stats";
        ok = ok && (rest.empty() || o.config.pre_stats);
      } else if (kind.rfind(",tma", 0) == 0) {  // ,tmaB[rRG][gGS][pPF][sNS][tT][a][h][+stats]
        o.config.planned = o.config.tma = true;
        o.config.group = 4;  // the measured groups; g overrides
        int digits = 0;
        ok = ok && std::sscanf(kind.c_str() + 4, "%d%n", &o.config.min_blocks, &digits) == 1;
        std::string rest = ok ? kind.substr(4 + digits) : std::string();
        for (auto [letter, field] : {std::pair{'r', &o.config.reg_rows},
                                     {'g', &o.config.group},
                                     {'p', &o.config.prefetch},
                                     {'s', &o.config.pause_ns},
                                     {'t', &o.config.trim}})
          if (ok && !rest.empty() && rest[0] == letter) {
            ok = std::sscanf(rest.c_str() + 1, "%d%n", field, &digits) == 1 && *field >= 0;
            rest = ok ? rest.substr(1 + digits) : std::string();
          }
        if (ok && !rest.empty() && rest[0] == 'a') {
          o.config.async_copy = true;
          rest = rest.substr(1);
        }
        if (ok && !rest.empty() && rest[0] == 'h') {  // bfloat16 values (U, the ring, 16)
          o.config.bf16 = true;
          rest = rest.substr(1);
        }
        if (ok && o.config.bf16 && !rest.empty() && rest[0] == 'm') {  // mma_gather (U 32)
          o.config.mma = true;
          rest = rest.substr(1);
        }
        o.config.pre_stats = rest == "+stats";
        ok = ok && (rest.empty() || o.config.pre_stats);
      } else if (!kind.empty()) {
        ok = false;
      }
      if (!ok) {
        std::fprintf(
            stderr,
            "colblock_probe: --config wants "
            "R,MB,LAG,U[,plan|,streamB[+stats]|,tmaB[rRG][gGS][pPF][sNS][tT][a][h][+stats]] "
            "(R 1-255, MB > 0, B blocks an SM, RG register rows, GS ring slots a group, "
            "PF items prefetched into L2, NS the barrier's first sleep, T the group "
            "loop's trim (0-3, 7, 15, 31, 47, 79), a: cp.async, h: bfloat16 values "
            "(U 16; GS 4: trims 0, 3, 7, 15, 31, 63, 127; GS 8: 63, 127), m (after h): "
            "mma_gather (U 32; RG 16 at 4 or 5 blocks with R 16, at 4 with R 24; RG 24 at 3 with R "
            "24 or 25-31 (1 shared tile); trims 0, 1, 3, 7, 9, 17, 25, 33, 49: see find_mma); "
            "letters in this "
            "order): %s\n",
            spec);
        return 64;
      }
      o.config.part_mb = mb;
      o.only = true;
      continue;
    }
    if (a == "--once") {
      o.once = true;
      continue;
    }
    if (a == "--poison" && i + 1 < argc) {
      o.poison = std::atoi(argv[++i]);
      if (o.poison < 1) {
        std::fprintf(stderr, "colblock_probe: --poison wants a count of rows >= 1, not %s\n",
                     argv[i]);
        return 64;
      }
      continue;
    }
    if (a.rfind("--", 0) == 0 || !out_path.empty()) {
      std::fprintf(stderr, "%s", usage);
      return 64;
    }
    out_path = a;
  }
  if (out_path.empty() || (o.once && !o.only)) {
    std::fprintf(stderr, "%s", usage);
    return 64;
  }
  return run_probe("colblock_probe", [&] { return run(out_path, o); });
}
