#include "profiler/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace csrgat::profiler {

namespace {

constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_v = std::numeric_limits<double>::infinity();

nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return nan_v;
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

Summary summarize(std::vector<double> samples) {
  Summary s{nan_v, nan_v, nan_v, nan_v, nan_v, nan_v, nan_v, 0, inf_v};
  const size_t n = samples.size();
  s.n = static_cast<int64_t>(n);
  if (n == 0) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.q1 = quantile_sorted(samples, 0.25);
  s.median = quantile_sorted(samples, 0.5);
  s.q3 = quantile_sorted(samples, 0.75);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  double ss = 0.0;
  for (double x : samples) ss += (x - s.mean) * (x - s.mean);
  s.stddev = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0;
  if (n < 2) return s;  // rel_noise stays +inf: one sample says nothing about noise

  std::vector<double> dev(n);
  for (size_t i = 0; i < n; ++i) dev[i] = std::fabs(samples[i] - s.median);
  std::sort(dev.begin(), dev.end());
  const double mad = quantile_sorted(dev, 0.5);
  const double se_median = 1.2533 * (1.4826 * mad) / std::sqrt(static_cast<double>(n));
  if (se_median == 0.0)
    s.rel_noise = 0.0;
  else
    s.rel_noise = s.median > 0.0 ? se_median / s.median : inf_v;
  return s;
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::noise:
      return "noise";
    case StopReason::samples:
      return "samples";
    case StopReason::time:
      return "time";
    case StopReason::cutoff:
      return "cutoff";
    case StopReason::none:
      return "none";
  }
  return "none";
}

StopReason should_stop(const std::vector<double>& samples, const StopRule& rule,
                       double elapsed_seconds) {
  const auto n = static_cast<int64_t>(samples.size());
  if (rule.cutoff > 0.0 && n >= 2 &&
      *std::min_element(samples.begin(), samples.end()) > rule.cutoff)
    return StopReason::cutoff;
  if (n < std::max(rule.min_samples, 1)) return StopReason::none;
  if (summarize(samples).rel_noise <= rule.max_rel_noise) return StopReason::noise;
  if (n >= std::max(rule.max_samples, rule.min_samples)) return StopReason::samples;
  if (elapsed_seconds >= rule.max_seconds) return StopReason::time;
  return StopReason::none;
}

nlohmann::json to_json(const Summary& s) {
  return {{"min", finite_or_null(s.min)},
          {"q1", finite_or_null(s.q1)},
          {"median", finite_or_null(s.median)},
          {"q3", finite_or_null(s.q3)},
          {"max", finite_or_null(s.max)},
          {"mean", finite_or_null(s.mean)},
          {"stddev", finite_or_null(s.stddev)},
          {"n", s.n},
          {"rel_noise", finite_or_null(s.rel_noise)}};
}

nlohmann::json to_json(const StopRule& r) {
  nlohmann::json j{{"max_rel_noise", r.max_rel_noise},
                   {"min_samples", r.min_samples},
                   {"max_samples", r.max_samples},
                   {"max_seconds", r.max_seconds}};
  if (r.cutoff > 0.0)
    j["cutoff"] = r.cutoff;  // only when on: measurements without it read as before
  return j;
}

}  // namespace csrgat::profiler
