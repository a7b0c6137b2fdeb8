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
};

struct CompareResult {
  int exit_code = 0;    // 0: no tuned choice slower or lost; 1: one or more; 2: refused
  std::string refusal;  // why, when exit_code == 2
  int tuned_slower = 0, tuned_faster = 0, tuned_same = 0;
  int tuned_lost = 0;  // a tuned choice in base and none in new: counted as a regression
  int variants_slower = 0, variants_faster = 0, variants_same = 0;
  std::string markdown;  // compare.md
  nlohmann::json json;   // compare.json
};

// Never refuses silently: a refusal is a result with exit code 2 and its reason in both texts.
CompareResult compare_runs(const LoadedRun& base, const LoadedRun& fresh,
                           const CompareOptions& opt);

// compare.md and compare.json into out_dir (created). Throws std::runtime_error on I/O errors.
void write_compare(const CompareResult& r, const std::string& out_dir);

}  // namespace csrgat::reports
