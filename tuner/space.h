// The search space of a run: the problems (graph x feat x heads), the candidate variants of
// each (Cartesian product of the space lists, pruned by the constraints and by
// VariantParams::invalid_reason), pruning by device resources once compile results are known,
// and the search strategies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tuner/config.h"
#include "variants/params.h"

namespace csrgat::tuner {

struct Problem {
  std::string graph_name;
  std::string spec;  // resolved graph spec (GraphEntry::spec)
  int feat = 0;
  int heads = 1;
  std::vector<ValueType> value;  // value types explored here (the graph's override or space.value)
  int graph_index = 0;           // into Config::graphs
  // "cora.f64.h1": names the problem in stores and reports (problem_key).
  std::string key() const;
};

// The key of (graph, F, H), as Problem::key() writes it; for records that carry the three.
std::string problem_key(const std::string& graph, int feat, int heads);

// One per graph x feat x heads, in config order (graphs, then feat, then heads).
std::vector<Problem> problems(const Config& c);

struct Candidate {
  VariantParams params;
  std::string pruned;  // empty if it survives; else the reason
};

// Every combination of the space for this problem, in a fixed order (tpr outermost, then fl,
// rpb, vec, tiles, smem, softmax, split, index, value innermost), then the test_only variants.
// The reason of a dropped one is the first of: "constraint 'fl <= tpr' false" (constraints in
// config order, evaluated with the problem's feat and heads), the invalid_reason() text, or
// "duplicate of <id>". test_only variants skip the constraints (tests place them on purpose).
std::vector<Candidate> enumerate(const Config& c, const Problem& p);
// The params of the survivors, in enumeration order.
std::vector<VariantParams> survivors(const std::vector<Candidate>& candidates);
// How many candidates each reason dropped.
std::map<std::string, int> prune_summary(const std::vector<Candidate>& candidates);

// Throws ConfigError at the constraints key (the space key without constraints) when some
// problem keeps no variant ("impossible constraints"): "no variant satisfies the constraints
// for graph 'cora' (graphs[0], line 12) with feat=3, heads=1: all 480 combinations are dropped
// (400 by constraint '...' false; ...)", the three commonest reasons. test_only variants do
// not count. tuner list, compile, run and check call it right after load_config.
void check_space(const Config& c);
// The same for one problem whose candidates (enumerate(c, p)) the caller already has.
void check_problem_space(const Config& c, const Problem& p, const std::vector<Candidate>& cands);

// The baselines of a problem: each configured baseline for every index type of the space and
// value type of the problem, minus the combinations the baseline cannot run (cusparse: f32 only).
std::vector<VariantParams> baseline_variants(const Config& c, const Problem& p);

// What `tuner compile` compiles: the union over all problems of the surviving fused variants,
// then the baselines, then the test_only variants; each once, in first-seen order.
std::vector<VariantParams> unique_variants(const Config& c);

struct DeviceLimits {
  int max_threads_per_block = 1024;
  int regs_per_sm = 65536;
  int max_regs_per_thread = 255;
  size_t smem_per_block = 49152;  // static shared memory limit
  size_t smem_optin = 232448;     // static + dynamic with the opt-in attribute
};

// Why a compiled variant cannot launch on the device ("" when it can). registers < 0 means
// unknown and skips the register checks. Baselines always pass (their launch code sizes them).
std::string prune_by_resources(const VariantParams& p, int registers, int static_smem,
                               const DeviceLimits& limits);

// Handing problems to GPUs (`tuner run`): a problem runs wholly on one GPU, so the longest go
// first and the short ones fill in behind them. The estimate is per trial, in seconds, from the
// edges the spec states (graphs::estimate_edges; 0 when a file does not say) times F times H:
// 0.014 + 0.03 sqrt(edges x F x H / 1e9), fitted to the fifteenth session's full run of
// h200.yaml on one H200 (run 7 of tests/data/recorded/h200, 181.7 s; perf-notes):
// 0.014 s a trial on the small graphs, 0.03-0.11 s for 16M edges x F=64 (power-law the
// slowest: its timings run to max_seconds), 0.083 s for 64M edges x F=128. (Until the
// fifteenth session the check against the reference ran on the host and a trial cost up to
// 10x more: 0.025 + 0.26 sqrt(...), fitted to the v7-v8 runs.) Compiling: 1.9 s per kernel
// per thread (run 8: 504 variants, each then compiled on its own, 16 threads, 66 s;
// compile_all now compiles twins that differ only in split or prefetch once; since the
// fifteenth session each module also holds its scalar twin, and the figure was not refitted).
// Only the order and the printed estimate use them.
double estimated_trial_seconds(const Problem& p);
double estimated_compile_seconds(size_t kernels, int threads);
// Problem indices by estimated time (trials[i] x seconds_per_trial[i], the latter from
// estimated_trial_seconds, which reads a file graph's header), longest first; equal estimates
// keep config order.
std::vector<size_t> longest_first(const std::vector<double>& seconds_per_trial,
                                  const std::vector<size_t>& trials);

// exhaustive and halving: all survivors; random: a sample of strategy.budget of them (all when
// fewer), the same for the same seed and problem on every machine, kept in survivor order.
std::vector<VariantParams> apply_strategy(const Config& c, std::vector<VariantParams> survivors,
                                          const Problem& p);

// Successive halving over n variants. Round r measures keep_counts[r] variants, each with
// time_budget_scale[r] of the full timing budget (the runner scales timing.max_seconds and
// max_samples by it, never below min_samples), and passes the ceil(keep/eta) fastest on; the
// last round measures one variant. n = 0 gives no rounds. The last round always gets the full
// budget (1.0). Earlier rounds: the geometric default eta^-(rounds left) when budget is 0;
// when budget > 0 (in units of one full timing per problem) the same shape scaled by one
// factor so that the plan's cost comes to about budget, each scale kept in [1/1000, 1].
struct HalvingPlan {
  std::vector<int> keep_counts;
  std::vector<double> time_budget_scale;
  // sum of keep_counts[r] * time_budget_scale[r]: the full-timing units the plan spends.
  double cost() const;
};
HalvingPlan halving_plan(int n, int budget, int eta);

// The order a screening with a cutoff (strategy.cutoff) measures n candidates in: first
// k = min(probes, n) of them spread evenly over the config's order (indices j n / k for
// j = 0 .. k-1), then the rest in order. The cutoff is a multiple of the best time
// seen so far, so it should meet a fast candidate early: in config order a graph with a hub
// row met 100-odd variants that do not split rows (170-190 ms a launch on an H100's power-law
// graph, against 1.55 ms for the best) before its first one that does. Every index once.
std::vector<size_t> screening_order(size_t n, size_t probes);

// A candidate's value and index type as codes: selection makes each type of a (graph, F, H) a
// problem of its own, so screening, counters and finalists keep their places per type.
std::pair<int, int> type_of(const VariantParams& p);

// The screening's cutoff (strategy.cutoff) per value and index type, the types selection
// tunes apart: factor times the fastest screening time of the candidate's type so far, or 0
// (no cut) while the type has none or the factor is 0. Fault and delay variants (test knobs)
// never set the pace.
class ScreeningCutoff {
 public:
  explicit ScreeningCutoff(double factor) : factor_(factor) {}
  double cutoff_us(const VariantParams& p) const;
  void record(const VariantParams& p, double median_us);  // a correct trial's screening time

 private:
  double factor_;
  std::map<std::pair<int, int>, double> best_;  // (value, index): fastest so far
};

// splitmix64: a portable, seedable generator (std:: distributions differ between libraries).
uint64_t splitmix64(uint64_t& state);

}  // namespace csrgat::tuner
