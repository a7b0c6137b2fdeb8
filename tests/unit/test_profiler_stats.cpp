// profiler/ without a GPU: summary statistics, the noise estimate, the stopping rule, NVTX range
// names and the NVML-absent path.
#include "profiler/ceilings.h"
#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/cupti_support.h"
#include "profiler/nvml.h"
#include "profiler/nvtx.h"
#include "profiler/stats.h"
#include "profiler/timer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace csrgat::profiler {
namespace {

// Reproducible samples around `center` with relative spread `rel` (uniform +-rel).
std::vector<double> jittered(size_t n, double center, double rel, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-rel, rel);
  std::vector<double> v(n);
  for (double& x : v) x = center * (1.0 + u(rng));
  return v;
}

TEST(ProfilerStats, SummaryOfOddCountMatchesHandValues) {
  const Summary s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.n, 5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stddev, std::sqrt(2.5), 1e-12);  // sample stddev, n - 1
  // MAD = 1, sigma = 1.4826, se = 1.2533 * 1.4826 / sqrt(5), relative to the median 3.
  EXPECT_NEAR(s.rel_noise, 1.2533 * 1.4826 / std::sqrt(5.0) / 3.0, 1e-12);
}

TEST(ProfilerStats, QuartilesInterpolateLikeNumpy) {
  // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) == [1.75, 2.5, 3.25]
  const Summary s = summarize({4, 3, 2, 1});
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  // numpy.percentile([10, 20, 40, 80, 160, 320], [25, 50, 75]) == [25, 60, 140]
  const Summary t = summarize({10, 20, 40, 80, 160, 320});
  EXPECT_DOUBLE_EQ(t.q1, 25);
  EXPECT_DOUBLE_EQ(t.median, 60);
  EXPECT_DOUBLE_EQ(t.q3, 140);
  EXPECT_NEAR(t.stddev, 118.61703081766969, 1e-9);
}

TEST(ProfilerStats, EmptyAndSingleSample) {
  const Summary e = summarize({});
  EXPECT_EQ(e.n, 0);
  EXPECT_TRUE(std::isnan(e.median));
  EXPECT_TRUE(std::isinf(e.rel_noise));
  const Summary one = summarize({7.5});
  EXPECT_EQ(one.n, 1);
  EXPECT_DOUBLE_EQ(one.median, 7.5);
  EXPECT_DOUBLE_EQ(one.stddev, 0.0);
  EXPECT_TRUE(std::isinf(one.rel_noise));  // one sample says nothing about noise
}

TEST(ProfilerStats, RelNoiseShrinksWithSamplesAndIgnoresOutliers) {
  const double small_n = summarize(jittered(20, 100.0, 0.02, 1)).rel_noise;
  const double large_n = summarize(jittered(2000, 100.0, 0.02, 1)).rel_noise;
  EXPECT_GT(small_n, 0.0);
  EXPECT_LT(large_n, small_n / 5);  // ~ 1 / sqrt(n): sqrt(100) = 10 in theory

  std::vector<double> clean = jittered(100, 100.0, 0.01, 2);
  std::vector<double> dirty = clean;
  dirty[3] = 10000.0;  // a preempted launch
  dirty[50] = 5000.0;
  const Summary c = summarize(clean), d = summarize(dirty);
  EXPECT_LT(d.rel_noise, 1.2 * c.rel_noise);  // the median's noise barely moves ...
  EXPECT_GT(d.stddev, 50 * c.stddev);         // ... while the stddev explodes
}

TEST(ProfilerStats, RelNoiseIsZeroWhenMostSamplesAreEqual) {
  // Timer-resolution plateaus: more than half equal, the median is exact.
  EXPECT_DOUBLE_EQ(summarize({3.328, 3.328, 3.328, 3.360, 3.296, 3.328}).rel_noise, 0.0);
}

TEST(ProfilerStopRule, NeverBeforeMinSamples) {
  const StopRule rule{0.005, 10, 2000, 1.0};
  const std::vector<double> tight(9, 5.0);
  EXPECT_EQ(should_stop(tight, rule, 100.0), StopReason::none);  // even long past max_seconds
  EXPECT_EQ(should_stop({}, rule, 100.0), StopReason::none);
}

TEST(ProfilerStopRule, StopsOnNoiseForTightSamples) {
  const StopRule rule{0.005, 10, 2000, 1.0};
  const std::vector<double> tight = jittered(10, 100.0, 0.001, 3);
  EXPECT_LE(summarize(tight).rel_noise, 0.005);
  EXPECT_EQ(should_stop(tight, rule, 0.01), StopReason::noise);
}

TEST(ProfilerStopRule, NoisySamplesRunToTheSampleOrTimeLimit) {
  const StopRule rule{0.005, 10, 200, 1.0};
  // +-50% spread: rel_noise ~ 0.4 / sqrt(n), above 0.5% until n ~ 6000.
  const std::vector<double> noisy = jittered(200, 100.0, 0.5, 4);
  const std::vector<double> prefix(noisy.begin(), noisy.begin() + 50);
  EXPECT_EQ(should_stop(prefix, rule, 0.2), StopReason::none);
  EXPECT_EQ(should_stop(prefix, rule, 1.5), StopReason::time);
  EXPECT_EQ(should_stop(noisy, rule, 0.2), StopReason::samples);
}

// A screening's cutoff: two samples over it end the measurement, before min_samples; one is
// not enough (a clock dip), nor two whose faster is under it; off at 0.
TEST(ProfilerStopRule, CutoffStopsAtTheSecondSampleOverIt) {
  StopRule rule{0.005, 10, 2000, 1.0};
  rule.cutoff = 300.0;
  EXPECT_EQ(should_stop({301.0}, rule, 0.0), StopReason::none);
  EXPECT_EQ(should_stop({301.0, 900.0}, rule, 0.0), StopReason::cutoff);
  EXPECT_EQ(should_stop({300.0, 900.0}, rule, 0.0), StopReason::none);  // at it: measured on
  EXPECT_EQ(should_stop({900.0, 250.0}, rule, 0.0), StopReason::none);
  EXPECT_EQ(should_stop({900.0, 250.0, 900.0}, rule, 0.0), StopReason::none);
  EXPECT_EQ(should_stop({}, rule, 100.0), StopReason::none);
  rule.cutoff = 0.0;
  EXPECT_EQ(should_stop({1e9, 1e9}, rule, 0.0), StopReason::none);
  EXPECT_EQ(to_string(StopReason::cutoff), "cutoff");
  // In the stored rule only when on, so measurements without it read as before.
  EXPECT_FALSE(to_json(rule).contains("cutoff"));
  rule.cutoff = 12.5;
  EXPECT_DOUBLE_EQ(to_json(rule)["cutoff"].get<double>(), 12.5);
}

TEST(ProfilerStopRule, ReplayOfARecordedRunStopsWhereExpected) {
  // Replays a recording sample by sample, as Timer::measure does: a noisy warm start, then tight.
  std::vector<double> recorded = {180, 150, 130, 120};
  for (double x : jittered(300, 100.0, 0.004, 5)) recorded.push_back(x);
  const StopRule rule{0.005, 10, 2000, 1.0};
  std::vector<double> seen;
  StopReason reason = StopReason::none;
  for (double x : recorded) {
    seen.push_back(x);
    reason = should_stop(seen, rule, 0.001 * seen.size());
    if (reason != StopReason::none) break;
  }
  EXPECT_EQ(reason, StopReason::noise);
  EXPECT_GE(seen.size(), 10u);
  EXPECT_LT(seen.size(), 40u);
}

TEST(ProfilerStopRule, MinSamplesWinsOverASmallerMaxSamples) {
  const StopRule rule{0.0, 20, 5, 1.0};
  const std::vector<double> noisy = jittered(20, 100.0, 0.5, 6);
  EXPECT_EQ(should_stop(std::vector<double>(noisy.begin(), noisy.begin() + 10), rule, 0.0),
            StopReason::none);
  EXPECT_EQ(should_stop(noisy, rule, 0.0), StopReason::samples);
}

TEST(ProfilerStats, JsonWritesNonFiniteAsNull) {
  const nlohmann::json j = to_json(summarize({2.0}));
  EXPECT_EQ(j.at("median").get<double>(), 2.0);
  EXPECT_TRUE(j.at("rel_noise").is_null());
  EXPECT_EQ(to_string(StopReason::noise), "noise");
}

TEST(ProfilerNvtx, RangeNames) {
  EXPECT_EQ(range_name("cora", "csrgat.tpr8.rpb4.vec4.smem0.online", Phase::profile),
            "csrgat/cora/csrgat.tpr8.rpb4.vec4.smem0.online/profile");
  EXPECT_EQ(range_name("cora", "v", "measure"), "csrgat/cora/v/measure");
  // Separators and ncu quantifiers inside a component would break the four-level structure.
  EXPECT_EQ(range_name("data/web@google[1]", "a*b+c,d\\e", Phase::verify),
            "csrgat/data_web_google_1_/a_b_c_d_e/verify");
  EXPECT_THROW(range_name("g", "v", "bogus"), std::invalid_argument);
  ScopedRange r(
      range_name("g", "v", Phase::warmup));  // no tool attached: a no-op that must not crash
}

TEST(ProfilerNvml, AbsentLibraryGivesAClearReason) {
  Nvml nvml("libnvidia-ml-does-not-exist.so.1");
  EXPECT_FALSE(nvml.available());
  EXPECT_NE(nvml.why_unavailable().find("nvml unavailable"), std::string::npos)
      << nvml.why_unavailable();
  EXPECT_FALSE(nvml.sm_clock_mhz(0).has_value());
  EXPECT_FALSE(nvml.throttle_reasons(0).has_value());
  EXPECT_FALSE(nvml.driver_version().has_value());
}

TEST(ProfilerNvml, SystemLibraryAbsentOnThisMachine) {
  Nvml nvml;
  if (nvml.available()) GTEST_SKIP() << "libnvidia-ml is present here (a GPU machine)";
  EXPECT_NE(nvml.why_unavailable().find("nvml unavailable"), std::string::npos)
      << nvml.why_unavailable();
}

TEST(ProfilerNvml, ThrottleReasonDecoding) {
  EXPECT_FALSE(is_throttled(0));
  EXPECT_FALSE(is_throttled(clock_event::gpu_idle | clock_event::applications_clocks |
                            clock_event::sync_boost));
  EXPECT_TRUE(is_throttled(clock_event::sw_power_cap));
  EXPECT_TRUE(is_throttled(clock_event::hw_slowdown));
  EXPECT_TRUE(is_throttled(clock_event::hw_thermal | clock_event::gpu_idle));
  EXPECT_TRUE(is_throttled(clock_event::sw_thermal));
  EXPECT_TRUE(is_throttled(clock_event::hw_power_brake));
  EXPECT_EQ(describe_clock_events(0), "none");
  EXPECT_EQ(describe_clock_events(clock_event::gpu_idle | clock_event::sw_power_cap),
            "gpu_idle|sw_power_cap");
  EXPECT_EQ(describe_clock_events(0x10000), "0x10000");
}

TEST(ProfilerNvml, UuidFormatMatchesNvml) {
  const char bytes[16] = {0x01, 0x23, 0x45, 0x67, char(0x89), char(0xab), char(0xcd), char(0xef),
                          0x00, 0x11, 0x22, 0x33, 0x44,       0x55,       0x66,       0x77};
  EXPECT_EQ(format_gpu_uuid(bytes), "GPU-01234567-89ab-cdef-0011-223344556677");
}

// Ceilings as a cache file holds them (this build's format).
Ceilings sample_ceilings() {
  Ceilings c;
  c.dram_copy_gbs = 3950.5;
  c.dram_read_gbs = 4210.0;
  c.l2_copy_gbs = 9800.0;
  c.l2_gather_gbs = 5100.0;
  c.fp32_gflops = 61000.0;
  c.launch_us_plain = 2.9;
  c.launch_us_graph = 0.8;
  c.device_uuid = "GPU-01234567-89ab-cdef-0011-223344556677";
  c.driver = "580.95.05 (CUDA 13.0)";
  c.method = {{"format", 3}, {"dram_copy", {{"grid", 2112}}}};
  return c;
}

TEST(ProfilerCeilings, JsonRoundTripAndCachePath) {
  const Ceilings c = sample_ceilings();
  const Ceilings back = ceilings_from_json(nlohmann::json::parse(to_json(c).dump()));
  EXPECT_DOUBLE_EQ(back.dram_copy_gbs, c.dram_copy_gbs);
  EXPECT_DOUBLE_EQ(back.launch_us_graph, c.launch_us_graph);
  EXPECT_DOUBLE_EQ(back.l2_gather_gbs, c.l2_gather_gbs);
  EXPECT_DOUBLE_EQ(back.dram_read_gbs, c.dram_read_gbs);
  EXPECT_EQ(back.driver, c.driver);
  // Ceilings recorded before the L2 gather or the DRAM read ceiling existed (a run's stored
  // ceilings) read them as not measured.
  nlohmann::json old = to_json(c);
  old.erase("l2_gather_gbs");
  old.erase("dram_read_gbs");
  EXPECT_DOUBLE_EQ(ceilings_from_json(old).l2_gather_gbs, 0.0);
  EXPECT_DOUBLE_EQ(ceilings_from_json(old).dram_read_gbs, 0.0);
  EXPECT_EQ(back.method, c.method);
  const nlohmann::json j = c;  // ADL hooks
  EXPECT_EQ(j.get<Ceilings>().device_uuid, c.device_uuid);
  EXPECT_THROW(ceilings_from_json(nlohmann::json::object()), nlohmann::json::exception);

  DeviceInfo info{};
  info.uuid = c.device_uuid;
  info.driver = c.driver;
  EXPECT_EQ(
      ceilings_cache_path("/tmp/cache", info),
      "/tmp/cache/ceilings-GPU-01234567-89ab-cdef-0011-223344556677-580.95.05__CUDA_13.0_.json");
}

// A cache file that parses is used only when every roof is a finite positive number of this
// build's format: a hand-edited DRAM ceiling in TB/s would otherwise set every floor of the run
// a thousand times too high, and a zero FP32 roof would leave its report without ceilings.
TEST(ProfilerCeilings, ACacheIsUsedOnlyWithPlausibleRoofs) {
  const nlohmann::json good = to_json(sample_ceilings());
  EXPECT_EQ(ceilings_cache_problem(good), "");
  auto with = [&](const char* key, const nlohmann::json& v) {
    nlohmann::json j = good;
    j[key] = v;
    return ceilings_cache_problem(j);
  };
  EXPECT_NE(with("dram_copy_gbs", -4043.7).find("dram_copy_gbs"), std::string::npos);
  EXPECT_NE(with("dram_read_gbs", 0.0).find("dram_read_gbs"), std::string::npos);
  EXPECT_NE(with("fp32_gflops", 0.0).find("fp32_gflops"), std::string::npos);
  EXPECT_NE(with("launch_us_graph", nullptr), "");  // null: not a number
  EXPECT_NE(with("method", {{"format", 2.7}}).find("format 2.7"), std::string::npos);
  EXPECT_NE(with("method", {{"format", 2}}).find("not 3"), std::string::npos);
  EXPECT_NE(with("method", "hand-edited"), "");
  nlohmann::json old = good;
  old.erase("l2_gather_gbs");
  EXPECT_EQ(ceilings_cache_problem(old), "no l2_gather_gbs");
  old = good;
  old.erase("dram_read_gbs");  // a format-3 file without it: measured again
  EXPECT_EQ(ceilings_cache_problem(old), "no dram_read_gbs");
  EXPECT_NE(ceilings_cache_problem(nlohmann::json::array()), "");
}

bool has_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

TEST(ProfilerNoGpu, TimerThrowsADescriptiveApiError) {
  if (has_gpu()) GTEST_SKIP() << "a GPU is present";
  try {
    Timer timer(0);
    FAIL() << "Timer(0) constructed without a GPU";
  } catch (const ApiError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaSetDevice(device) failed: cuda"), std::string::npos) << what;
    EXPECT_NE(what.find("timer.cpp:"), std::string::npos) << what;
  }
}

TEST(ProfilerNoGpu, CounterSessionIsUnavailableAndCollectDoesNotThrow) {
  if (has_gpu()) GTEST_SKIP() << "a GPU is present";
  CounterSession counters(0);
  EXPECT_FALSE(counters.available());
  EXPECT_FALSE(counters.why_unavailable().empty());
  bool launched = false;
  const CounterResult r = counters.collect([&](cudaStream_t) { launched = true; });
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason, counters.why_unavailable());
  EXPECT_FALSE(launched);
  EXPECT_TRUE(std::isnan(dram_bytes(r)));
}

TEST(ProfilerCupti, PerfWorksLibrariesLoadBesideCupti) {
  // CUPTI dlopen()s these by bare name; the preload makes that independent of LD_LIBRARY_PATH.
  EXPECT_EQ(detail::preload_nvperf(), "");
}

TEST(ProfilerCupti, CheckMacroNamesCallFileAndLine) {
  try {
    CSRGAT_CUPTI_CHECK(CUPTI_ERROR_INVALID_PARAMETER);
    FAIL();
  } catch (const ApiError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("CUPTI_ERROR_INVALID_PARAMETER failed: CUPTI_ERROR_INVALID_PARAMETER"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("test_profiler_stats.cpp:"), std::string::npos) << what;
  }
  try {
    CSRGAT_CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("failed: cudaErrorMemoryAllocation (out of memory) at "),
              std::string::npos)
        << e.what();
  }
}

// A sample's CUPTI span: every record of the launch counts (kernels, copies, memsets), a launch
// whose kernel records did not all arrive gives no span (a span over part of a multi-kernel
// launch would read as a fast sample), and the launch's kernel count is the most any sample showed.
TEST(ProfilerCupti, SpanOfRecordsCoversTheWholeLaunchOrNothing) {
  using detail::ActivityRecord;
  using detail::span_of_records;
  auto rec = [](uint64_t start, uint64_t end, bool kernel) {
    ActivityRecord r;
    r.start = start;
    r.end = end;
    r.kernel = kernel;
    return r;
  };
  const std::vector<ActivityRecord> launch = {rec(1000, 1500, false), rec(2000, 5000, true),
                                              rec(5200, 9000, true)};
  std::string why;
  int expected = -1;
  auto span = span_of_records(launch, expected, why);
  ASSERT_TRUE(span.has_value()) << why;
  EXPECT_DOUBLE_EQ(*span, 8.0);  // the memset's start to the last kernel's end, in us
  EXPECT_EQ(expected, 2);

  // The second kernel's record missing: no span, and a reason naming both counts.
  span = span_of_records({launch[0], launch[1]}, expected, why);
  EXPECT_FALSE(span.has_value());
  EXPECT_NE(why.find("1 of the launch's 2 kernel records"), std::string::npos) << why;
  EXPECT_EQ(expected, 2);

  // More kernels than the warmup saw still span all of them, and raise the launch's count.
  span = span_of_records({launch[1], launch[2], rec(9100, 9400, true)}, expected, why);
  ASSERT_TRUE(span.has_value()) << why;
  EXPECT_DOUBLE_EQ(*span, 7.4);
  EXPECT_EQ(expected, 3);
  expected = 2;

  // A kernel record without timestamps, or no kernel record at all: no span.
  span = span_of_records({launch[1], launch[2], rec(0, 0, true)}, expected, why);
  EXPECT_FALSE(span.has_value());
  EXPECT_NE(why.find("without timestamps"), std::string::npos) << why;
  int unknown = -1;
  span = span_of_records({launch[0]}, unknown, why);
  EXPECT_FALSE(span.has_value());
  EXPECT_NE(why.find("no kernel record"), std::string::npos) << why;

  // A copy without timestamps is left out of the span, not a reason to drop it.
  span = span_of_records({rec(0, 0, false), launch[1], launch[2]}, expected, why);
  ASSERT_TRUE(span.has_value()) << why;
  EXPECT_DOUBLE_EQ(*span, 7.0);
}

// A round of `timer` whose samples' gpu times are `gpu` and event times gpu + 2 us.
TimingResult round_of(const std::string& timer, std::vector<double> gpu, std::string note = "") {
  TimingResult r;
  r.timer = timer;
  r.note = std::move(note);
  for (double g : gpu) r.samples.push_back({g, g + 2.0, false, 0});
  r.kernels_per_sample = timer == "events" ? 0 : 1;
  return r;
}

TEST(ProfilerPoolRounds, RoundsOfOneTimerPoolTheirOwnSamples) {
  std::vector<TimingResult> rounds{round_of("cupti", {1, 2, 3}, "a; b"),
                                   round_of("cupti", {4, 5}, "b; c")};
  rounds[1].throttled_any = true;
  rounds[1].clock_events_seen = 4;
  const TimingResult all = pool_rounds(std::move(rounds));
  EXPECT_EQ(all.timer, "cupti");
  ASSERT_EQ(all.samples.size(), 5u);
  EXPECT_EQ(all.gpu.n, 5);
  EXPECT_DOUBLE_EQ(all.gpu.median, 3.0);
  EXPECT_DOUBLE_EQ(all.event.median, 5.0);
  EXPECT_EQ(all.note, "a; b; c");  // each note once
  EXPECT_TRUE(all.throttled_any);
  EXPECT_EQ(all.clock_events_seen, 4u);
  EXPECT_EQ(all.kernels_per_sample, 1);
}

// A round that fell back to events: the pool is of event times only, every round's, and says so
// (before, its samples were pooled with the others' CUPTI spans: two timers in one median).
TEST(ProfilerPoolRounds, RoundsOfTwoTimersPoolEventTimes) {
  const TimingResult all = pool_rounds(
      {round_of("cupti", {1, 1, 1}), round_of("events", {10, 10}), round_of("cupti", {1})});
  EXPECT_EQ(all.timer, "events");
  ASSERT_EQ(all.samples.size(), 6u);
  for (const Sample& s : all.samples) EXPECT_DOUBLE_EQ(s.gpu_us, s.event_us);
  EXPECT_DOUBLE_EQ(all.gpu.median, 3.0);  // {3,3,3,12,12,3}
  EXPECT_EQ(all.kernels_per_sample, 0);
  EXPECT_NE(all.note.find("rounds timed by cupti+events: every sample is its event time"),
            std::string::npos)
      << all.note;

  // Asked for (another variant's rounds were of another timer): event times though its own
  // rounds agree.
  const TimingResult forced = pool_rounds({round_of("cupti", {1, 2})}, true);
  EXPECT_EQ(forced.timer, "events");
  EXPECT_DOUBLE_EQ(forced.gpu.median, 3.5);
  EXPECT_NE(forced.note.find("other variants' rounds by another timer"), std::string::npos)
      << forced.note;

  // A graph replay's per-launch time is not a single launch's event time: named as a mix.
  EXPECT_EQ(pool_rounds({round_of("graph", {1}), round_of("cupti", {1})}).timer, "cupti+graph");
  const TimingResult none = pool_rounds({});
  EXPECT_TRUE(none.samples.empty());
  EXPECT_EQ(none.gpu.n, 0);
}

}  // namespace
}  // namespace csrgat::profiler
