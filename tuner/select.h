// Selection: from the trials of one run, the best fused variant of every tuned problem, then
// dispatch rules per shape bucket that generalise to graphs that were never tuned.
//
// A problem is (graph, F, H, value type, index type); the types come from the variant id. Only
// trials with status "ok" of the fused family count, and never a variant with a test-only part
// (fault, delay). A variant that was ever "wrong", "crashed" or hung ("timeout") on a problem
// (a column-blocked sweep also where it could not be launched) is out for that problem
// (rules_out): one bad answer in any stage means a race, whatever its other stages said. Each
// variant's evidence is its highest stage (2 interleaved final > 1 full > 0 screening).
//
// Winner: the lowest median, except that medians within the combined noise of the fastest,
// |a - b| <= 2 * sqrt((a * noise_a)^2 + (b * noise_b)^2), tie; a tie goes to the higher stage,
// then the lower q3, then the lower median, then the id.
//
// Buckets (fixed edges, refined below):
//   F:           [1,16] [17,48] [49,96] [97,192] [193, 2^30]          (inclusive)
//   H:           [1,1] [2, 2^30]                                      (inclusive)
//   mean degree: [0,4) [4,12) [12,32) [32, inf)
//   max degree:  [0,1024) [1024,16384) [16384, INT64_MAX)
//   nodes:       [0,50000) [50000,500000) [500000, INT64_MAX)
// per value and index type. A bucket whose best common variant is more than kSplitTolerance
// (3%) slower than one of its problems' own winner is split, along mean degree or nodes (max
// degree last: a caller without a csrgat::Shape cannot match on it), at the geometric midpoint
// between two of its tuned graphs (the cut that loses least), and again on each half: one
// run's rules still mean the same on every machine. A bucket's rule takes the
// variant measured ok on all its problems with the lowest geometric-mean slowdown against
// each problem's winner; when none covers them all, the winner of its largest problem
// (edges x F x H). After the bucket rules, one catch-all
// rule per type: the variant with the best geometric-mean slowdown over the type's problems
// among those measured on at least half of them (else the most frequent winner).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/store.h"
#include "variants/params.h"

namespace csrgat::tuner {

// How much slower than a problem's own winner its rule's variant may be before the bucket is
// split (refine). 5% until the eighteenth session, when it kept cora (4.5% slower under
// citeseer's variant in run 10) from its own rule: the margin cora's 2x target needed. Above
// the medians' measured noise (0.1-0.6% on run 10's small graphs).
inline constexpr double kSplitTolerance = 1.03;

struct Winner {
  std::string graph, spec;
  int feat = 0, heads = 1;
  ValueType value = ValueType::f32;
  IndexType index = IndexType::i32;
  std::string variant;
  int stage = 0;
  double median_us = 0, q1_us = 0, q3_us = 0, rel_noise = 0;
  int samples = 0;
  std::string timer;
  bool throttled = false;  // the winning trial was timed while NVML saw a throttling clock event
  std::vector<std::pair<std::string, double>> runners_up;  // next best (variant, median_us), <= 4
  double seed_us = 0, cusparse_us = 0;  // baseline medians for the same problem; NaN if none ok
  nlohmann::json features;              // the graphs table's shape features (null if absent)
};

// Whether a trial of that status rules its kernel (a fused variant or a column-blocked sweep) out
// on the trial's problem for the selection, and for the reports that say what the header runs:
// wrong or crashed; hung (timeout: no reply, after the retry without counters), as one that
// crashed; for a sweep also launch_failed, since the library would run it there all the same.
bool rules_out(Family family, const std::string& status);

// One per problem with at least one ok fused trial, ordered by (graph, F, H, value, index).
// Throws std::runtime_error naming the store when the run does not exist.
std::vector<Winner> select_winners(const Store& store, int64_t run_id);

// Open ends of the bucket ranges, as the generated header spells them.
inline constexpr int kOpenInt = 1 << 30;
inline constexpr double kOpenDegree = 1e300;

struct Bucket {
  int value = 0, index = 0;  // tuned::Rule codes: value 0 f32, 1 bf16, 2 f16; index 0 i32, 1 i64
  int feat_min = 1, feat_max = kOpenInt;                      // inclusive
  int heads_min = 1, heads_max = kOpenInt;                    // inclusive
  double mean_degree_min = 0, mean_degree_max = kOpenDegree;  // [min, max)
  int64_t max_degree_min = 0, max_degree_max = INT64_MAX;     // [min, max)
  int64_t nodes_min = 0, nodes_max = INT64_MAX;               // [min, max)
  bool operator==(const Bucket&) const = default;
  bool contains(int feat, int heads, double mean_degree, int64_t max_degree, int64_t nodes) const;
  bool is_catch_all() const;
  std::string describe() const;  // "F 49-96, H 1, mean degree [4, 12), ..."
};

// The fixed bucket holding a shape.
Bucket bucket_of(ValueType value, IndexType index, int feat, int heads, double mean_degree,
                 int64_t max_degree, int64_t nodes);
// The whole range of one type (the catch-all rule's bucket).
Bucket catch_all(ValueType value, IndexType index);
// The edges above as text, one line per dimension, for documentation and headers.
std::vector<std::string> bucket_edges_text();

// A variant's evidence on one problem the rule was chosen from.
struct Evidence {
  std::string graph;
  int feat = 0, heads = 1;
  int stage = 0;
  double median_us = 0, q1_us = 0, q3_us = 0, rel_noise = 0;
  double winner_us = 0;  // that problem's winner
  bool throttled = false;  // NVML saw a throttling clock event while it was timed
  bool noisy = false;      // rel_noise above the run's timing.max_rel_noise: the samples ran out
};

struct RuleChoice {
  Bucket bucket;
  std::string variant;
  int64_t split = 0;                     // VariantParams::split of the variant
  std::vector<std::string> from_graphs;  // sorted, distinct
  double geomean_slowdown = 1;           // vs each problem's own winner, >= 1
  std::string provenance;                // one line: how it was chosen, GPU, date, run
  std::vector<Evidence> evidence;        // per problem where the variant was measured
  // A column-blocked sweep (colblock.* id) the library runs instead of `variant` where a Shape
  // holds its plan: measured, correct and faster than `variant` on every problem of the bucket
  // the library would run it on (F = 128, one head, int32, f32 or bf16, a graph its plan takes;
  // a timeout or failed launch there counts as wrong), with the lowest geometric mean over the
  // bucket of its time over `variant`'s (a problem it cannot take counts 1: the library runs
  // `variant` there). Bucket rules only: a catch-all also serves shapes nobody measured.
  // Empty: none.
  std::string colblock;
  double colblock_ratio = 1;               // that geometric mean, < 1
  std::vector<Evidence> colblock_evidence; // its times (winner_us: `variant`'s on that problem)
};

// Bucket rules (ordered by type, then bucket), then one catch-all per type that has problems.
// Problems whose graph has no features in the store feed only the catch-all rules.
std::vector<RuleChoice> select_rules(const Store& store, int64_t run_id);

// Both from one reading of the run's trials (what select_winners and select_rules return).
struct Selection {
  std::vector<Winner> winners;
  std::vector<RuleChoice> rules;
};
Selection select_winners_and_rules(const Store& store, int64_t run_id);

// The rule the library's dispatch (csrgat/aggregate.cpp, choose()) takes for a shape, `rules`
// in select_rules' order (the header's): the first of the type whose bucket holds the shape
// and, for a `.fs<T>` kernel, whose slices suit F (variants/launch.h, slices_fit); nullptr when
// none does (the library runs its fallback kernel).
const RuleChoice* first_match(const std::vector<RuleChoice>& rules, ValueType value,
                              IndexType index, int feat, int heads, double mean_degree,
                              int64_t max_degree, int64_t nodes);

// The same for a tuned problem, by its graph's features as the store keeps them. A problem
// without them (select_rules placed it in its type's catch-all only, and the library would
// measure the graph itself) is matched against the catch-all rules alone.
const RuleChoice* rule_for(const std::vector<RuleChoice>& rules, ValueType value, IndexType index,
                           int feat, int heads, const nlohmann::json& features);

// Whether the library runs rule r's column-blocked sweep (RuleChoice::colblock) on a problem:
// r has one, int32 indices, and the sweep's plan takes the graph (csrgat/colblock.h,
// problem_unsupported(): F = 128, one head, f32 or bf16); false without the graph's features.
bool sweep_runs(const RuleChoice& r, ValueType value, IndexType index, int feat, int heads,
                const nlohmann::json& features);

}  // namespace csrgat::tuner
