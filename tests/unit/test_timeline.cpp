// tuner timeline's host side: records named after the plan, the summary, the diagnostic build.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tuner/nvrtc_compiler.h"
#include "tuner/timeline.h"
#include "variants/plan.h"

using namespace csrgat;
using namespace csrgat::tuner;

namespace {

// Rows of degree 2, 0, 9, 3 (row 2 longer than a split of 4: three chunks of 4, 4, 1).
const std::vector<int64_t> kRowPtr{0, 2, 2, 11, 14};

TimelineRecord rec(uint64_t start, uint64_t end, unsigned sm, unsigned block = 0) {
  return TimelineRecord{start, end, sm, static_cast<unsigned>(end - start), block, {0, 0, 0}};
}

}  // namespace

TEST(Timeline, RecordsAreNamedAfterThePlanAndTheRowOrder) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split4.lpt.i32.f32");
  const TimelineLayout l = timeline_layout(p, kRowPtr, 1);
  ASSERT_EQ(l.chunks.size(), 3u);  // no .bm: no padding
  ASSERT_EQ(l.row_order.size(), 4u);
  std::vector<TimelineRecord> r;
  for (int i = 0; i < 8; ++i) r.push_back(rec(1000 + 10 * i, 1100 + 10 * i, i % 2));
  const auto tasks = name_timeline(r, l);  // 3 chunks + 4 rows; the grid's 8th group dropped
  ASSERT_EQ(tasks.size(), 7u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(tasks[i].chunk);
    EXPECT_EQ(tasks[i].row, 2);
    EXPECT_EQ(tasks[i].kind, "chunk");
  }
  EXPECT_EQ(tasks[0].edges + tasks[1].edges + tasks[2].edges, 9);
  // Row tasks follow the order: degree buckets longest first, then the empty and split rows.
  std::vector<int64_t> rows;
  for (size_t i = 3; i < tasks.size(); ++i) rows.push_back(tasks[i].row);
  EXPECT_EQ(rows, (std::vector<int64_t>{0, 3, 1, 2}));
  EXPECT_EQ(tasks[3].kind, "row 1-4");
  EXPECT_EQ(tasks[5].kind, "row 0");
  EXPECT_EQ(tasks[6].kind, "row done as chunks");
  EXPECT_DOUBLE_EQ(tasks[0].start_us, 0.0);
  EXPECT_DOUBLE_EQ(tasks[6].end_us, 0.16);
}

TEST(Timeline, BlockMergePlansKeepTheirPaddingEntries) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split4.pf.bm.i32.f32");
  const TimelineLayout l = timeline_layout(p, kRowPtr, 1);
  ASSERT_EQ(l.chunks.size(), 4u);  // three chunks and a pad that ends the block
  std::vector<TimelineRecord> r;
  for (int i = 0; i < 8; ++i) r.push_back(rec(50, 60 + i, 0));
  const auto tasks = name_timeline(r, l);
  ASSERT_EQ(tasks.size(), 8u);
  EXPECT_EQ(tasks[3].kind, "pad");
  EXPECT_EQ(tasks[3].row, -1);
}

TEST(Timeline, AMissingRecordIsAnErrorNamingTheTask) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32");
  const TimelineLayout l = timeline_layout(p, kRowPtr, 1);
  std::vector<TimelineRecord> r(4, rec(10, 20, 0));
  r[2] = TimelineRecord{};
  try {
    name_timeline(r, l);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("task 2"), std::string::npos) << e.what();
  }
  r.pop_back();
  EXPECT_THROW(name_timeline(r, l), std::invalid_argument);  // fewer records than tasks
}

TEST(Timeline, SummaryCountsLaterWavesAndListsTheLastTasks) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32");
  const TimelineLayout l = timeline_layout(p, kRowPtr, 1);
  // Tasks 0-2 start at once; task 3 starts after task 1 ended (a second wave) and ends last.
  const std::vector<TimelineRecord> r{rec(1000, 3000, 0), rec(1000, 1500, 1), rec(1032, 2000, 2),
                                      rec(1600, 4000, 1)};
  const auto s = summarize_timeline(name_timeline(r, l), 2);
  EXPECT_EQ(s["tasks"], 4);
  EXPECT_DOUBLE_EQ(s["span_us"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(s["first_end_us"].get<double>(), 0.5);
  EXPECT_EQ(s["started_after_first_end"], 1);
  EXPECT_EQ(s["sms"]["used"], 3);
  ASSERT_EQ(s["last"].size(), 2u);
  EXPECT_EQ(s["last"][0]["task"], 3);
  EXPECT_EQ(s["last"][1]["task"], 0);
  EXPECT_EQ(s["kinds"]["row 1-4"]["n"], 2);
  EXPECT_EQ(s["kinds"]["row 0"]["n"], 1);
  EXPECT_EQ(timer_step_ns(r), 32u);
  const std::string text = format_timeline(s);
  EXPECT_NE(text.find("span 3.00 us"), std::string::npos) << text;
  EXPECT_NE(text.find("1 tasks started after it"), std::string::npos) << text;
}

// Marks carry the timer's low 32 bits: placed after the task's start, across a wrap of them too.
TEST(Timeline, MarksAreTimesAfterTheTaskStart) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32");
  const TimelineLayout l = timeline_layout(p, kRowPtr, 1);
  const uint64_t s0 = 0x1FFFFFF00ull;  // 256 ns before the low 32 bits wrap
  std::vector<TimelineRecord> r(4, rec(s0, s0 + 1000, 0));
  r[1].mark[0] = static_cast<unsigned>(s0 + 0x200);  // wrapped: 0x100
  r[2].mark[0] = static_cast<unsigned>(s0 + 0x80);
  r[2].mark[2] = static_cast<unsigned>(s0 + 0x300);
  r[2].mark[kTimelineMarks - 1] = static_cast<unsigned>(s0 + 0x340);
  const auto tasks = name_timeline(r, l);
  EXPECT_LT(tasks[0].mark_us[0], 0);
  EXPECT_DOUBLE_EQ(tasks[1].mark_us[0], 0.512);
  EXPECT_DOUBLE_EQ(tasks[2].mark_us[0], 0.128);
  EXPECT_LT(tasks[2].mark_us[1], 0);
  EXPECT_DOUBLE_EQ(tasks[2].mark_us[2], 0.768);
  EXPECT_DOUBLE_EQ(tasks[2].mark_us[kTimelineMarks - 1], 0.832);
  EXPECT_LT(tasks[2].mark_us[3], 0);
  const auto s = summarize_timeline(tasks, 4);
  EXPECT_DOUBLE_EQ(s["kinds"]["row 5-16"]["mark_median_us"][2].get<double>(), 0.768);  // row 2: 9 edges
  EXPECT_TRUE(s["kinds"]["row 5-16"]["mark_median_us"][1].is_null());
  EXPECT_NE(format_timeline(s).find("mark 2 at +0.77"), std::string::npos) << format_timeline(s);
  EXPECT_NE(format_timeline(s).find("mark 4 at +0.83"), std::string::npos) << format_timeline(s);
}

// The diagnostic build is its own kernel (its own cache key) with the records' pointer in its
// module; the tuned build has neither the symbol nor different code for it.
TEST(Timeline, DiagnosticBuildCompilesWithItsRecordPointer) {
  const auto p = VariantParams::parse("csrgat.tpr32.fl8.rpb4.vec4.t2.g4.mb6.smem0.online.split32.pf.bm.i32.f32");
  const auto plain = NvrtcCompiler("sm_90", "").compile(p);
  const auto traced = NvrtcCompiler("sm_90", "", {"CSRGAT_TIMELINE"}).compile(p);
  EXPECT_NE(plain.cache_key, traced.cache_key);
  auto has = [](const std::vector<char>& bin, const std::string& s) {
    return std::search(bin.begin(), bin.end(), s.begin(), s.end()) != bin.end();
  };
  EXPECT_TRUE(has(traced.cubin, "csrgat_timeline"));
  EXPECT_FALSE(has(plain.cubin, "csrgat_timeline"));
  EXPECT_GT(traced.registers, 0);
}
