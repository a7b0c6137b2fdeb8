// Launch arguments shared by every kernel of the family, NVRTC- and nvcc-compiled alike.
// One struct passed by value, so the runtime-API launch of an NVRTC cubin needs one pointer.
// No host-only headers: this file is compiled by NVRTC.
#pragma once

namespace csrgat {

// One piece of a long row: edges [begin, end) of `row`. The pieces of one row are
// consecutive in the plan, starting at index `first`, `count` of them.
struct ChunkDesc {
  long long row;
  long long begin;
  long long end;
  int first;
  int count;
};

// The field order is part of the kernels' speed. A kernel reads its parameters from constant
// bank 0 (from offset 0x210 on sm_90, right after the driver's memory descriptor at 0x208), and
// each 64-byte line of it that a warp touches is fetched once per launch per SM, the first warps
// waiting for it. The row path reads only the fields up to delay_ns (0x210..0x27b: two lines,
// the first shared with the descriptor every global access needs; 0x273 until feat_ld came in
// the twenty-ninth session, which moved the offsets and nothing else of the shipped kernels'
// SASS); the prefetching thread adds num_edges, the chunk path the three after it. (Until the
// thirteenth session `prefetch`, the first read of every warp, and the test-only fields sat in
// a third line with row_order: the lat_ladder tool puts a line at 0.02-0.045 us per launch,
// perf-notes.)
struct KernelArgs {
  const void* row_ptr;      // row_ptr: (N + 1), Index
  const void* col;          // col: (E), Index
  const float* scores;      // scores: (E, H)
  const void* values;       // values: (N, H, F), Value
  void* out;                // out: (N, H, F), float32 (the `.o16` kernels: the values' type)
  long long num_rows;       // N
  int heads;                // H
  int feat;                 // F: the features this launch computes, of each head
  // The length of each head's values and output rows (F of the problem): feat itself, except
  // in a launch of a `.fs<T>` variant, which computes one slice of feat_ld / T features (its
  // values and out pointers moved to the slice's first feature).
  int feat_ld;
  // 1 (the `.bm` variants): a row whose chunks all ran in one block (the plan packs them so,
  // build_split_plan's per_block) merges there after a barrier; 0: every row through the
  // counters. Read by the chunk path only.
  int block_merge;
  // Long-row plan: rows of degree > split_threshold are skipped by row tasks and done as
  // chunks (tasks [0, num_chunks * H)), chunk task k = c * H + h writing its normalised row to
  // partials[k * F, (k + 1) * F) and its (max, sum) to partials[C * H * F + 2 * k, + 2); the
  // last chunk of a row to finish merges them (log-sum-exp) and resets the counter.
  long long split_threshold;  // 0: no splitting
  long long num_chunks;       // C
  // Row tasks of an LPT kernel: task i takes row row_order[i] ((N), Index; the `.lpt`
  // variants' longest-rows-first order).
  const void* row_order;
  // 1 (the `.pf` variants): the first blocks, one per SM, prefetch row_ptr, the row order, the
  // chunk table, col, scores and values into L2 before their own tasks (prefetch_inputs).
  int prefetch;
  // 1 when the launch overlaps the previous kernel (programmatic dependent launch; set by
  // launch_family_kernel, the one place that chooses the launch): the register-gather kernels
  // then compute their first gathers' addresses before they wait for it and load the scores
  // after, and otherwise load the scores first (load_batch). The wait itself is always there.
  int overlapped;
  // Test-only knobs, read only by kernels compiled with -DCSRGAT_TEST_KNOBS (the tuner's NVRTC
  // builds of fault and delay variants and of runs with test_only.slow_percent: NvrtcCompiler;
  // never the library's): the other kernels' row tasks do not pay for their checks (twentieth
  // session: ~0.15 us at the end of each row task, tuner timeline).
  // Fault injection: 1 writes far out of bounds, 2 spins forever.
  int fault;
  // Test-only slowdown without a new variant id: this percentage of the row tasks is computed
  // twice (same result), so a memory-bound variant takes about that much longer.
  unsigned int slow_percent;
  // Test-only slowdown: every group spins this many extra nanoseconds.
  unsigned int delay_ns;
  // E (the length of col, and of scores per head); the `.pf` prefetch's extent.
  long long num_edges;
  const ChunkDesc* chunks;    // (C)
  float* partials;            // (C, H, F) rows, then (C, H, 2) stats: C * H * (F + 2)
  unsigned int* counters;     // (C, H), zero before the first launch, left zero after each
};

// One task of a diagnostic launch (`tuner timeline`): kernels compiled with -DCSRGAT_TIMELINE
// (never the library's, never a tuning run's) have each group's first thread write this for its
// task, indexed blockIdx.x * RPB + group: the global timer when the group started (before its
// parameters are read) and when it left, its SM, its duration in that SM's cycles and its block;
// and the global timer's low 32 bits at up to kTimelineMarks marks on the way (0: not reached):
// 0 when its run_task returned, 1 when a chunk's group passed its block's barrier or the
// hand-off's count, 2 when a merge began, 3 when the merge had the row's (max, sum) and 4 when
// it had its first weighted features (3 and 4 wait for the loaded values: the timer is read
// behind a branch on them).
constexpr int kTimelineMarks = 5;
struct TimelineRecord {
  unsigned long long start_ns;
  unsigned long long end_ns;
  unsigned int sm;
  unsigned int cycles;
  unsigned int block;
  unsigned int mark[kTimelineMarks];
};

}  // namespace csrgat
