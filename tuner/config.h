// The YAML config of a tuning run, parsed into plain structs. Every key is checked: unknown
// keys (with the closest known one suggested), wrong types, empty lists, out-of-domain values
// and constraints that do not parse all throw ConfigError naming the file, the key path
// (`space.vec[2]`) and the line. configs/README.md describes every key; in short:
//
//   name: h100                     # run name (default: the file's stem)
//   arch: sm_90                    # required; NVRTC target
//   allow_other_arch: false        # run on a GPU of another compute capability anyway
//   output: ../runs/h100           # default runs/<name>; relative to the config's folder
//   graphs:                        # required, non-empty
//     - {name: cora, spec: "../../shared/graphs/cora.mtx.gz", feat: [64], heads: [1]}
//     - {name: u1m, spec: "uniform:n=1000000,deg=16", feat: [64], value: [f32, bf16]}
//     - {name: wiki, spec: "...", feat: [64], space: {ilp: [4, 8]}, constraints: ["tpr == 32"]}
//   space:                         # required; each key a list or a range, default one value
//     tpr: {from: 4, to: 128, mul: 2}
//     softmax: [twopass, online]
//   constraints: ["fl <= tpr"]     # see tuner/expr.h; variables listed in kConstraintVariables
//   baselines: [seed, cusparse]
//   strategy: {kind: halving, budget: 0, seed: 1, eta: 3}
//   timing: {cache: cold, warmup: 3, max_rel_noise: 0.005, min_samples: 10, max_samples: 300,
//            max_seconds: 0.5, graph_replay: false, overlap_previous: false, timeout_seconds: 10}
//   verify: {rel_tol_f32: 1.0e-5, rel_tol_16bit: 1.0e-2}
//   counters: true
//   test_only: {fault_variants: [], delay_variants: [], slow_percent: 0, fail_reprepare: false}
//
// Constraints that no combination satisfies are found by the space step (check_space in
// tuner/space.h), which needs the problems' feat and heads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/expr.h"
#include "variants/params.h"

namespace csrgat::tuner {

// what(): "<file>: line L, column C: <key path>: <detail>" (parts left out when unknown).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string file, std::string key_path, int line, int column, std::string detail);
  const std::string& file() const { return file_; }
  const std::string& key_path() const { return key_path_; }
  int line() const { return line_; }      // 1-based; 0 when unknown
  int column() const { return column_; }  // 1-based; 0 when unknown
  const std::string& detail() const { return detail_; }

 private:
  std::string file_, key_path_;
  int line_, column_;
  std::string detail_;
};

// Where a key sits in the config file (1-based; 0 when the key was absent).
struct Location {
  int line = 0;
  int column = 0;
};

// The values each parameter takes. A key missing from the config keeps its single default
// (VariantParams' defaults).
struct SpaceSpec {
  std::vector<int> tpr{16};
  std::vector<int> fl{16};
  std::vector<int> rpb{4};
  std::vector<int> vec{4};
  std::vector<int> tiles{1};
  std::vector<int> epl{1};
  std::vector<int> ilp{1};
  std::vector<int> minb{0};
  std::vector<int> smem{0};  // 0/1
  std::vector<Softmax> softmax{Softmax::two_pass};
  std::vector<int64_t> split{0};
  std::vector<int> lpt{0};  // 1: longest rows first (VariantParams::lpt)
  std::vector<int> prefetch{0};  // 1: inputs prefetched into L2 (VariantParams::prefetch)
  std::vector<int> bm{0};  // 1: split rows merged inside their block (VariantParams::bm)
  std::vector<int> slices{1};  // feature slices, one launch each (VariantParams::slices)
  // Column-blocked sweeps to time beside the family ("r19.ps16.lag8": variant
  // colblock.r19.ps16.lag8.i32.f32, and .bf16), outside the product of the keys above: candidates
  // of problems with F = 128, one head, f32 or bf16 values and int32 indices, which the selection may
  // attach to a rule (Rule::colblock_rows) but never make its kernel. Empty by default.
  std::vector<std::string> colblock;
  std::vector<IndexType> index{IndexType::i32};
  std::vector<ValueType> value{ValueType::f32};
};

struct Constraint {
  std::string text;
  Expr expr;
  Location at;
};

struct GraphEntry {
  std::string name;              // unique; [A-Za-z0-9_.-]+ (it names files and rows)
  std::string spec;              // generator spec, or the file path made absolute
  std::string spec_text;         // as written in the config
  std::vector<int> feat;         // feature widths F, each one problem
  std::vector<int> heads{1};     // head counts H, each one problem
  std::vector<ValueType> value;  // overrides space.value for this graph; empty: space.value
  // This graph's own search, for a graph that needs other variants than the rest: the keys of
  // its `space` map replace the config's (the others stay the config's), and its `constraints`
  // list, when given, replaces the config's list. Unset: the config's (space_of, constraints_of).
  std::optional<SpaceSpec> space;       // the config's space with space_keys replaced
  std::vector<std::string> space_keys;  // the keys this graph's `space` gives
  std::optional<std::vector<Constraint>> constraints;
  Location at;              // of the list entry
  Location constraints_at;  // of its `constraints`, when given
};

// The variables a constraint may read (the space's parameters and the problem's shape).
inline const std::vector<std::string> kConstraintVariables{
    "tpr",    "fl",    "rpb",   "vec",         "tiles",      "epl",  "ilp", "minb",
    "smem",   "online", "split", "feat", "heads", "value_bytes", "index_bytes", "lpt",
    "prefetch", "bm", "slices"};

enum class StrategyKind { exhaustive, random, halving };
const char* to_string(StrategyKind k);

struct StrategySpec {
  StrategyKind kind = StrategyKind::exhaustive;
  // random: variants sampled per problem (> 0). halving: full-timing units per problem that
  // the rounds may spend (0: geometric default; see halving_plan). exhaustive: unused.
  int budget = 0;
  uint64_t seed = 1;
  int eta = 3;  // halving: keep 1/eta of the variants each round
  // halving: a screening measurement stops at its second sample (and its warm-up as soon as a
  // warm launch shows it) when both are over cutoff times the fastest screening time of the
  // problem's value and index type so far; 0: off. The cut variant keeps its trial (two cold
  // samples, ranked with the rest; "screening cut" in its detail). A measurement that fell
  // back to another timer is not cut. A variant that slow cannot be among the finalists unless
  // most of its type are slower still. With it on, the screening measures a spread of 16
  // probes first (screening_order).
  double cutoff = 0;
};

enum class CacheMode { cold, warm };
const char* to_string(CacheMode m);

struct TimingSpec {
  CacheMode cache = CacheMode::cold;  // cold: flush L2 before each sample
  int warmup = 3;
  double max_rel_noise = 0.005;  // stop once the median's relative noise is below this
  int min_samples = 10;
  int max_samples = 300;
  double max_seconds = 0.5;     // per variant and problem
  bool graph_replay = false;    // time CUDA Graph replays instead of single launches
  // Launch the fused variants as programmatic dependent launches, each overlapping the previous
  // kernel of the replay (csrgat::LaunchOptions::overlap_previous): tuning for back-to-back
  // layers launched that way. Needs graph_replay (a single launch has nothing to overlap); the
  // baselines launch plain (they do not wait for the previous kernel themselves).
  bool overlap_previous = false;
  double timeout_seconds = 10;  // a trial running longer is killed and marked timeout
};

struct VerifySpec {
  double rel_tol_f32 = 1.0e-5;
  double rel_tol_16bit = 1.0e-2;
};

struct TestOnlySpec {
  std::vector<VariantParams> fault_variants;  // each has a fault part
  std::vector<VariantParams> delay_variants;  // each has a delay part
  // Every fused trial of the run recomputes this percentage of its rows: the run's times get
  // slower with unchanged variant ids, which is what a regression test needs.
  unsigned slow_percent = 0;
  // The worker's problem is never built again after a restart (a crash or a timeout), as if
  // the GPU had been lost then: the run must stop measuring on it and store nothing that
  // blames the variant (scripts/check-lost-gpu.sh).
  bool fail_reprepare = false;
};

struct Config {
  std::string source;    // the file it was read from (or the source name given)
  // Top-level keys taken from a base config (`base:`) -> that file: errors found later under
  // them (constraints, graphs) name it, as their lines are its.
  std::map<std::string, std::string> inherited;
  std::string base_dir;  // absolute; relative paths are resolved against it
  std::string name;
  std::string arch;
  bool allow_other_arch = false;
  std::string output;       // absolute
  std::string output_text;  // as written (or the default)
  std::vector<GraphEntry> graphs;
  SpaceSpec space;
  std::vector<Constraint> constraints;
  std::vector<Family> baselines{Family::seed, Family::cusparse};
  StrategySpec strategy;
  TimingSpec timing;
  VerifySpec verify;
  bool counters = true;
  TestOnlySpec test_only;
  Location space_at, constraints_at;
};

// The space and the constraints a graph's problems enumerate: its own where it gives them,
// else the config's.
const SpaceSpec& space_of(const Config& c, const GraphEntry& g);
const std::vector<Constraint>& constraints_of(const Config& c, const GraphEntry& g);

// Reads and checks a config file. Throws ConfigError.
Config load_config(const std::string& path);

// The results store of a config's run (tuner run writes it; a run may resume from it).
std::string store_path(const Config& c);

// The file whose lines the location of a key path of c gives: the base's for a top-level key
// taken from it (`base:`), else c.source.
std::string file_of(const Config& c, const std::string& key_path);
// The same from text; source_name names it in errors and its folder is the base for
// relative paths (the current directory when it has none).
Config parse_config(const std::string& yaml_text, const std::string& source_name);

// The normalised content: ranges expanded, defaults filled in, enums as names, and both the
// resolved paths and the text as written.
nlohmann::json to_json(const Config& c);
// Stable hash (16 hex digits) of to_json without what depends on where the checkout lies
// (source, base_dir, resolved paths): the same config text gives the same hash everywhere.
std::string config_hash(const Config& c);

// The seed of one problem's inputs (features and scores): the graph's position in the config,
// F and H, so that every worker and every resumed run measures the same inputs.
inline uint64_t problem_input_seed(int graph_index, int feat, int heads) {
  return 1000 + static_cast<uint64_t>(graph_index) * 7919 + static_cast<uint64_t>(feat) * 31 +
         static_cast<uint64_t>(heads);
}

// What one problem's measurements depend on in a run's stored config (to_json): the graph as
// written and its inputs' seed (problem_input_seed), F, H and its value types, and how they are searched and measured (the graph's
// effective space and constraints, baselines, strategy, timing, verify, counters, test-only
// settings, target), as a stable hash. Runs whose fingerprints of a problem match, on a GPU of
// the same model with the same driver, CUDA runtime, NVRTC and kernel sources, measure it
// alike, so one may take the other's finished problem (`tuner run --reuse`). "" when the
// config holds no such problem. It reads the JSON, not a Config, so that it also reads runs
// stored by older tuners (keys they lack take their defaults). Not in it: a graph file's
// content (its path as written is), and the tuner's own code beyond the kernel sources, which
// the compatibility check compares (kernels_hash).
std::string problem_fingerprint(const nlohmann::json& config, const std::string& graph, int feat, int heads);

// Closest of `known` to `word` by edit distance, or "" when none is close enough to suggest.
std::string closest_match(const std::string& word, const std::vector<std::string>& known);

}  // namespace csrgat::tuner
