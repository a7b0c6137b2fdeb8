// The host side of the colblock kernels (variants/colblock.cuh): the plan, each warp batch's
// edges in source-partition order, built once per graph (like a cuSPARSE analysis: the order
// belongs to the graph's structure, not to a call).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace csrgat::colblock {

// One planned edge, as the kernel reads it (a uint2): x = col | (row within the batch) << 24,
// y = the edge's offset from the batch's first edge (its score's index, less that edge's).
struct PlanItem {
  uint32_t x = 0;
  uint32_t y = 0;
};
static_assert(sizeof(PlanItem) == 8, "the kernel reads the plan as uint2");

// The item packing's limits: sources below 2^24, at most 31 rows a warp (a lane reads each row's
// start and one lane the end).
constexpr int64_t kMaxNodes = int64_t{1} << 24;
constexpr int kMaxRowsPerWarp = 31;

// The soft barrier's first sleep after a failed poll, in ns, where a geometry does not name one
// (`.pp<N>` left out, poll_pause_ns 0), by the value storage: float32 4096 (tuned in the
// thirty-third session, call 13, with one __nanosleep a poll, whose length is a hint), bfloat16
// 1024 (its sweep's polls are timed, tma_gather's kTrim bit 6: on an H100 the fifty-fifth session
// measured 512-2048 ns within 0.2% of each other and 4096 ns 5.5% slower).
constexpr int kFloat32PollPauseNs = 4096;
constexpr int kBfloat16PollPauseNs = 1024;
constexpr int kMinPollPauseNs = 32, kMaxPollPauseNs = 65536;
// The pause a launch runs: pause_ns, or the value storage's default where it is 0.
constexpr int poll_pause_ns_for(int pause_ns, bool float32_values) {
  return pause_ns != 0 ? pause_ns : float32_values ? kFloat32PollPauseNs : kBfloat16PollPauseNs;
}

// The L1 policies of the sweep's item and score loads run 0 to kMaxL1Policy (`.l1p<N>`;
// variants/colblock.cuh says what each does).
constexpr int kMaxL1Policy = 3;

// The compiled kernel's fixed geometry (csrgat/colblock.cu's instances): 10 of a warp's rows in
// registers (R at least that), and the soft barrier's ring of 32 steps' counters (a warp runs at
// most 31 partitions ahead: variants/colblock.cuh's kSlotsRing - 1).
constexpr int kRegisterRows = 10;
constexpr int kMaxLag = 31;
constexpr int kMaxPartShift = 24;

// The tensor-core sweep (`.mma`: variants/colblock.cuh's mma_gather, bfloat16 values only) holds
// a warp's rows in 3 row tiles of 8 in registers: R at most 24.
constexpr int kMmaMaxRowsPerWarp = 24;

// A sweep's knobs, as a colblock id names them (`r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma]`: the
// tuner's VariantParams) and as csrgat::colblock::Geometry holds them (the library).
struct Knobs {
  int rows_per_warp = 0;  // r
  int part_shift = 0;     // ps
  int lag = 0;            // lag
  int poll_pause_ns = 0;  // pp
  int l1_policy = 0;      // l1p
  bool float32_values = true;
  bool tensor_cores = false;  // mma
};
// Why the knobs are outside what the compiled kernels take ("" when they are not), each reason
// naming the knob both ways ("r (rows_per_warp) = 9: 10 (the kernel's register rows) to 31"):
// the one check behind VariantParams::invalid_reason and colblock::problem_unsupported.
std::string knobs_out_of_range(const Knobs& k);

// Why a graph of n nodes and e edges cannot be planned with R rows a warp and partitions of
// 2^part_shift sources ("" when it can).
std::string plan_unsupported(int64_t n, int64_t e, int rows_per_warp, int part_shift);

// The plan's input errors, worded alike by build_plan and build_plan_on_device
// (csrgat/colblock.h), each "colblock plan: ...": require_plannable throws plan_unsupported's
// reason; the others are thrown by their callers.
void require_plannable(int64_t n, int64_t e, int rows_per_warp, int part_shift);
std::invalid_argument decreasing_row_ptr(int64_t r);  // row_ptr[r + 1] < row_ptr[r]
std::invalid_argument source_out_of_range(int64_t k, int64_t c, int64_t n);  // col[k] = c

// For each group of R consecutive rows (a warp batch: rows [g R, min(n, g R + R))), the group's
// edges [row_ptr[g R], row_ptr[min(n, g R + R)]) ordered by source partition col >> part_shift,
// stably (within a partition, in edge order), and stored over the same positions: item k of the
// result describes the edge that the plan puts at position k. Throws std::invalid_argument when
// plan_unsupported says why, or naming the first edge whose source is out of range.
std::vector<PlanItem> build_plan(const std::vector<int64_t>& row_ptr,
                                 const std::vector<int64_t>& col, int64_t n, int rows_per_warp,
                                 int part_shift);

}  // namespace csrgat::colblock
