// Summary statistics and the adaptive stopping rule of the timers (after nvbench). Pure C++.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace csrgat::profiler {

// Quartiles interpolate linearly between order statistics (numpy's default, "linear");
// stddev is the sample standard deviation (n - 1). With no samples every field is NaN, n = 0.
//
// rel_noise is the relative standard error of the median, estimated robustly:
//   sigma     = 1.4826 * MAD                (MAD: median absolute deviation from the median;
//                                             1.4826 makes it the stddev for normal data)
//   se_median = 1.2533 * sigma / sqrt(n)    (asymptotic standard error of a sample median,
//                                             sqrt(pi/2) times that of a mean)
//   rel_noise = se_median / median
// Outliers (a preempted launch, a clock dip) barely move it, unlike stddev/mean. It is 0 when
// more than half of the samples are equal (the median is then exact at the timer's
// resolution), +inf with fewer than 2 samples or a non-positive median with spread.
struct Summary {
  double min, q1, median, q3, max, mean, stddev;
  int64_t n;
  double rel_noise;
};

Summary summarize(std::vector<double> samples);

// Quantile q in [0, 1] of sorted data, linear interpolation. NaN when empty.
double quantile_sorted(const std::vector<double>& sorted, double q);

struct StopRule {
  double max_rel_noise = 0.005;  // stop once rel_noise of the median is at most this
  int min_samples = 10;          // never stop before this many samples, whatever the clock says
  int max_samples = 2000;        // stop at this many samples (at least min_samples)
  double max_seconds = 1.0;      // stop once measuring took this long (after min_samples)
  // A screening's early exit (0: off): stop, whatever min_samples says, once two samples are in
  // and even the faster is over this many units (the samples' own, microseconds in the
  // timers). The tuner sets it to a multiple of the best time its screening has seen, so a
  // variant that cannot rank near the front is not measured to a precision nobody reads. Two,
  // not one: a single launch slowed by a passing clock dip must not decide.
  double cutoff = 0.0;
};

enum class StopReason { noise, samples, time, cutoff, none };

std::string_view to_string(StopReason reason);

// cutoff first (from the second sample on), then, once min_samples is reached: noise, samples,
// time.
StopReason should_stop(const std::vector<double>& samples, const StopRule& rule,
                       double elapsed_seconds);

// Non-finite values (NaN, inf) become null.
nlohmann::json to_json(const Summary& summary);
nlohmann::json to_json(const StopRule& rule);

}  // namespace csrgat::profiler
