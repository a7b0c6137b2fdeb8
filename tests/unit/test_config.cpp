// The run config: the shipped configs parse, every class of mistake is a ConfigError that names
// the key path and the line, and the constraint expression language.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "graphs/hash.h"
#include "graphs/source.h"
#include "recorded.h"
#include "tuner/config.h"
#include "tuner/expr.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/space.h"
#include "tuner/store.h"

namespace csrgat::tuner {
namespace {

namespace fs = std::filesystem;

const std::string kConfigs = std::string(CSRGAT_SOURCE_DIR) + "/configs/";

// A valid config; the error tests below change one thing in it (line numbers matter).
const std::string kGood = R"(name: t
arch: sm_90
graphs:
  - {name: g, spec: "uniform:n=100,deg=4", feat: [64]}
space:
  tpr: [8, 32]
  fl: [8]
  rpb: [1, 4]
constraints:
  - "fl <= tpr"
)";

ConfigError parse_error(const std::string& yaml) {
  try {
    parse_config(yaml, "/tmp/cfg/bad.yaml");
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError for:\n" << yaml;
  return ConfigError("", "", 0, 0, "");
}

// Checks the key path, the line and one more fragment, both as fields and in the message.
void expect_error(const std::string& yaml, const std::string& key_path, int line,
                  const std::string& fragment) {
  SCOPED_TRACE(yaml);
  const ConfigError e = parse_error(yaml);
  const std::string what = e.what();
  EXPECT_EQ(e.key_path(), key_path) << what;
  EXPECT_EQ(e.line(), line) << what;
  EXPECT_NE(what.find("/tmp/cfg/bad.yaml"), std::string::npos) << what;
  if (!key_path.empty()) {
    EXPECT_NE(what.find(key_path), std::string::npos) << what;
  }
  EXPECT_NE(what.find("line " + std::to_string(line)), std::string::npos) << what;
  EXPECT_NE(what.find(fragment), std::string::npos) << what;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// ---------------------------------------------------------------- the shipped configs

TEST(Config, ShippedConfigsParse) {
  for (const char* name :
       {"smoke.yaml", "h100.yaml", "h200.yaml", "h200-overlapped.yaml", "h200-subwarp.yaml"}) {
    SCOPED_TRACE(name);
    const Config c = load_config(kConfigs + name);
    EXPECT_EQ(c.arch, "sm_90");
    EXPECT_FALSE(c.graphs.empty());
    EXPECT_NO_THROW(check_space(c));
    EXPECT_EQ(c.name + ".yaml", name);
    EXPECT_EQ(fs::path(c.output),
              (fs::path(CSRGAT_SOURCE_DIR) / "runs" / c.name).lexically_normal());
  }
}

TEST(Config, SmokeResolvesGraphPathsAgainstTheConfigFolder) {
  const Config c = load_config(kConfigs + "smoke.yaml");
  ASSERT_EQ(c.graphs.size(), 4u);
  const GraphEntry& cora = c.graphs[0];
  EXPECT_EQ(cora.name, "cora");
  EXPECT_EQ(cora.spec_text, "../../shared/graphs/cora.mtx.gz");
  EXPECT_EQ(fs::path(cora.spec),
            (fs::path(CSRGAT_SHARED_GRAPHS) / "cora.mtx.gz").lexically_normal());
  EXPECT_EQ(c.graphs[1].spec, "seed:n=384,deg=18,seed=1");  // generators pass through
  EXPECT_EQ(c.graphs[1].feat, (std::vector<int>{3, 100}));
  EXPECT_EQ(c.graphs[2].heads, (std::vector<int>{4}));
  EXPECT_EQ(c.output_text, "../runs/smoke");
  if (fs::exists(CSRGAT_SHARED_GRAPHS)) {
    EXPECT_TRUE(fs::exists(cora.spec));
  }
}

TEST(Config, FullLabHasTheRealGraphsAndTheLargeOnes) {
  for (const char* name : {"h100.yaml", "h200.yaml"}) {
    SCOPED_TRACE(name);
    const Config c = load_config(kConfigs + name);
    EXPECT_GE(c.graphs.size(), 10u);
    for (const char* real : {"cora", "citeseer", "pubmed", "wiki-vote", "ca-astroph", "cit-hepph",
                             "soc-slashdot0902"}) {
      bool found = false;
      for (const auto& g : c.graphs)
        if (g.name == real) {
          found = true;
          EXPECT_EQ(fs::path(g.spec),
                    (fs::path(CSRGAT_SHARED_GRAPHS) / (std::string(real) + ".mtx.gz"))
                        .lexically_normal());
        }
      EXPECT_TRUE(found) << real;
    }
    auto has_spec = [&](const std::string& fragment, int feat) {
      for (const auto& g : c.graphs)
        if (g.spec.find(fragment) != std::string::npos &&
            std::find(g.feat.begin(), g.feat.end(), feat) != g.feat.end())
          return true;
      return false;
    };
    EXPECT_TRUE(has_spec("seed:n=384,deg=18", 64));
    EXPECT_TRUE(has_spec("uniform:n=1000000,deg=16", 64));
    EXPECT_TRUE(has_spec("uniform:n=2000000,deg=32", 128));
    EXPECT_TRUE(has_spec("powerlaw:n=1000000,deg=16", 64));
    EXPECT_TRUE(has_spec("maxdeg=200000", 64));
    EXPECT_TRUE(has_spec("rmat:", 64));
    EXPECT_EQ(c.strategy.kind, StrategyKind::halving);
    EXPECT_EQ(c.timing.cache, CacheMode::cold);
    EXPECT_EQ(c.baselines, (std::vector<Family>{Family::seed, Family::cusparse}));
  }
}

TEST(Config, DefaultsFillWhatIsLeftOut) {
  const Config c = parse_config(
      "arch: sm_90\ngraphs: [{name: g, spec: 'rmat:scale=8,ef=4', feat: [32]}]\n"
      "space: {}\n",
      "/x/y/mini.yaml");
  EXPECT_EQ(c.name, "mini");
  EXPECT_EQ(c.base_dir, "/x/y");
  EXPECT_EQ(c.output, "/x/y/runs/mini");
  EXPECT_EQ(c.graphs[0].heads, (std::vector<int>{1}));
  EXPECT_TRUE(c.graphs[0].value.empty());
  EXPECT_EQ(c.space.tpr, (std::vector<int>{16}));
  EXPECT_EQ(c.space.value, (std::vector<ValueType>{ValueType::f32}));
  EXPECT_EQ(c.strategy.kind, StrategyKind::exhaustive);
  EXPECT_EQ(c.timing.max_samples, 300);
  EXPECT_TRUE(c.counters);
  EXPECT_FALSE(c.allow_other_arch);
}

TEST(Config, RangesExpand) {
  const Config c = parse_config(replace(kGood, "  tpr: [8, 32]",
                                        "  tpr: {from: 4, to: 64, mul: 2}\n"
                                        "  split: {from: 0, to: 2048, step: 1024}"),
                                "/tmp/cfg/r.yaml");
  EXPECT_EQ(c.space.tpr, (std::vector<int>{4, 8, 16, 32, 64}));
  EXPECT_EQ(c.space.split, (std::vector<int64_t>{0, 1024, 2048}));
}

TEST(Config, RelativeAndAbsolutePathsAndFileSpecs) {
  const Config c = parse_config(
      "arch: sm_90\noutput: out/r1\ngraphs:\n"
      "  - {name: a, spec: 'data/a.mtx', feat: [8]}\n"
      "  - {name: b, spec: '/abs/b.el', feat: [8]}\n"
      "  - {name: c, spec: 'file:../c.bin', feat: [8]}\n"
      "  - {name: d, spec: 'data:v1/d.mtx', feat: [8]}\n"
      "  - {name: e, spec: ' uniform:n=5,deg=3 ', feat: [8]}\n"
      "space: {}\n",
      "/base/dir/c.yaml");
  EXPECT_EQ(c.output, "/base/dir/out/r1");
  EXPECT_EQ(c.output_text, "out/r1");
  EXPECT_EQ(c.graphs[0].spec, "/base/dir/data/a.mtx");
  EXPECT_EQ(c.graphs[1].spec, "/abs/b.el");
  EXPECT_EQ(c.graphs[2].spec, "file:/base/c.bin");
  EXPECT_EQ(c.graphs[2].spec_text, "file:../c.bin");
  // A colon in a graph file's name is no kind (as the command line reads it).
  EXPECT_EQ(c.graphs[3].spec, "/base/dir/data:v1/d.mtx");
  // Spaces around a spec are trimmed, as on the command line.
  EXPECT_EQ(c.graphs[4].spec, "uniform:n=5,deg=3");
}

TEST(Config, HashIsStableAndFollowsTheContent) {
  const Config a = parse_config(kGood, "/one/place/a.yaml");
  const Config b = parse_config(kGood, "/another/place/a.yaml");
  EXPECT_EQ(config_hash(a), config_hash(b));  // independent of where the checkout lies
  EXPECT_EQ(config_hash(a).size(), 16u);
  const Config c = parse_config(replace(kGood, "rpb: [1, 4]", "rpb: [1, 8]"), "/one/place/a.yaml");
  EXPECT_NE(config_hash(a), config_hash(c));
  // Formatting does not matter, the normalised content does.
  const Config d = parse_config(replace(kGood, "  tpr: [8, 32]", "  tpr:\n    - 8\n    - 32"),
                                "/one/place/a.yaml");
  EXPECT_EQ(config_hash(a), config_hash(d));
  // Nor where the results go: a stopped run continues into a store elsewhere.
  const Config e = parse_config(replace(kGood, "arch: sm_90\n", "arch: sm_90\noutput: elsewhere/r\n"),
                                "/one/place/a.yaml");
  EXPECT_NE(e.output, a.output);
  EXPECT_EQ(config_hash(a), config_hash(e));
  const nlohmann::json j = to_json(a);
  EXPECT_EQ(j["space"]["tpr"], nlohmann::json({8, 32}));
  EXPECT_EQ(j["space"]["softmax"], nlohmann::json({"twopass"}));
  EXPECT_EQ(j["constraints"][0], "fl <= tpr");
  EXPECT_EQ(j["strategy"]["kind"], "exhaustive");
}

// A graph's own `space` keys replace the config's for its problems, the others stay the
// config's; its own `constraints` replace the config's list. Other graphs are untouched, and a
// config without either keeps its hash.
TEST(Config, AGraphSearchesItsOwnSpaceAndConstraints) {
  const std::string two = replace(kGood, "feat: [64]}",
                                  "feat: [64]}\n  - {name: h, spec: 'seed:n=64,deg=4', feat: [64], "
                                  "space: {tpr: [32], rpb: [1, 2, 4]}, constraints: ['rpb >= 2']}");
  const Config c = parse_config(two, "/one/place/a.yaml");
  ASSERT_EQ(c.graphs.size(), 2u);
  EXPECT_FALSE(c.graphs[0].space.has_value());
  const SpaceSpec& own = space_of(c, c.graphs[1]);
  EXPECT_EQ(own.tpr, (std::vector<int>{32}));
  EXPECT_EQ(own.rpb, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(own.fl, (std::vector<int>{8}));  // the config's
  EXPECT_EQ(&space_of(c, c.graphs[0]), &c.space);
  ASSERT_EQ(constraints_of(c, c.graphs[1]).size(), 1u);
  EXPECT_EQ(constraints_of(c, c.graphs[1])[0].text, "rpb >= 2");
  EXPECT_EQ(constraints_of(c, c.graphs[0])[0].text, "fl <= tpr");

  // Enumeration: g keeps the config's tpr {8, 32} x rpb {1, 4}; h has tpr 32 x rpb {2, 4}.
  const auto ps = problems(c);
  ASSERT_EQ(ps.size(), 2u);
  std::vector<std::string> g_ids, h_ids;
  for (const auto& v : survivors(enumerate(c, ps[0]))) g_ids.push_back(v.id());
  for (const auto& v : survivors(enumerate(c, ps[1]))) h_ids.push_back(v.id());
  EXPECT_TRUE(std::any_of(g_ids.begin(), g_ids.end(), [](const std::string& id) { return id.find(".tpr8.") != std::string::npos; }));
  EXPECT_TRUE(std::any_of(g_ids.begin(), g_ids.end(), [](const std::string& id) { return id.find(".rpb1.") != std::string::npos; }));
  ASSERT_EQ(h_ids.size(), 2u);
  for (const auto& id : h_ids) EXPECT_NE(id.find("tpr32.fl8.rpb"), std::string::npos) << id;

  // to_json keeps only the keys given; the hash follows them.
  const nlohmann::json j = to_json(c);
  EXPECT_FALSE(j["graphs"][0].contains("space"));
  EXPECT_EQ(j["graphs"][1]["space"], (nlohmann::json{{"tpr", {32}}, {"rpb", {1, 2, 4}}}));
  EXPECT_EQ(j["graphs"][1]["constraints"], nlohmann::json({"rpb >= 2"}));
  const Config d = parse_config(replace(two, "rpb: [1, 2, 4]}", "rpb: [1, 2]}"), "/one/place/a.yaml");
  EXPECT_NE(config_hash(c), config_hash(d));

  // Mistakes inside a graph's space or constraints name their key path and line.
  expect_error(replace(two, "space: {tpr: [32]", "space: {tprr: [32]"), "graphs[1].space.tprr", 5,
               "did you mean 'tpr'");
  expect_error(replace(two, "'rpb >= 2'", "'rbp >= 2'"), "graphs[1].constraints[0]", 5,
               "unknown variable 'rbp'");
  const Config none = parse_config(replace(two, "'rpb >= 2'", "'rpb > 4'"), "/tmp/cfg/bad.yaml");
  try {
    check_space(none);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key_path(), "graphs[1].constraints") << e.what();
    EXPECT_EQ(e.line(), 5) << e.what();
  }
}

// The problem fingerprint (tuner run --reuse): what measuring one problem depends on.
TEST(Config, ProblemFingerprintFollowsOnlyWhatTheProblemMeasures) {
  const std::string two = replace(kGood, "feat: [64]}",
                                  "feat: [64]}\n  - {name: h, spec: 'seed:n=64,deg=4', feat: [64, 128]}");
  const nlohmann::json a = to_json(parse_config(two, "/one/place/a.yaml"));
  const std::string g = problem_fingerprint(a, "g", 64, 1), h = problem_fingerprint(a, "h", 64, 1);
  EXPECT_EQ(g.size(), 16u);
  EXPECT_NE(g, h);
  EXPECT_NE(h, problem_fingerprint(a, "h", 128, 1));
  EXPECT_EQ(problem_fingerprint(a, "h", 32, 1), "");  // no such problem
  EXPECT_EQ(problem_fingerprint(a, "h", 64, 2), "");
  EXPECT_EQ(problem_fingerprint(a, "nope", 64, 1), "");
  EXPECT_EQ(problem_fingerprint(nlohmann::json(), "g", 64, 1), "");
  // Where the checkout lies and where results go do not count.
  const nlohmann::json b = to_json(parse_config(replace(two, "arch: sm_90\n", "arch: sm_90\noutput: x/y\n"),
                                                "/elsewhere/b.yaml"));
  EXPECT_EQ(problem_fingerprint(b, "g", 64, 1), g);
  // h's own space changes h's problems only; the same values written as the config's keep it.
  const nlohmann::json c = to_json(parse_config(replace(two, "feat: [64, 128]}", "feat: [64, 128], space: {rpb: [4]}}"),
                                                "/one/place/a.yaml"));
  EXPECT_EQ(problem_fingerprint(c, "g", 64, 1), g);
  EXPECT_NE(problem_fingerprint(c, "h", 64, 1), h);
  const nlohmann::json same = to_json(parse_config(replace(two, "feat: [64, 128]}", "feat: [64, 128], space: {rpb: [1, 4]}}"),
                                                   "/one/place/a.yaml"));
  EXPECT_EQ(problem_fingerprint(same, "h", 64, 1), h);
  // prefetch [0] written or left out is one space (and one config hash: runs before the key
  // existed keep theirs); [0, 1] is another.
  const std::string pf0 = replace(two, "rpb: [1, 4]", "rpb: [1, 4]\n  prefetch: [0]");
  const nlohmann::json p0 = to_json(parse_config(pf0, "/one/place/a.yaml"));
  EXPECT_EQ(problem_fingerprint(p0, "g", 64, 1), g);
  EXPECT_EQ(config_hash(parse_config(pf0, "/one/place/a.yaml")), config_hash(parse_config(two, "/one/place/a.yaml")));
  const nlohmann::json own0 = to_json(parse_config(replace(two, "feat: [64, 128]}", "feat: [64, 128], space: {prefetch: [0]}}"),
                                                   "/one/place/a.yaml"));
  EXPECT_EQ(problem_fingerprint(own0, "h", 64, 1), h);
  const nlohmann::json p01 =
      to_json(parse_config(replace(two, "rpb: [1, 4]", "rpb: [1, 4]\n  prefetch: [0, 1]"), "/one/place/a.yaml"));
  EXPECT_NE(problem_fingerprint(p01, "g", 64, 1), g);
  // The config's space, constraints or timing change every problem.
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"rpb: [1, 4]", "rpb: [1, 8]"}, {"\"fl <= tpr\"", "\"fl < tpr\""}}) {
    const nlohmann::json d = to_json(parse_config(replace(two, from, to), "/one/place/a.yaml"));
    EXPECT_NE(problem_fingerprint(d, "g", 64, 1), g) << to;
  }
  const nlohmann::json t = to_json(parse_config(two + "timing: {max_seconds: 0.2}\n", "/one/place/a.yaml"));
  EXPECT_NE(problem_fingerprint(t, "g", 64, 1), g);
  // Overlapped launches are another measurement; written off, the key keeps the hash of the
  // configs from before it existed.
  const std::string replay = two + "timing: {cache: warm, graph_replay: true}\n";
  const nlohmann::json r0 = to_json(parse_config(replay, "/one/place/a.yaml"));
  const nlohmann::json r1 = to_json(parse_config(
      two + "timing: {cache: warm, graph_replay: true, overlap_previous: true}\n", "/one/place/a.yaml"));
  EXPECT_TRUE(r1["timing"].value("overlap_previous", false));
  EXPECT_FALSE(r0["timing"].contains("overlap_previous"));
  EXPECT_NE(problem_fingerprint(r1, "g", 64, 1), problem_fingerprint(r0, "g", 64, 1));
  EXPECT_EQ(config_hash(parse_config(two + "timing: {cache: warm, graph_replay: true, overlap_previous: false}\n",
                                     "/one/place/a.yaml")),
            config_hash(parse_config(replay, "/one/place/a.yaml")));
  // A graph's position seeds its inputs (problem_input_seed): another graph before it changes it.
  const nlohmann::json moved = to_json(parse_config(
      replace(two, "  - {name: g,", "  - {name: first, spec: 'seed:n=32,deg=4', feat: [64]}\n  - {name: g,"),
      "/one/place/a.yaml"));
  EXPECT_NE(problem_fingerprint(moved, "g", 64, 1), g);
}

// The shipped h200 config against the recorded tuning runs (tests/data/recorded/h200/):
// the latest run measured this config, so every problem has its fingerprint. A run that took
// problems from an earlier one (tuner run --reuse; run 3 took the large graphs from run 2)
// took only problems whose fingerprint the two runs' configs share, and none of a graph that
// searched its own space there (those were measured again).
TEST(Config, H200ProblemsMatchTheRecordedRunsTheyCameFrom) {
  const Config c = load_config(kConfigs + "h200.yaml");
  const nlohmann::json now = to_json(c);
  const Store s(csrgat::testing_recorded::recorded_store("h200").string(), true);
  const auto latest = s.latest_run();
  ASSERT_TRUE(latest.has_value());
  for (const auto& p : problems(c)) {
    const std::string mine = problem_fingerprint(now, p.graph_name, p.feat, p.heads);
    ASSERT_FALSE(mine.empty()) << p.key();
    EXPECT_EQ(problem_fingerprint(latest->config, p.graph_name, p.feat, p.heads), mine) << p.key();
  }
  int taken = 0;
  for (int64_t id = 1; id <= latest->id; ++id) {
    const auto run = s.run(id);
    if (!run) continue;
    for (const auto& f : s.finished_problems(id)) {
      if (f.from_run == 0) continue;
      ++taken;
      const auto from = s.run(f.from_run);
      ASSERT_TRUE(from.has_value()) << f.from_run;
      EXPECT_EQ(problem_fingerprint(from->config, f.graph, f.feat, f.heads),
                problem_fingerprint(run->config, f.graph, f.feat, f.heads)) << "run " << id << " " << f.graph;
      for (const auto& g : run->config["graphs"])
        if (g.value("name", std::string()) == f.graph) {
          EXPECT_FALSE(g.contains("space") || g.contains("constraints")) << f.graph << " searches its own space";
        }
    }
  }
  EXPECT_GT(taken, 0);
  // The latest run stored each graph's source (tuner run --continue and --reuse compare it):
  // the shared graph files' bytes as they are now and the generator specs, each with the graph
  // code hashes of the build that measured it (recorded beside the store by adopt-run.sh).
  std::map<std::string, std::string> code;
  {
    std::ifstream in(csrgat::testing_recorded::recorded_dir() / "h200.code-hashes");
    ASSERT_TRUE(in) << "tests/data/recorded/h200.code-hashes";
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') {
        std::istringstream ls(line);
        std::string key, value;
        ls >> key >> value;
        code[key] = value;
      }
  }
  ASSERT_EQ(code["reader"].size(), 64u);
  ASSERT_EQ(code["generator"].size(), 64u);
  for (const auto& p : problems(c)) {
    const std::string stored = s.graph_features(latest->id, p.graph_name).value("source_hash", std::string());
    if (p.spec.find(".mtx") == std::string::npos) {
      EXPECT_EQ(stored, "gen:" + fnv1a_hex(code["generator"] + "\n" + p.spec)) << p.graph_name;
    } else if (fs::exists(p.spec)) {
      EXPECT_EQ(stored, graphs::file_source_hash(p.spec, code["reader"])) << p.graph_name;
    }
  }
  // Code changed since: --reuse and --continue measure those graphs again until a fresh tune is
  // adopted (not an error; said, so that a run's surprise is explained here first).
  if (code["reader"] != graphs::reader_code_hash() ||
      code["generator"] != graphs::generator_code_hash())
    std::printf(
        "note: the graph %s changed since run %lld of the recorded store: tuner run --reuse "
        "measures their graphs again until a fresh tune is adopted\n",
        code["reader"] != graphs::reader_code_hash()
            ? (code["generator"] != graphs::generator_code_hash() ? "readers and generators"
                                                                  : "readers")
            : "generators",
        static_cast<long long>(latest->id));
}

// ---------------------------------------------------------------- errors

TEST(ConfigErrors, UnknownKeysAtEveryLevelSuggestTheClosest) {
  expect_error(replace(kGood, "arch: sm_90", "arhc: sm_90"), "arhc", 2, "did you mean 'arch'");
  expect_error(replace(kGood, "  tpr: [8, 32]", "  tprr: [8, 32]"), "space.tprr", 6,
               "did you mean 'tpr'");
  expect_error(replace(kGood, "feat: [64]", "feats: [64]"), "graphs[0].feats", 4,
               "did you mean 'feat'");
  expect_error(kGood + "timing: {warmpu: 3}\n", "timing.warmpu", 11, "did you mean 'warmup'");
  expect_error(kGood + "strategy: {kind: random, budgte: 3}\n", "strategy.budgte", 11,
               "did you mean 'budget'");
  expect_error(kGood + "verify: {rel_tol: 0.1}\n", "verify.rel_tol", 11, "unknown key");
  expect_error(kGood + "test_only: {faults: []}\n", "test_only.faults", 11, "unknown key");
  expect_error(replace(kGood, "  tpr: [8, 32]", "  tpr: {from: 4, to: 8, mull: 2}"),
               "space.tpr.mull", 6, "did you mean 'mul'");
}

TEST(ConfigErrors, DuplicateKeys) {
  expect_error(replace(kGood, "  fl: [8]", "  fl: [8]\n  fl: [16]"), "space.fl", 8,
               "duplicate key");
}

TEST(ConfigErrors, WrongTypes) {
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: [8, \"32\"]"), "space.tpr[1]", 6, "string");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: [8, abc]"), "space.tpr[1]", 6,
               "expected an integer");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: 8"), "space.tpr", 6, "expected a list");
  expect_error(replace(kGood, "feat: [64]", "feat: 64"), "graphs[0].feat", 4, "expected a list");
  expect_error(replace(kGood, "  - \"fl <= tpr\"", "  fl: tpr"), "constraints", 9,
               "expected a list");
  expect_error(kGood + "timing: {max_seconds: fast}\n", "timing.max_seconds", 11,
               "expected a number");
  expect_error(kGood + "timing: {graph_replay: 1}\n", "timing.graph_replay", 11,
               "expected true or false");
  expect_error(kGood + "timing: {overlap_previous: true}\n", "timing.overlap_previous", 11,
               "needs graph_replay: true");
  expect_error(kGood + "counters: [true]\n", "counters", 11, "found a list");
  expect_error("arch: sm_90\ngraphs: [{name: g, spec: 'seed:n=8,deg=4', feat: [8]}]\nspace: [1]\n",
               "space", 3, "expected a map");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: [8, [32]]"), "space.tpr[1]", 6, "found a list");
}

// test_only.fail_reprepare: not part of the config's identity (the run a simulated GPU loss
// stopped resumes without it, scripts/check-lost-gpu.sh), nor of the config stored with a run
// (a later invocation of the same run may not have it).
TEST(Config, FailReprepareIsNotPartOfTheIdentityNorStored) {
  const Config off = parse_config(kGood, "/one/place/a.yaml");
  EXPECT_FALSE(off.test_only.fail_reprepare);
  const Config on =
      parse_config(kGood + "test_only: {fail_reprepare: true}\n", "/one/place/a.yaml");
  EXPECT_TRUE(on.test_only.fail_reprepare);
  EXPECT_EQ(to_json(on), to_json(off));
  EXPECT_EQ(config_hash(on), config_hash(off));
  EXPECT_EQ(problem_fingerprint(to_json(on), "g", 64, 1),
            problem_fingerprint(to_json(off), "g", 64, 1));
  expect_error(kGood + "test_only: {fail_reprepare: 2}\n", "test_only.fail_reprepare", 11,
               "expected true or false");
}

// strategy.cutoff: the halving screening's early exit, at least 1.5 times the best, and only
// for halving; stored (and hashed, and in each problem's fingerprint) only when given, so
// configs and runs without it keep their hashes.
TEST(Config, ScreeningCutoff) {
  const std::string halving = kGood + "strategy: {kind: halving, eta: 3}\n";
  const Config off = parse_config(halving, "/one/place/a.yaml");
  EXPECT_EQ(off.strategy.cutoff, 0.0);
  EXPECT_FALSE(to_json(off)["strategy"].contains("cutoff"));
  const Config on =
      parse_config(replace(halving, "eta: 3}", "eta: 3, cutoff: 4}"), "/one/place/a.yaml");
  EXPECT_DOUBLE_EQ(on.strategy.cutoff, 4.0);
  EXPECT_DOUBLE_EQ(to_json(on)["strategy"]["cutoff"].get<double>(), 4.0);
  EXPECT_NE(config_hash(on), config_hash(off));
  EXPECT_NE(problem_fingerprint(to_json(on), "g", 64, 1),
            problem_fingerprint(to_json(off), "g", 64, 1));
  expect_error(replace(halving, "eta: 3}", "eta: 3, cutoff: 1.2}"), "strategy.cutoff", 11,
               "1.2 is out of range [1.5, 1000]");
  expect_error(replace(halving, "eta: 3}", "eta: 3, cutoff: 0}"), "strategy.cutoff", 11,
               "0 is out of range [1.5, 1000]");
  expect_error(replace(halving, "eta: 3}", "eta: 3, cutoff: 2000}"), "strategy.cutoff", 11,
               "leave the key out");
  expect_error(replace(halving, "eta: 3}", "eta: 3, cutoff: x}"), "strategy.cutoff", 11,
               "expected a number");
  expect_error(kGood + "strategy: {kind: exhaustive, cutoff: 3}\n", "strategy.cutoff", 11,
               "the exhaustive strategy has none");
  // The README's main config screens with it on.
  EXPECT_GE(load_config(kConfigs + "h100.yaml").strategy.cutoff, 1.5);
}

// The README's main job searches what the H200's config searches: h100.yaml takes h200.yaml as
// its base and differs in its name, its output and one addition, the tensor-core sweep at the
// end of uniform 2M's colblock list (h200.yaml's stays its recorded run's); both screen with
// the cutoff.
TEST(Config, H100SearchesTheH200Space) {
  nlohmann::json h100 = to_json(load_config(kConfigs + "h100.yaml"));
  const nlohmann::json h200 = to_json(load_config(kConfigs + "h200.yaml"));
  EXPECT_EQ(h100["name"], "h100");
  EXPECT_DOUBLE_EQ(h100["strategy"]["cutoff"].get<double>(), 3.0);
  bool swept = false;
  for (nlohmann::json& g : h100["graphs"]) {
    if (g["name"] != "uniform_2m_d32") continue;
    nlohmann::json& list = g["space"]["colblock"];
    ASSERT_FALSE(list.empty());
    EXPECT_EQ(list.back(), "r24.ps16.lag8.mma");
    list.erase(list.size() - 1);
    swept = true;
  }
  EXPECT_TRUE(swept);
  for (const char* key : {"arch", "graphs", "space", "constraints", "baselines", "strategy",
                          "timing", "verify", "counters", "test_only"})
    EXPECT_EQ(h100[key], h200[key]) << key;
  EXPECT_NE(h100["output"], h200["output"]);
}

// `base:` a config of the same folder, each top-level key replaced whole; its errors name the
// file they are in.
TEST(Config, BaseConfig) {
  const fs::path dir = fs::temp_directory_path() / ("csrgat-base-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  write("base.yaml", kGood + "strategy: {kind: halving, eta: 3}\n");
  const Config c = load_config(write(
      "child.yaml", "base: base.yaml\nname: child\nspace:\n  tpr: [32]\n  fl: [8]\n  rpb: [4]\n"));
  EXPECT_EQ(c.name, "child");
  EXPECT_EQ(c.space.tpr, (std::vector<int>{32}));     // the child's space, whole
  EXPECT_EQ(c.strategy.kind, StrategyKind::halving);  // the base's strategy
  ASSERT_EQ(c.graphs.size(), 1u);
  EXPECT_EQ(c.constraints.size(), 1u);
  EXPECT_EQ(c.source, (dir / "child.yaml").string());
  const auto error_of = [&](const std::string& text) {
    try {
      load_config(write("bad.yaml", text));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("base: ../base.yaml\n").find("a file name, not a path"), std::string::npos);
  EXPECT_NE(error_of("base: nope.yaml\n").find("does not exist"), std::string::npos);
  fs::create_directories(dir / "folder.yaml");  // not said not to exist: said what it is
  EXPECT_NE(
      error_of("base: folder.yaml\n")
          .find("base config '" + (dir / "folder.yaml").string() + "' is a folder, not a file"),
      std::string::npos)
      << error_of("base: folder.yaml\n");
  EXPECT_NE(error_of("base: bad.yaml\n").find("its own base"), std::string::npos);
  EXPECT_NE(error_of("base: base.yaml\nspcae: {}\n").find("did you mean 'space'"),
            std::string::npos);
  write("nested.yaml", "base: base.yaml\n");
  EXPECT_NE(error_of("base: nested.yaml\n").find("names a base of its own"), std::string::npos);
  // The child's own keys keep their lines; its name and output are its own, not the base's.
  const std::string budget = error_of("base: base.yaml\nname: c\nstrategy: {kind: random}\n");
  EXPECT_NE(budget.find("bad.yaml: line 3"), std::string::npos) << budget;
  const Config unnamed = load_config(write("unnamed.yaml", "base: base.yaml\n"));
  EXPECT_EQ(unnamed.name, "unnamed");
  EXPECT_EQ(unnamed.output_text, "runs/unnamed");  // the default, not the base's
  // An inherited key's error found after parsing (the child's space leaves the base's
  // constraint no variant) names the base, whose line it gives.
  const Config narrow = load_config(
      write("narrow.yaml", "base: base.yaml\nspace:\n  tpr: [8]\n  fl: [16]\n  rpb: [1]\n"));
  try {
    check_space(narrow);
    ADD_FAILURE() << "no error for a space the constraints empty";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), (dir / "base.yaml").string()) << e.what();
    EXPECT_EQ(e.line(), 9) << e.what();  // kGood's constraints
  }
  // The child's own constraints empty the base's graph's space: the error is the child's, and
  // the graph's line is said to be the base's.
  const Config strict =
      load_config(write("strict.yaml", "base: base.yaml\nname: s\nconstraints: [\"tpr > 100\"]\n"));
  try {
    check_space(strict);
    ADD_FAILURE() << "no error for a space the constraints empty";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), (dir / "strict.yaml").string()) << e.what();
    EXPECT_NE(std::string(e.what()).find("line " + std::to_string(strict.graphs[0].at.line) +
                                         " of " + (dir / "base.yaml").string() + ")"),
              std::string::npos)
        << e.what();
  }
  // An invalid base is named as itself, whoever loads it.
  write("broken.yaml", kGood + "timing: {warmpu: 3}\n");
  const std::string broken = error_of("base: broken.yaml\n");
  EXPECT_NE(broken.find("broken.yaml"), std::string::npos) << broken;
  EXPECT_NE(broken.find("timing.warmpu"), std::string::npos) << broken;
  fs::remove_all(dir);
}

// `graph_space:` by graph name, keys that replace that graph's space (its own over the
// config's), as if its entry gave them: the same JSON, so the same problem fingerprints; with
// `base:`, on the base's graphs (configs/h100.yaml on h200.yaml's). Its errors name the key.
TEST(Config, GraphSpaceReplacesANamedGraphsKeys) {
  const std::string two = replace(
      kGood, "feat: [64]}",
      "feat: [64]}\n  - {name: h, spec: \"uniform:n=200,deg=4\", feat: [128], space: {rpb: [4]}}");
  const Config patched = parse_config(
      two + "graph_space:\n  h: {fl: [16], colblock: [r24.ps16.lag8.mma]}\n  g: {tpr: [32]}\n",
      "/tmp/cfg/a.yaml");
  const Config inline_ =
      parse_config(replace(replace(two, "space: {rpb: [4]}",
                                   "space: {rpb: [4], fl: [16], colblock: [r24.ps16.lag8.mma]}"),
                           "feat: [64]}", "feat: [64], space: {tpr: [32]}}"),
                   "/tmp/cfg/a.yaml");
  ASSERT_EQ(patched.graphs.size(), 2u);
  const GraphEntry& h = patched.graphs[1];
  ASSERT_TRUE(h.space.has_value());
  EXPECT_EQ(h.space->rpb, (std::vector<int>{4}));  // its own key, kept
  EXPECT_EQ(h.space->fl, (std::vector<int>{16}));
  EXPECT_EQ(h.space->tpr, (std::vector<int>{8, 32}));  // the config's
  EXPECT_EQ(h.space->colblock, (std::vector<std::string>{"r24.ps16.lag8.mma"}));
  EXPECT_EQ(patched.space.fl, (std::vector<int>{8}));  // the config's space untouched
  const nlohmann::json a = to_json(patched), b = to_json(inline_);
  EXPECT_EQ(a["graphs"], b["graphs"]);
  for (const char* g : {"g", "h"}) {
    const int feat = g[0] == 'g' ? 64 : 128;
    EXPECT_EQ(problem_fingerprint(a, g, feat, 1), problem_fingerprint(b, g, feat, 1)) << g;
    EXPECT_NE(problem_fingerprint(a, g, feat, 1),
              problem_fingerprint(to_json(parse_config(two, "/tmp/cfg/a.yaml")), g, feat, 1))
        << g;
  }
  // On a base's graphs.
  const fs::path dir = fs::temp_directory_path() / ("csrgat-gspace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "base.yaml") << two;
  std::ofstream(dir / "child.yaml")
      << "base: base.yaml\ngraph_space:\n  h: {colblock: [r19.ps16.lag8]}\n";
  const Config child = load_config((dir / "child.yaml").string());
  fs::remove_all(dir);
  ASSERT_EQ(child.graphs.size(), 2u);
  EXPECT_FALSE(child.graphs[0].space.has_value());
  ASSERT_TRUE(child.graphs[1].space.has_value());
  EXPECT_EQ(child.graphs[1].space->colblock, (std::vector<std::string>{"r19.ps16.lag8"}));
  EXPECT_EQ(child.graphs[1].space->rpb, (std::vector<int>{4}));
  // Errors: a graph the config does not have, a space key, a value.
  expect_error(two + "graph_space:\n  hh: {fl: [8]}\n", "graph_space.hh", 13,
               "no graph of this config is named 'hh' (did you mean 'h'?); its graphs: g, h");
  expect_error(two + "graph_space:\n  h: {fll: [8]}\n", "graph_space.h.fll", 13,
               "did you mean 'fl'");
  expect_error(two + "graph_space:\n  h: {colblock: [r25.ps16.lag8.mma]}\n",
               "graph_space.h.colblock[0]", 13, "10 to 24");
  expect_error(two + "graph_space: [h]\n", "graph_space", 12, "expected a map");
}

// A column-blocked sweep's geometry: r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma], each in range,
// written as its id; checked with the values it is compiled for (.mma: bfloat16).
TEST(ConfigErrors, ColblockGeometries) {
  const auto with = [](const std::string& list) { return replace(kGood, "fl: [8]", "fl: [8]\n  colblock: " + list); };
  const Config ok = parse_config(with("[r19.ps16.lag8, r19.ps16.lag8.pp512, r19.ps16.lag8.l1p2]"),
                                 "/tmp/cfg/ok.yaml");
  EXPECT_EQ(ok.space.colblock, (std::vector<std::string>{"r19.ps16.lag8", "r19.ps16.lag8.pp512",
                                                         "r19.ps16.lag8.l1p2"}));
  expect_error(with("[r19.ps16.lag8.l1p4]"), "space.colblock[0]", 8,
               "l1p (l1_policy, of the item and score loads) = 4: 0 to 3");
  expect_error(with("[r19.ps16.lag8.l1p0]"), "space.colblock[0]", 8, "write it as r19.ps16.lag8");
  expect_error(with("[r19.ps16.lag8.pp8]"), "space.colblock[0]", 8,
               "pp (poll_pause_ns, the barrier's first sleep) = 8: 32 to 65536");
  expect_error(with("[r19.ps16.lag8.pp0]"), "space.colblock[0]", 8, "write it as r19.ps16.lag8");
  expect_error(with("[r19.ps16.lag8, r19.ps16.lag8]"), "space.colblock[1]", 8, "duplicate value");
  const Config mma =
      parse_config(with("[r24.ps16.lag8.pp1024.mma, r19.ps16.lag8.mma]"), "/tmp/cfg/mma.yaml");
  EXPECT_EQ(mma.space.colblock,
            (std::vector<std::string>{"r24.ps16.lag8.pp1024.mma", "r19.ps16.lag8.mma"}));
  expect_error(with("[r25.ps16.lag8.mma]"), "space.colblock[0]", 8,
               "r (rows_per_warp) with mma (tensor_cores) = 25: 10 to 24");
  expect_error(with("[r24.ps16.lag8.l1p1.mma]"), "space.colblock[0]", 8,
               "l1p (l1_policy) 1 is compiled for float32 values only");
  expect_error(with("[r24.ps16.lag8.mma.pp1024]"), "space.colblock[0]", 8,
               "write it as r24.ps16.lag8.pp1024.mma");
}

// The architecture: sm_ and a compute capability this NVRTC compiles for, with an optional a or
// f suffix (sm_90a); anything else is named at its key, not at every compile (a review found
// sm_90x, sm_90A, sm_090, sm_55 and NVRTC 13's dropped sm_50 and sm_70 passing the old form check
// and failing each variant's compile instead).
TEST(ConfigErrors, ArchIsAComputeCapabilityNvrtcCompilesFor) {
  for (const char* ok : {"sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_120", "sm_80"})
    EXPECT_EQ(
        parse_config(replace(kGood, "arch: sm_90", std::string("arch: ") + ok), "/tmp/cfg/a.yaml")
            .arch,
        ok);
  for (const char* bad :
       {"sm_9", "sm_10", "sm_1000", "sm_", "sm_90ab", "90", "compute_90", "sm_90x", "sm_90A",
        "sm_090", "sm_55", "sm_199", "sm_50", "sm_80a", "sm_86a", "sm_75f", "sm_90f"})
    expect_error(replace(kGood, "arch: sm_90", std::string("arch: ") + bad), "arch", 2,
                 std::string("compiles for (sm_"));
  const auto archs = csrgat::tuner::NvrtcCompiler::supported_archs();
  ASSERT_FALSE(archs.empty());
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end());
  EXPECT_EQ(csrgat::tuner::NvrtcCompiler::arch_problem("sm_90"), "");
  EXPECT_NE(csrgat::tuner::NvrtcCompiler::arch_problem("sm_55").find("found 'sm_55'"),
            std::string::npos);
  // Where the code runs: its major's same or later minors, an a-suffixed target's own alone.
  using csrgat::tuner::NvrtcCompiler;
  EXPECT_TRUE(NvrtcCompiler::arch_runs_on("sm_90", 9, 0));
  EXPECT_TRUE(NvrtcCompiler::arch_runs_on("sm_90a", 9, 0));
  EXPECT_FALSE(NvrtcCompiler::arch_runs_on("sm_90", 10, 0));
  EXPECT_TRUE(NvrtcCompiler::arch_runs_on("sm_80", 8, 6));  // a later minor of its major
  EXPECT_FALSE(NvrtcCompiler::arch_runs_on("sm_86", 8, 0));
  EXPECT_FALSE(NvrtcCompiler::arch_runs_on("sm_100a", 10, 3));
  EXPECT_TRUE(NvrtcCompiler::arch_runs_on("sm_100f", 10, 3));
  EXPECT_FALSE(NvrtcCompiler::arch_runs_on("sm_103f", 10, 0));
  EXPECT_FALSE(NvrtcCompiler::arch_runs_on("sm_100f", 12, 0));
}

// A config is one YAML document: a second one (after ---) is an error at its line, not dropped;
// and a folder given as the config is named as one.
TEST(ConfigErrors, ASecondDocumentOrAFolderIsNamed) {
  std::string two = kGood;
  if (two.back() != '\n') two += '\n';
  const int next = static_cast<int>(std::count(two.begin(), two.end(), '\n')) + 2;
  expect_error(two + "---\nname: other\n", "", next,
               "a second YAML document: a config is one document");
  // What is not a regular file is refused before it is opened: a device is not read until 16 MiB,
  // and a FIFO with no writer (a review: `mkfifo f.yaml; tuner list f.yaml` waited forever) does
  // not block the command.
  const fs::path fifo =
      fs::temp_directory_path() / ("csrgat-config-fifo-" + std::to_string(getpid()));
  fs::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo.string()}) {
    try {
      load_config(path);
      ADD_FAILURE() << path << " loaded as a config";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("config file '" + path + "' is not a regular file"),
                std::string::npos)
          << e.what();
    }
  }
  fs::remove(fifo);
  try {
    load_config(fs::temp_directory_path().string());
    ADD_FAILURE() << "a folder loaded as a config";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder, not a config file"), std::string::npos)
        << e.what();
  }
}

// The problems a config makes (each graph's feat x heads) are bounded as each problem's space
// is: a review's 12,800 problems took `tuner list` hours. 4096 pass; one more is named at the
// graph that crosses the bound.
TEST(ConfigErrors, TooManyProblemsAreNamed) {
  const auto feats = [](int from, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(from + i);
    return s;
  };
  std::string heads;
  for (int h = 1; h <= 64; ++h) heads += (h > 1 ? ", " : "") + std::to_string(h);
  const std::string g1 = "  - {name: g, spec: \"uniform:n=100,deg=4\", feat: [" + feats(1, 64) +
                         "], heads: [" + heads + "]}\n";
  const std::string base =
      replace(kGood, "  - {name: g, spec: \"uniform:n=100,deg=4\", feat: [64]}\n", g1);
  EXPECT_NO_THROW(parse_config(base, "/tmp/cfg/ok.yaml"));  // 64 x 64 = 4096
  expect_error(replace(base, g1, g1 + "  - {name: h, spec: \"uniform:n=100,deg=4\", feat: [64]}\n"),
               "graphs[1]", 5, "the graphs up to 'h' make 4097 problems");
}

// A graph path that is a folder is named at its key.
TEST(ConfigErrors, AGraphFolderIsNamed) {
  const fs::path folder = fs::temp_directory_path() / "csrgat-config-folder.mtx";
  fs::create_directories(folder);
  expect_error(replace(kGood, "spec: \"uniform:n=100,deg=4\"", "spec: \"" + folder.string() + "\""),
               "graphs[0].spec", 4, "graph file '" + folder.string() + "' is a folder");
  fs::remove_all(folder);
}

// A name of dots only would make runs/<name> the runs folder itself or its parent.
TEST(ConfigErrors, NamesAreNotOnlyDots) {
  expect_error(replace(kGood, "name: t", "name: '..'"), "name", 1, "(not only dots)");
  expect_error(replace(kGood, "{name: g,", "{name: '.',"), "graphs[0].name", 4, "(not only dots)");
  EXPECT_EQ(parse_config(replace(kGood, "name: t", "name: v1.2"), "/tmp/cfg/a.yaml").name, "v1.2");
}

TEST(ConfigErrors, EmptyLists) {
  expect_error(replace(kGood, "fl: [8]", "fl: []"), "space.fl", 7, "empty");
  expect_error(replace(kGood, "feat: [64]", "feat: []"), "graphs[0].feat", 4, "empty");
  expect_error("arch: sm_90\ngraphs: []\nspace: {}\n", "graphs", 2, "empty");
}

TEST(ConfigErrors, ValuesOutOfTheirDomain) {
  expect_error(replace(kGood, "rpb: [1, 4]", "vec: [1, 2, 3]\n  rpb: [1, 4]"), "space.vec[2]", 8,
               "vec must be one of 1, 2, 4, 8");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: [8, 24]"), "space.tpr[1]", 6, "power of two");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: [8, 2048]"), "space.tpr[1]", 6, "out of range");
  expect_error(replace(kGood, "fl: [8]", "fl: [64]"), "space.fl[0]", 7, "out of range");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [0]"), "space.rpb[0]", 8, "out of range");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1, 4, 1]"), "space.rpb[2]", 8,
               "duplicate value");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1]\n  smem: [0, 4]"), "space.smem[1]", 9,
               "expected 0, 1, 2, 3, true or false");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1]\n  split: [-1]"), "space.split[0]", 9,
               "out of range");
  expect_error(replace(kGood, "feat: [64]", "feat: [0]"), "graphs[0].feat[0]", 4, "out of range");
  expect_error(replace(kGood, "feat: [64]", "feat: [64], heads: [100]"), "graphs[0].heads[0]", 4,
               "out of range");
  expect_error(replace(kGood, "arch: sm_90", "arch: hopper"), "arch", 2, "sm_90");
  expect_error(kGood + "verify: {rel_tol_f32: 0}\n", "verify.rel_tol_f32", 11, "out of range");
  expect_error(kGood + "timing: {min_samples: 10, max_samples: 5}\n", "timing.max_samples", 11,
               "below min_samples");
  expect_error(kGood + "strategy: {kind: halving, eta: 1}\n", "strategy.eta", 11, "out of range");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: {from: 64, to: 8, mul: 2}"), "space.tpr.to", 6,
               "below 'from'");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: {from: 8, to: 64}"), "space.tpr", 6,
               "exactly one of 'mul'");
  expect_error(replace(kGood, "tpr: [8, 32]", "tpr: {from: 8, to: 96, step: 8}"), "space.tpr", 6,
               "power of two");
}

TEST(ConfigErrors, UnknownNames) {
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1]\n  softmax: [twopass, onlin]"),
               "space.softmax[1]", 9, "did you mean 'online'");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1]\n  index: [i16]"), "space.index[0]", 9,
               "unknown index type 'i16'");
  expect_error(replace(kGood, "rpb: [1, 4]", "rpb: [1]\n  value: [fp32]"), "space.value[0]", 9,
               "did you mean 'f32'");
  expect_error(replace(kGood, "feat: [64]", "feat: [64], value: [f64]"), "graphs[0].value[0]", 4,
               "unknown value type");
  expect_error(kGood + "baselines: [seed, cublas]\n", "baselines[1]", 11, "unknown baseline");
  expect_error(kGood + "strategy: {kind: grid}\n", "strategy.kind", 11, "unknown strategy");
  expect_error(kGood + "timing: {cache: hot}\n", "timing.cache", 11, "unknown cache mode");
  expect_error(replace(kGood, "uniform:n=100", "unifrom:n=100"), "graphs[0].spec", 4,
               "did you mean 'uniform'");
  expect_error(replace(kGood, "uniform:n=100,deg=4", "graph.csv"), "graphs[0].spec", 4,
               "neither a generator");
  expect_error(replace(kGood, "uniform:n=100,deg=4", "uniform:n=100,deg"), "graphs[0].spec", 4,
               "expected key=value");
  // A generator's value out of range stops the config here, not the run after the other graphs.
  expect_error(replace(kGood, "uniform:n=100,deg=4", "uniform:n=-5,deg=4"), "graphs[0].spec", 4,
               "uniform: n = -5 is out of range");
  expect_error(replace(kGood, "uniform:n=100,deg=4", "powerlaw:n=100,deg=4,alpha=0"),
               "graphs[0].spec", 4, "powerlaw: alpha = 0");
  expect_error(kGood + "test_only: {fault_variants: [csrgat.tpr32.bogus]}\n",
               "test_only.fault_variants[0]", 11, "unknown part 'bogus'");
  expect_error(kGood + "test_only: {fault_variants: [seed.i32.f32]}\n",
               "test_only.fault_variants[0]", 11, "no fault part");
  expect_error(kGood + "test_only: {delay_variants: [seed.i32.f32]}\n",
               "test_only.delay_variants[0]", 11, "no delay part");
}

TEST(ConfigErrors, MissingRequiredKeys) {
  expect_error(replace(kGood, "arch: sm_90\n", ""), "arch", 1, "missing required key 'arch'");
  expect_error("arch: sm_90\nspace: {}\n", "graphs", 1, "missing required key 'graphs'");
  expect_error("arch: sm_90\ngraphs: [{name: g, spec: 'seed:n=8,deg=4', feat: [8]}]\n", "space", 1,
               "missing required key 'space'");
  expect_error(replace(kGood, "{name: g, ", "{"), "graphs[0]", 4, "missing required key 'name'");
  expect_error(replace(kGood, ", feat: [64]", ""), "graphs[0]", 4, "missing required key 'feat'");
  expect_error("", "", 1, "must be a map");
}

TEST(ConfigErrors, MoreStructuralMistakes) {
  expect_error(
      replace(kGood, "feat: [64]}", "feat: [64]}\n  - {name: g, spec: 'seed:n=8,deg=4', feat: [8]}"),
      "graphs[1]", 5, "duplicate graph name 'g'");
  expect_error(kGood + "strategy: {kind: random}\n", "strategy.budget", 11, "needs budget > 0");
  // A YAML syntax error has no key path, but still its line.
  expect_error("arch: sm_90\ngraphs: [1, 2\nspace: {}\n", "", 3, "YAML syntax");
}

TEST(ConfigErrors, ConstraintsThatDoNotParse) {
  const ConfigError e = parse_error(kGood + "  - \"fl * vec <=\"\n");
  EXPECT_EQ(e.key_path(), "constraints[1]");
  EXPECT_EQ(e.line(), 11);
  // The column points into the file: the quote is at 5, the expression ends at its column 12.
  EXPECT_EQ(e.column(), 5 + 12);
  EXPECT_NE(std::string(e.what()).find("expected a number"), std::string::npos) << e.what();
  expect_error(kGood + "  - \"tprr <= 4\"\n", "constraints[1]", 11, "did you mean 'tpr'");
  expect_error(kGood + "  - \"fl = tpr\"\n", "constraints[1]", 11, "did you mean '=='");
}

TEST(ConfigErrors, ImpossibleConstraintsNameTheGraphAndF) {
  const Config c =
      parse_config(replace(kGood, "feat: [64]}",
                           "feat: [64]}\n  - {name: tiny, spec: 'seed:n=8,deg=4', feat: [64, 3]}") +
                       "  - \"fl * vec <= feat\"\n",
                   "/tmp/cfg/bad.yaml");
  try {
    check_space(c);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.key_path(), "constraints");
    EXPECT_EQ(e.line(), 10);
    EXPECT_NE(what.find("line 10"), std::string::npos) << what;
    EXPECT_NE(what.find("graph 'tiny' (graphs[1], line 5)"), std::string::npos) << what;
    EXPECT_NE(what.find("feat=3"), std::string::npos) << what;
    EXPECT_NE(what.find("constraint 'fl * vec <= feat' false"), std::string::npos) << what;
  }
}

// ---------------------------------------------------------------- expressions

double ev(const std::string& text, const std::map<std::string, double>& vars = {}) {
  return Expr::parse(text).eval(vars);
}

TEST(Expr, PrecedenceAndAssociativity) {
  EXPECT_EQ(ev("1 + 2 * 3"), 7);
  EXPECT_EQ(ev("(1 + 2) * 3"), 9);
  EXPECT_EQ(ev("10 - 4 - 3"), 3);  // left associative
  EXPECT_EQ(ev("64 / 4 / 2"), 8);
  EXPECT_EQ(ev("7 % 4 * 2"), 6);
  EXPECT_EQ(ev("-2 * -3"), 6);
  EXPECT_EQ(ev("2 - -2"), 4);
  EXPECT_EQ(ev("1 || 0 && 0"), 1);  // && binds tighter than ||
  EXPECT_EQ(ev("(1 || 0) && 0"), 0);
  EXPECT_EQ(ev("!0 && 1"), 1);
  EXPECT_EQ(ev("!1 + 1"), 1);          // ! binds tighter than +
  EXPECT_EQ(ev("1 < 2 == 2 < 3"), 1);  // comparisons before equality
  EXPECT_EQ(ev("1 + 1 == 2 && 3 > 2"), 1);
  EXPECT_EQ(ev("2 <= 2 && 2 >= 3"), 0);
  EXPECT_EQ(ev("1 != 2"), 1);
  EXPECT_EQ(ev("0.5 * 4"), 2);
  EXPECT_EQ(ev("1e3 + .5"), 1000.5);
}

TEST(Expr, VariablesFunctionsAndIn) {
  const std::map<std::string, double> v{{"tpr", 64}, {"fl", 16}, {"feat", 3}};
  EXPECT_EQ(ev("feat / 2", v), 1.5);  // true division
  EXPECT_EQ(ev("min(tpr, 32)", v), 32);
  EXPECT_EQ(ev("max(fl, feat, 2)", v), 16);
  EXPECT_EQ(ev("fl in [1, 2, 16]", v), 1);
  EXPECT_EQ(ev("fl in [1, 2, 4]", v), 0);
  EXPECT_EQ(ev("tpr / 4 in [fl, 8]", v), 1);
  EXPECT_EQ(ev("tpr == 64 || tpr / 0 > 1", v), 1);  // short-circuit
  EXPECT_TRUE(Expr::parse("fl <= tpr").holds(v));
  EXPECT_EQ(Expr::parse("fl * fl <= tpr + feat").identifiers(),
            (std::vector<std::string>{"feat", "fl", "tpr"}));
  EXPECT_EQ(Expr().eval({}), 1);
}

TEST(Expr, ParseErrorsNameTheColumnAndWhatWasExpected) {
  auto err = [](const std::string& text) {
    try {
      Expr::parse(text);
    } catch (const ExprError& e) {
      return std::make_pair(e.column(), std::string(e.what()));
    }
    ADD_FAILURE() << "parsed: " << text;
    return std::make_pair(0, std::string());
  };
  auto [c1, m1] = err("fl <=");
  EXPECT_EQ(c1, 6);
  EXPECT_NE(m1.find("column 6: expected a number, an identifier"), std::string::npos) << m1;
  EXPECT_NE(m1.find("end of input"), std::string::npos) << m1;
  auto [c2, m2] = err("(fl + 1");
  EXPECT_EQ(c2, 8);
  EXPECT_NE(m2.find("expected ')'"), std::string::npos) << m2;
  auto [c3, m3] = err("fl tpr");
  EXPECT_EQ(c3, 4);
  EXPECT_NE(m3.find("expected an operator or end of input, found identifier 'tpr'"),
            std::string::npos)
      << m3;
  auto [c4, m4] = err("fl & tpr");
  EXPECT_EQ(c4, 4);
  EXPECT_NE(m4.find("did you mean '&&'"), std::string::npos) << m4;
  auto [c5, m5] = err("4x");
  EXPECT_EQ(c5, 2);
  auto [c6, m6] = err("vec in [1, 2");
  EXPECT_NE(m6.find("expected ',' or ']'"), std::string::npos) << m6;
  auto [c7, m7] = err("log(fl)");
  EXPECT_NE(m7.find("unknown function 'log'"), std::string::npos) << m7;
  auto [c8, m8] = err("1 * * 2");
  EXPECT_EQ(c8, 5);
  auto [c9, m9] = err("");
  EXPECT_NE(m9.find("end of input"), std::string::npos) << m9;
  auto [c10, m10] = err(std::string(500, '(') + "1" + std::string(500, ')'));
  EXPECT_NE(m10.find("nested too deeply"), std::string::npos) << m10;
  auto [c11, m11] = err("1e+");
  EXPECT_NE(m11.find("exponent"), std::string::npos) << m11;
  // A long chain of one operator: refused by its length, not a stack overflow (40000 terms
  // crashed the parser's recursion before).
  std::string chain = "tpr";
  for (int i = 0; i < 40000; ++i) chain += " + 1";
  auto [c12, m12] = err(chain + " > 0");
  EXPECT_NE(m12.find("expression too long (more than 4096 tokens)"), std::string::npos) << m12.substr(0, 200);
  EXPECT_LT(m12.size(), 200u);
  std::string fits = "tpr";
  for (int i = 0; i < 1000; ++i) fits += " + 1";
  EXPECT_NO_THROW(Expr::parse(fits + " > 0"));
}

TEST(Expr, EvaluationErrorsNameTheIdentifier) {
  const Expr e = Expr::parse("fl <= tprr");
  try {
    e.eval({{"fl", 1}, {"tpr", 2}});
    FAIL();
  } catch (const ExprError& x) {
    const std::string m = x.what();
    EXPECT_NE(m.find("unknown identifier 'tprr'"), std::string::npos) << m;
    EXPECT_NE(m.find("known: fl, tpr"), std::string::npos) << m;
    EXPECT_EQ(x.column(), 7);
  }
  EXPECT_THROW(ev("1 / 0"), ExprError);
  EXPECT_THROW(ev("1 % 0"), ExprError);
}

TEST(ClosestMatch, SuggestsOnlyNearWords) {
  EXPECT_EQ(closest_match("tprr", kConstraintVariables), "tpr");
  EXPECT_EQ(closest_match("fetures", {"feat", "features"}), "features");
  EXPECT_EQ(closest_match("zzzzzz", {"tpr", "fl"}), "");
}

}  // namespace
}  // namespace csrgat::tuner
