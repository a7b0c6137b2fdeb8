// The regression comparison of two runs (`tuner compare base new`): per variant and per tuned
// choice, same / faster / slower by a rule that needs both a relative threshold and a
// difference beyond the two runs' measured noise, written as a pull-request comment
// (compare.md) and as compare.json.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_io.h"

namespace csrgat::reports {

enum class Change { same, faster, slower };
const char* to_string(Change c);

struct Verdict {
  Change change = Change::same;
  double ratio = 1;     // new / base
  double diff_us = 0;   // new - base
  double noise_us = 0;  // 2 * sqrt((base * base_noise)^2 + (new * new_noise)^2); inf when unknown
};

// slower: new > base * (1 + threshold) and new - base > noise_us; faster: base > new * (1 +
// threshold) and base - new > noise_us; else same. When a noise is unknown (not finite: one
// sample) the threshold alone decides; a time that is not positive and finite is same.
Verdict classify(double base_us, double base_rel_noise, double new_us, double new_rel_noise,
                 double threshold);
std::string rule_text(double threshold);

struct CompareOptions {
  double threshold = 0.03;
  bool allow_different_gpu = false;
  // Compare runs timed differently (their config's L2 state, graph replay or overlap) anyway.
  bool allow_different_timing = false;
};

struct CompareResult {
  int exit_code = 0;    // 0: no tuned choice or dispatch slower or lost; 1: one or more;
                        // 2: refused
  std::string refusal;  // why, when exit_code == 2
  // What the reader must know of the result: runs of different GPUs compared anyway
  // (--allow-different-gpu); base and new one run (nothing could differ). compare.md's
  // "**Warning**" lines, compare.json's "warnings"; the CLI prints them on stderr.
  std::vector<std::string> warnings;
  // Problems (graph, F, H, value and index type) in both runs whose graph is the same (compared),
  // and the rest: in both with another graph under the name, or in one run only. With none
  // compared the comparison is refused: "no change" would claim what nothing showed.
  int problems_compared = 0, problems_graph_differs = 0, problems_only_base = 0,
      problems_only_new = 0;
  int problems_not_compared() const {
    return problems_graph_differs + problems_only_base + problems_only_new;
  }
  std::string problems_line;  // "Problems: 17 compared, 0 not compared." (the CLI prints it)
  int tuned_slower = 0, tuned_faster = 0, tuned_same = 0;
  int tuned_lost = 0;  // a tuned choice in base and none in new: counted as a regression
  int tuned_lost_unmeasured = 0;  // of them, on problems new did not measure at all
  // The header's dispatch per compared problem (ProblemResults::dispatch of each run), by the
  // same rule. lost: new runs a kernel ruled out on the problem (wrong, crashed or hung there),
  // or one not timed there where base's was (a regression, as a lost tuned choice is); untimed:
  // base's was not timed there.
  // unknown: a run's store kept no features of the graph, so its dispatch is a guess
  // (Dispatch::shape_unknown): named, not compared.
  int dispatch_slower = 0, dispatch_faster = 0, dispatch_same = 0, dispatch_lost = 0,
      dispatch_untimed = 0, dispatch_unknown = 0;
  int variants_slower = 0, variants_faster = 0, variants_same = 0;
  std::string markdown;  // compare.md
  nlohmann::json json;   // compare.json
};

// A slower or lost dispatch fails the gate as a slower or lost tuned choice does: it is what
// the header runs.
//
// Never refuses silently: a refusal is a result with exit code 2 and its reason in both texts.
// Refused: runs of different GPUs or drivers (unless allow_different_gpu), runs timed
// differently (unless allow_different_timing), and runs that have no
// problem to compare (none in common, or each one's graph another).
//
// Two problems' graphs are the same when what the stores keep of the graph is: its structure
// (nodes, edges, degree statistics: graphs.features_json) and, for a generated graph, its spec.
// The source hash (graphs::graph_source_hash) also covers the generators' and readers' code, so
// it changes with any edit under graphs/: a hash that changed over the same structure is
// compared, and the report says the code (or a file's bytes) changed between the runs. What the
// structure cannot show (a file's rows relabelled) is left to that note.
CompareResult compare_runs(const LoadedRun& base, const LoadedRun& fresh,
                           const CompareOptions& opt);

// Why two runs' problems of one graph are not the same graph ("" when they are; see
// compare_runs), from each side's stored features and spec; *note (when given) says what
// changed that does not make it another graph (the source hash alone).
std::string graph_difference(const nlohmann::json& base_features, const std::string& base_spec,
                             const nlohmann::json& new_features, const std::string& new_spec,
                             std::string* note = nullptr);

// compare.md and compare.json into out_dir (created). Throws std::runtime_error on I/O errors.
void write_compare(const CompareResult& r, const std::string& out_dir);
// The files write_compare writes in its folder.
const std::vector<std::string>& compare_files();

}  // namespace csrgat::reports
