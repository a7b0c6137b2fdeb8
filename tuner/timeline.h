// `tuner timeline`: where one launch of a fused variant spends its time, task by task. A
// diagnostic build of the variant (-DCSRGAT_TIMELINE, variants/kernel_args.h TimelineRecord)
// records when each group started and ended, on which SM; this file names each record after the
// host's plan (chunk of which row, or which row and its degree) and summarises a launch: its
// span, when tasks started (waves), how long each kind took, and which tasks ended last.
// Host code only (no GPU): the command (tuner/cli/timeline.cpp) launches and reads the records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "variants/kernel_args.h"
#include "variants/params.h"

namespace csrgat::tuner {

// One recorded task, named. Times are microseconds from the launch's first recorded start.
struct TimelineTask {
  int64_t task = 0;
  bool chunk = false;   // a piece of a split row (else a whole row)
  int64_t row = -1;     // the graph row (-1: a padding entry of the plan)
  int64_t edges = 0;    // edges this task aggregated (the chunk's, or the row's degree)
  int head = 0;
  std::string kind;     // "chunk", "pad", "row done as chunks" or "row 0" .. "row >64" (degree)
  unsigned sm = 0, block = 0, cycles = 0;
  double start_us = 0, end_us = 0;
  // TimelineRecord::mark, on the same clock as start_us; negative: not reached.
  double mark_us[kTimelineMarks] = {-1, -1, -1, -1, -1};
  double duration_us() const { return end_us - start_us; }
};

// What the host knows about the launch: the graph's row_ptr, the variant's split plan
// (build_split_plan with the launch's per_block) and `.lpt` row order (empty: index order).
struct TimelineLayout {
  const std::vector<int64_t>* row_ptr = nullptr;
  std::vector<ChunkDesc> chunks;
  std::vector<int64_t> row_order;
  int heads = 1;
  int64_t split = 0;
  int64_t num_rows = 0;
};

// The layout of variant p on a graph (the same plan and order the tuner launches with).
TimelineLayout timeline_layout(const VariantParams& p, const std::vector<int64_t>& row_ptr, int heads);

// Names the records of the launch's real tasks ((chunks + rows) * heads, in task order; the
// grid's spare groups past them are dropped), times relative to the earliest start. Throws
// std::invalid_argument when a record was never written (end before start, or zero) or fewer
// records than tasks were given.
std::vector<TimelineTask> name_timeline(const std::vector<TimelineRecord>& records,
                                        const TimelineLayout& layout);

// The smallest positive step between distinct recorded global-timer stamps (ns): what the
// timeline can resolve (the GPU's global timer does not tick every nanosecond). 0: too few stamps.
uint64_t timer_step_ns(const std::vector<TimelineRecord>& records);

// A launch's summary: span, start quantiles and how many tasks started only after another had
// ended (a later wave), durations per kind (chunks; rows by degree class: 0, 1-4, 5-16, 17-64,
// over 64) with the median time from a task's start to each mark it reached, per-SM finish
// spread, and the `last` tasks to end with their marks.
nlohmann::json summarize_timeline(const std::vector<TimelineTask>& tasks, int last = 10);

// The summary as text for the terminal.
std::string format_timeline(const nlohmann::json& summary);

}  // namespace csrgat::tuner
