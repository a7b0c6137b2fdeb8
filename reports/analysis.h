// What the reports read from one run: per problem (graph, F, H, value type, index type) each
// variant's best evidence, its counters, the byte/FLOP model and what it achieved against the
// measured ceilings. Shared by the roofline report and the regression comparison.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/select.h"
#include "tuner/store.h"
#include "variants/params.h"

namespace csrgat::reports {

struct ProblemKey {
  std::string graph;
  int feat = 0, heads = 1;
  ValueType value = ValueType::f32;
  IndexType index = IndexType::i32;
  bool operator<(const ProblemKey& o) const;
  bool operator==(const ProblemKey& o) const;
  std::string label() const;  // "cora F=64 H=1 f32/i32"
};

// Family of a variant id by its prefix ("csrgat.", "seed.", "cusparse."), so that ids the
// current VariantParams::parse rejects (another tuner version) still sort into a family.
std::string family_of(const std::string& variant);

// The measured roofs of a run (RunInfo::ceilings) and the device's L2 size (RunInfo::device).
struct Roofs {
  double dram_gbs = 0, l2_gbs = 0, fp32_gflops = 0, launch_us_plain = 0, launch_us_graph = 0;
  double l2_gather_gbs = 0;  // 0 when the run's ceilings predate it
  double dram_read_gbs = 0;  // 0 when the run's ceilings predate it
  double l2_bytes = 0;
  bool known() const { return dram_gbs > 0 && fp32_gflops > 0; }
  // The DRAM roof of the floors and the roofline: the higher of the read and copy ceilings (this
  // operation's DRAM bytes are 90%+ reads, and its kernels pass the copy's roof, which writes as
  // much as it reads, by a few percent on their counters; a read measured below the copy, noise
  // or an odd device, must not raise every floor the report calls a lower bound); the copy's
  // alone where the run's ceilings predate the read.
  bool read_is_roof() const { return dram_read_gbs > dram_gbs; }
  double dram_roof_gbs() const { return read_is_roof() ? dram_read_gbs : dram_gbs; }
  const char* dram_roof_name() const { return read_is_roof() ? "DRAM read" : "DRAM copy"; }
};
Roofs roofs_of(const tuner::RunInfo& run);

// Byte and FLOP model of one problem (see model_text()). Zeroes when the graph's size is unknown.
struct Model {
  bool known = false;
  int64_t nodes = 0, edges = 0;
  double compulsory_bytes = 0;  // every array once
  double values_bytes = 0;      // N*H*F*value_bytes
  bool values_fit_l2 = true;
  double gather_bytes = 0;     // structure + scores + E*H*F*value_bytes + output
  double l2_hit = 1;           // expected share of gathers served by L2: min(1, L2 / values)
  double traffic_bytes = 0;    // the model's DRAM traffic (beyond L2: structure + output +
                               // max(values once, gathers that miss L2))
  double flops = 0;            // E*H*(2F + kSoftmaxFlops)
  double floor_us = 0;         // compulsory_bytes / the DRAM roof (Roofs::dram_roof_gbs)
  // traffic_bytes / the DRAM roof (values beyond L2 only): an estimate, not a bound. It
  // assumes uniformly random sources; a skewed graph's hot rows hit L2 more often and a
  // feature-sliced kernel shrinks the working set, so a kernel can beat it (R-MAT scale 20 at
  // 0.68x of it in run 23).
  double gather_estimate_us = 0;
  double l2_floor_us = 0;      // gather_bytes / L2 gather ceiling (values in L2, ceiling known)
};
inline constexpr int kSoftmaxFlops = 4;  // max, subtract+exp, sum, scale: per edge and head
Model byte_model(int64_t nodes, int64_t edges, int feat, int heads, int index_bytes,
                 int value_bytes, const Roofs& roofs);
// The model as prose for the report.
std::string model_text();

// Counters of a trial, read from profiler::to_json(CounterResult) ({"ok","reason","values":{..}})
// or a flat {metric: value} object; unavailable ones carry why.
struct Counters {
  bool available = false;
  std::string why;  // when !available
  double dram_bytes = 0, l2_bytes = 0, flops = 0;
  bool has_dram = false, has_l2 = false, has_flops = false;
};
Counters counters_of(const nlohmann::json& j);

// What one variant achieved on its problem: counters where available, else the model.
struct Achieved {
  double time_us = 0;
  double dram_bytes = 0, l2_bytes = 0, flops = 0;
  bool dram_model = true, l2_model = true, flops_model = true;
  // NaN where not known (no time, no bytes, no ceilings): the writers print "n/a", JSON null.
  double dram_gbs = NAN, l2_gbs = NAN, gflops = NAN, ai = NAN;
  double roof_gflops = NAN, pct_roof = NAN;  // min(DRAM roof at this AI, FP32 peak); percent
  bool known = false;                    // false when neither counters nor a model exist
};
Achieved achieved(double time_us, const Counters& c, const Model& m, const Roofs& r);

struct VariantResult {
  std::string variant, family;  // family: "csrgat", "seed", "cusparse", "colblock"
  std::optional<VariantParams> params;
  tuner::TrialRecord best;  // the ok trial of the highest stage
  Counters counters;        // from the highest ok stage that has them
  Achieved perf;
};

// What the library built with the run's generated header runs on one of its problems
// (tuner::rule_for over the run's select_rules, as the library's choose() matches): the rule's
// kernel, or the column-blocked sweep attached to the rule where the library runs it
// (tuner::sweep_runs), or its fallback kernel where the run has rules of the problem's type but
// none takes it; and that kernel's time on the problem in the run, from the rule's evidence.
// Untimed (NaN) where it was not measured there: a rule taken from its bucket's largest problem
// or a catch-all, a problem whose every fused trial failed, a kernel ruled out on it (wrong,
// crashed or hung there: tuner::rules_out), the fallback.
struct Dispatch {
  std::string kernel;  // a variant id; "" for the fallback or when the run has no rule of the type
  std::string bucket;  // the rule's bucket, described
  bool fallback = false;  // the run has rules of the type but none takes the problem
  bool sweep = false;     // kernel is the rule's column-blocked sweep
  std::string failed;     // the status that ruled kernel out on this problem in the run
                          // ("wrong", "crashed", "timeout", a sweep's "launch_failed"), or ""
  bool ruled_out() const { return !failed.empty(); }
  // The store kept no features of the graph (a store from before they were kept): the rule is
  // the type's catch-all (tuner::rule_for), a guess where the library would match the graph's
  // shape; compare holds no such dispatch to anything.
  bool shape_unknown = false;
  int stage = -1;         // the time's evidence stage (2 interleaved final, 1 full, 0 screening)
  double median_us = NAN, rel_noise = NAN;
  bool any() const { return fallback || !kernel.empty(); }
  bool timed() const { return !kernel.empty() && std::isfinite(median_us) && median_us > 0; }
  std::string name() const { return fallback ? "the library's fallback kernel" : kernel; }
};
// What a run's timing measured, from its config's timing ("L2 cold, single launches", "L2 warm,
// graph replays, overlapped"): the L2 state before a sample, single launches or graph replays,
// overlapped launches. The rest of it (noise, samples, seconds) decides how long a run measured,
// not what; a store from before a key was kept reads as its default.
std::string timing_kind(const nlohmann::json& config);
// Whether those times are a single cold launch's, which the DRAM floor (compulsory bytes at the
// DRAM roof) bounds: warm L2 and graph replays (launches inside a replay run warm) can be faster.
bool timed_cold_single(const nlohmann::json& config);

// How the reports say a status that rules a kernel out (tuner::rules_out): "wrong", "crashed",
// "hung (timeout)", "not launched (launch_failed)"; another status as it is.
std::string failure_words(const std::string& status);
// compare.json's and report.json's form: every field, null for a time not known.
nlohmann::json dispatch_json(const Dispatch& d);

struct ProblemResults {
  ProblemKey key;
  std::string spec;
  nlohmann::json features;
  Model model;
  std::vector<VariantResult> variants;  // ok, not disqualified, fastest first (fused and baselines)
  std::optional<tuner::Winner> winner;  // select_winners' choice
  Dispatch dispatch;                    // what the run's header runs here
  // Fused variants and sweeps ruled out here (tuner::rules_out), with the status of the first
  // trial that did it.
  std::map<std::string, std::string> disqualified;
  const VariantResult* find(const std::string& variant) const;
  const std::string* ruled_out(const std::string& variant) const;  // its status, or nullptr
  const VariantResult* baseline(const std::string& family) const;  // fastest of that family
};

// Where a problem's (graph, F, H) tuning time went: its trials' stored times (1 s resolution;
// from its first trial's end to its last's) and the worker's phase times of each trial
// (raw.phase_s: prepare, load, verify, measure, counters; stored since the fourteenth session).
struct ProblemTime {
  std::string problem;                      // "graph F=64 H=1"
  int trials = 0;                           // trials a worker ran (not pruned or compile-failed)
  double span_s = 0;                        // last stored time minus first (a problem finished by
                                            // --continue on another call spans the gap)
  int timed = 0;                            // trials that carry phase times
  std::map<std::string, double> phase_s;    // summed over those
  double build_s = -1;                      // the worker's build before the trials (the finish
                                            // mark's prepare_s; -1: not recorded)
  std::string first_created, last_created;  // ISO 8601 (sorts as time): the order measured
};

struct RunData {
  tuner::RunInfo run;
  Roofs roofs;
  std::vector<ProblemResults> problems;      // ordered by key
  std::vector<std::string> graphs;           // every graph with a trial, sorted
  std::map<std::string, int> status_counts;  // over all trials
  std::vector<tuner::TrialRecord> failures;  // non-ok, non-pruned, non-unsupported trials
  // GPU UUID -> the problems ("graph F=.. H=..") whose trials it measured (raw.gpu_uuid;
  // stores from before it was recorded have none): more than one for a run on several GPUs.
  std::map<std::string, std::set<std::string>> gpus;
  std::vector<ProblemTime> times;           // in the order the problems were measured
  std::vector<tuner::TrialRecord> slowest;  // up to 10 trials with phase times, longest first
  // The hardware-counter collections' steps (counters.wall_s: enable, configure, replay, decode,
  // disable), summed over the trials that carry them, and how many did.
  std::map<std::string, double> counter_steps_s;
  int counter_collections = 0;
};

// A trial's phase times (raw.phase_s) as (seconds, phase), longest first; empty when it has none.
std::vector<std::pair<double, std::string>> trial_phases(const tuner::TrialRecord& t);
// Their sum in seconds; 0 when it has none.
double phase_total_s(const tuner::TrialRecord& t);
// "graph F=64 H=1": a trial's problem as the report names it beside GPUs and times.
std::string problem_label(const std::string& graph, int feat, int heads);
std::string problem_label(const tuner::TrialRecord& t);

// Throws std::runtime_error when the run does not exist.
RunData load_run(const tuner::Store& store, int64_t run_id);

// Formatting shared by the writers and the tests: "n/a" for non-finite values.
std::string fmt(double v, int decimals);
std::string format_us(double us);          // "%.2f"
std::string format_pct(double fraction);   // 0.0123 -> "1.23%"
std::string format_speedup(double ratio);  // "2.41x"
std::string format_bytes(double bytes);    // "12.3 MB" (decimal units)

}  // namespace csrgat::reports
