// The tuner's commands on bad input, end to end through the executable: each error names what
// and where, and exits with the code its command documents.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "scratch.h"
#include "tuner_exe.h"

namespace fs = std::filesystem;
using csrgat::testing_tuner::tuner;

namespace {
fs::path test_dir() {
  return csrgat::testing_scratch::test_dir("cli_errors");
}
void write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}
}  // namespace

// tuner compare: 1 and 2 are verdicts (slower, refused); an error is 3, and names the run source.
TEST(CompareCli, AnErrorIsExitThreeAndNamesTheSource) {
  const fs::path dir = test_dir();
  const std::string out = " -o " + (dir / "out").string();
  auto [rc, text] = tuner("compare " + (dir / "nope.sqlite").string() + " " +
                          (dir / "nope2.sqlite").string() + out);
  EXPECT_EQ(rc, 3) << text;
  EXPECT_NE(text.find("nope.sqlite' does not exist"), std::string::npos) << text;
  // A SQLite file of another schema: SQLite's own error, with the file it came from.
  const fs::path other = dir / "other.sqlite";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE runs (id INTEGER)", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  std::tie(rc, text) = tuner("compare " + other.string() + " " + other.string() + out);
  EXPECT_EQ(rc, 3) << text;
  EXPECT_NE(text.find(other.string()), std::string::npos) << text;
  // An exported run whose fields have the wrong types: the JSON library's error, with the file.
  const fs::path js = dir / "bad.json";
  write_file(js, R"({"meta": {"format": "nvbench-like"}, "runs": 7, "states": "oops"})");
  std::tie(rc, text) = tuner("compare " + js.string() + " " + js.string() + out);
  EXPECT_EQ(rc, 3) << text;
  EXPECT_NE(text.find(js.string()), std::string::npos) << text;
}

// A run export of another format or with fields of the wrong kind is refused by name, not read
// as a run that lost every trial (a probing review: "states": "oops" read as "REGRESSION, 6 lost").
TEST(CompareCli, AnExportOfAnotherFormatIsRefused) {
  const fs::path dir = test_dir();
  const std::string store =
      std::string(CSRGAT_SOURCE_DIR) + "/tests/data/recorded/synthetic.sqlite";
  const fs::path good = dir / "run.json";
  auto [rc, text] = tuner("export " + store + " -o " + good.string());
  ASSERT_EQ(rc, 0) << text;
  std::ifstream in(good);
  const nlohmann::json j = nlohmann::json::parse(in);
  const std::string out = " -o " + (dir / "out").string();
  struct Case {
    const char* name;
    std::function<void(nlohmann::json&)> edit;
    const char* says;
  };
  for (const Case& c : {Case{"states", [](nlohmann::json& x) { x["states"] = "oops"; },
                             "\"states\" is string, not a list"},
                        Case{"format", [](nlohmann::json& x) { x["meta"]["format"] = "nvbench"; },
                             "meta.format is \"nvbench\""},
                        Case{"version", [](nlohmann::json& x) { x["meta"]["version"] = 99; },
                             "meta.version is 99"}}) {
    nlohmann::json bad = j;
    c.edit(bad);
    const fs::path p = dir / (std::string(c.name) + ".json");
    write_file(p, bad.dump());
    std::tie(rc, text) = tuner("compare " + good.string() + " " + p.string() + out);
    EXPECT_EQ(rc, 3) << c.name << ": " << text;
    EXPECT_NE(text.find(c.says), std::string::npos) << c.name << ": " << text;
    EXPECT_NE(text.find(p.string()), std::string::npos) << c.name << ": " << text;
  }
  std::tie(rc, text) = tuner("compare " + good.string() + " " + good.string() + out);
  EXPECT_EQ(rc, 0) << text;
}

// tuner compile --threads: a count the system cannot start is refused by the option's range.
TEST(CompileCli, ThreadsOutOfRangeIsNamed) {
  const auto [rc, text] =
      tuner("compile " + std::string(CSRGAT_SOURCE_DIR) + "/configs/smoke.yaml --threads 40000");
  EXPECT_NE(rc, 0) << text;
  EXPECT_NE(text.find("--threads"), std::string::npos) << text;
  EXPECT_EQ(text.find("terminate"), std::string::npos) << text;
}

// A folder where a file is wanted is named as one (peers JSON, a header to promote).
TEST(ReportCli, AFolderForAFileIsNamed) {
  const fs::path dir = test_dir();
  const std::string store =
      std::string(CSRGAT_SOURCE_DIR) + "/tests/data/recorded/synthetic.sqlite";
  auto [rc, text] =
      tuner("report " + store + " --peers " + dir.string() + " -o " + (dir / "r").string());
  EXPECT_EQ(rc, 1) << text;
  EXPECT_NE(text.find("peers file '" + dir.string() + "' is a folder"), std::string::npos) << text;
  std::tie(rc, text) = tuner("promote " + dir.string());
  EXPECT_EQ(rc, 1) << text;
  EXPECT_NE(text.find("'" + dir.string() + "' is a folder"), std::string::npos) << text;
}

// Where a report goes without -o: a run folder's inside it, beside its results.sqlite; a folder
// of stores' (the recorded runs) beside the folder, as a single store file's, never into it.
TEST(ReportCli, TheDefaultOutputLiesBesideTheStore) {
  const fs::path dir = test_dir() / "default-out";
  fs::remove_all(dir);
  const fs::path synthetic = fs::path(CSRGAT_SOURCE_DIR) / "tests/data/recorded/synthetic.sqlite";
  fs::create_directories(dir / "stores");
  fs::copy_file(synthetic, dir / "stores" / "run-0001.sqlite");
  fs::create_directories(dir / "run");
  fs::copy_file(synthetic, dir / "run" / "results.sqlite");
  auto [rc, text] = tuner("report " + (dir / "stores").string() + "/");
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(fs::exists(dir / "report" / "report.md")) << text;
  EXPECT_FALSE(fs::exists(dir / "stores" / "report")) << text;
  std::tie(rc, text) = tuner("report " + (dir / "run").string());
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(fs::exists(dir / "run" / "report" / "report.md")) << text;
}

// A folder given as a graph is named as one (the readers would call it a corrupt gzip stream).
TEST(GraphInfoCli, AFolderIsNamed) {
  const fs::path dir = test_dir() / "g.mtx.gz";
  fs::create_directories(dir);
  const auto [rc, text] = tuner("graph-info " + dir.string());
  EXPECT_EQ(rc, 1) << text;
  EXPECT_NE(text.find("graph file '" + dir.string() + "' is a folder, not a file"),
            std::string::npos)
      << text;
}

// The GPU commands check their arguments before the GPU check and before any graph is built: a
// typo is named at once, here without a GPU as on one, never hidden behind "needs a CUDA GPU" nor
// reported after the graphs before it were timed (a probing review of the thirty-fifth-plus
// sessions' CLI). Each case: arguments, exit status, a piece of the message.
TEST(GpuCommandsCli, ArgumentErrorsComeBeforeTheGpuCheck) {
  const fs::path dir = test_dir();
  const std::string g = " --graph seed:n=384,deg=18";
  const std::string missing = (dir / "missing.mtx").string();
  // A config whose graph file is not there: run and check refuse it before measuring anything;
  // list, which needs no graph, warns.
  const fs::path cfg = dir / "missing-graph.yaml";
  write_file(cfg, "name: mg\narch: sm_90\noutput: out\ngraphs:\n  - {name: gone, spec: \"" +
                      missing + "\", feat: [64]}\nspace:\n  tpr: [32]\n");
  const std::tuple<std::string, int, std::string> cases[] = {
      {"bench" + g + " --impl foo", 1, "bench --impl foo: variant id 'foo'"},
      {"bench" + g + " --impl ,,,", 1, "bench --impl ',,,': names nothing"},
      {"bench" + g + " --impl tuned,bogus:pdl", 1, "bench --impl bogus:pdl"},
      {"bench --graph " + missing, 1,
       "bench --graph '" + missing + "': graph file '" + missing + "' does not exist"},
      {"bench" + g + " --graph uniform:n=10,deg=abc", 1,
       "bench --graph: graph spec 'uniform:n=10,deg=abc': bad value 'abc'"},
      {"bench" + g + " --json " + (dir / "no" / "x.json").string(), 1, "does not exist"},
      {"bench" + g + " --json " + dir.string(), 1, "is a folder, not a file"},
      {"bench" + g + " --feat 0", 105, "--feat"},
      {"bench" + g + " --heads -1", 105, "--heads"},
      {"bench" + g + " --cache lukewarm", 105, "--cache"},
      {"bench" + g + " --max-samples 0", 105, "--max-samples"},
      {"bench" + g + " --max-seconds nan", 1, "bench --max-seconds"},
      {"bench" + g + " --max-noise -1", 1, "bench --max-noise"},
      {"bench" + g + " --seed -1", 105, "a seed is a decimal integer"},
      {"bench" + g + " --seed 99999999999999999999", 105, "a seed is a decimal integer"},
      {"bench --config " + (dir / "nope.yaml").string(), 1, "nope.yaml"},
      {"bench --config " + cfg.string(), 1,
       "graph 'gone': graph file '" + missing + "' does not exist"},
      {"bench", 1, "give --graph SPEC"},
      {"profile" + g + " --variant bogus", 1, "profile --variant: variant id 'bogus'"},
      {"profile --graph " + missing + " --variant seed.i32.f32", 1, "does not exist"},
      {"profile" + g + " --variant seed.i32.f32 --iters -5", 105, "--iters"},
      {"timeline" + g + " --variant ,", 1, "timeline --variant ',': names nothing"},
      {"timeline" + g + " --variant seed.i32.f32", 1, "only fused variants"},
      {"timeline" + g +
           " --variant csrgat.tpr8.fl8.rpb4.vec4.t1.smem0.twopass.split0.i32.f32 --launches 0",
       105, "--launches"},
      {"timeline" + g +
           " --variant csrgat.tpr8.fl8.rpb4.vec4.t1.smem0.twopass.split0.i32.f32 --last -1",
       105, "--last"},
      {"timeline" + g +
           " --variant csrgat.tpr8.fl8.rpb4.vec4.t1.smem0.twopass.split0.i32.f32 --json " +
           (dir / "no" / "t.json").string(),
       1, "timeline --json"},
      {"check " + cfg.string() + " --seed abc", 105, "a seed is a decimal integer"},
      {"bogus", 109, "unknown command 'bogus'"},
      {"bench --graph file:/dev/null", 1, "is not a regular file"},
  };
  for (const auto& [args, want_rc, want] : cases) {
    const auto [rc, text] = tuner(args);
    EXPECT_EQ(rc, want_rc) << args << "\n" << text;
    EXPECT_NE(text.find(want), std::string::npos) << args << "\n" << text;
    EXPECT_EQ(text.find("needs a CUDA GPU"), std::string::npos) << args << "\n" << text;
  }
  // run and check name the missing graph file first; without a GPU the no-GPU message (and its
  // exit code, 2) follows, so that a fresh machine learns both.
  for (const std::string cmd : {"run ", "check "}) {
    const auto [rc, text] = tuner(cmd + cfg.string());
    EXPECT_NE(text.find("graph 'gone': graph file '" + missing + "' does not exist"),
              std::string::npos)
        << text;
    EXPECT_TRUE(rc == 1 || (rc == 2 && text.find("needs a CUDA GPU") != std::string::npos)) << text;
  }
  // A run that may resume (its store exists) may have finished the graph whose file is gone:
  // not refused before the GPU check (with a GPU, run_tuning refuses it if it is unfinished).
  fs::create_directories(dir / "out");
  write_file(dir / "out" / "results.sqlite", "");
  {
    const auto [rc, text] = tuner("run " + cfg.string());
    if (rc == 2) {
      EXPECT_NE(text.find("needs a CUDA GPU"), std::string::npos) << text;
      EXPECT_EQ(text.find("does not exist"), std::string::npos) << text;  // not refused first
    } else {
      EXPECT_NE(text.find("graph 'gone'"), std::string::npos) << text;
    }
  }
  // A spec that is no file and no generator is the spec parser's to name, not "does not exist".
  {
    const auto [rc, text] = tuner("bench --graph unifrom:n=1000,deg=16");
    EXPECT_EQ(rc, 1) << text;
    EXPECT_NE(text.find("unknown kind 'unifrom'"), std::string::npos) << text;
  }
  const auto [rc, text] = tuner("list " + cfg.string());
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("tuner list: warning: " + cfg.string() + ": graph 'gone'"), std::string::npos)
      << text;
}

// A variant id typed on the command line must be one the space can hold, written as the tuner
// writes it: the parser (which reads the store's ids) fills in parts left out and takes them in
// any order, so `csrgat.tpr32` used to run a kernel the id did not name, and `tpr33` or
// `colblock...ps99` reached the GPU (a review of the forty-second session).
TEST(GpuCommandsCli, AVariantIdIsValidAndWrittenAsTheTunerWritesIt) {
  const std::string g = " --graph seed:n=384,deg=18";
  const std::string ok = "csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32";
  const std::tuple<std::string, std::string> cases[] = {
      {"profile" + g + " --variant csrgat.tpr33.fl8.rpb4.vec4.t2.smem0.online.split0.i32.f32",
       "is invalid: tpr must be a power of two"},
      {"bench" + g + " --impl colblock.r19.ps99.lag8.i32.f32", "ps (part_shift"},
      {"bench" + g + " --impl csrgat.tpr32",
       "'csrgat.tpr32' is not a variant id as the tuner writes it"},
      {"timeline" + g +
           " --variant csrgat.tpr32.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32",
       "did you mean '" + ok + "'"},
      {"bench" + g + " --impl colblock.r19.ps16.lag8.pp0.i32.f32",
       "did you mean 'colblock.r19.ps16.lag8.i32.f32'"},
      {"profile" + g + " --variant " + ok + ".fault1", "is a test-only variant"},
  };
  for (const auto& [args, want] : cases) {
    const auto [rc, text] = tuner(args);
    EXPECT_EQ(rc, 1) << args << "\n" << text;
    EXPECT_NE(text.find(want), std::string::npos) << args << "\n" << text;
    EXPECT_EQ(text.find("needs a CUDA GPU"), std::string::npos) << args << "\n" << text;
  }
  // The canonical id passes the checks (and meets the GPU check on this machine).
  const auto [rc, text] = tuner("bench" + g + " --impl " + ok);
  EXPECT_TRUE(rc == 0 || (rc == 2 && text.find("needs a CUDA GPU") != std::string::npos)) << text;
}

// A config whose constraints leave a problem no variant is refused by list, compile, run and
// check at its constraints key (check_space had been called by the tests alone), after list has
// listed the pruning reasons; a list of values past the space's cap is named at its key.
TEST(ConfigCli, ASpaceNoVariantSurvivesIsRefused) {
  const fs::path dir = test_dir();
  const fs::path cfg = dir / "impossible.yaml";
  write_file(cfg,
             "name: imp\narch: sm_90\noutput: out\ngraphs:\n  - {name: g1, spec: "
             "\"uniform:n=100,deg=4\", feat: [64]}\nspace:\n  tpr: [32]\nconstraints: [\"tpr > "
             "10000\"]\n");
  for (const std::string cmd : {"list ", "compile ", "run ", "check "}) {
    const auto [rc, text] = tuner(cmd + cfg.string());
    EXPECT_EQ(rc, 1) << cmd << "\n" << text;
    EXPECT_NE(text.find("no variant satisfies the constraints for graph 'g1'"), std::string::npos)
        << cmd << "\n"
        << text;
  }
  // A graph file that is there but is no graph is named as bench --graph names it.
  write_file(dir / "nobanner.mtx", "3 3 2\n1 2\n2 3\n");
  write_file(dir / "nobanner.yaml",
             "name: nb\narch: sm_90\noutput: out\ngraphs:\n  - {name: nb, spec: nobanner.mtx, "
             "feat: [64]}\nspace:\n  tpr: [32]\n");
  for (const std::string cmd : {"bench --config ", "run ", "check "}) {
    const auto [rc, text] = tuner(cmd + (dir / "nobanner.yaml").string());
    EXPECT_NE(text.find("graph 'nb': "), std::string::npos) << cmd << "\n" << text;
    EXPECT_NE(text.find("missing %%MatrixMarket banner"), std::string::npos) << cmd << "\n" << text;
  }
  // A constraint that is NaN is named, not taken as true; a quoted boolean says so; a huge value
  // quoted in a message is cut.
  write_file(dir / "nan.yaml",
             "name: nan\narch: sm_90\noutput: out\ngraphs:\n  - {name: g1, spec: "
             "\"uniform:n=100,deg=4\", feat: [64]}\nspace:\n  tpr: [32]\nconstraints: [\"1e999 - "
             "1e999\"]\n");
  {
    const auto [rc, text] = tuner("list " + (dir / "nan.yaml").string());
    EXPECT_EQ(rc, 1) << text;
    EXPECT_NE(text.find("evaluates to NaN"), std::string::npos) << text;
  }
  write_file(dir / "quoted.yaml",
             "name: q\narch: sm_90\noutput: out\ncounters: \"true\"\ngraphs:\n  - {name: g1, "
             "spec: \"uniform:n=100,deg=4\", feat: [64]}\nspace:\n  tpr: [32]\n");
  {
    const auto [rc, text] = tuner("list " + (dir / "quoted.yaml").string());
    EXPECT_EQ(rc, 1) << text;
    EXPECT_NE(text.find("found the string 'true' (write it unquoted)"), std::string::npos) << text;
  }
  write_file(dir / "long.yaml",
             "name: l\narch: sm_90\noutput: out\ncounters: " + std::string(100000, 'x') +
                 "\ngraphs:\n  - {name: g1, spec: \"uniform:n=100,deg=4\", "
                 "feat: [64]}\nspace:\n  tpr: [32]\n");
  {
    const auto [rc, text] = tuner("list " + (dir / "long.yaml").string());
    EXPECT_EQ(rc, 1) << text;
    EXPECT_LT(text.size(), 3000u);
    EXPECT_NE(text.find("more characters)"), std::string::npos) << text.substr(0, 300);
  }
  std::string big =
      "name: big\narch: sm_90\noutput: out\ngraphs:\n  - {name: g1, spec: "
      "\"uniform:n=100,deg=4\", feat: [64]}\nspace:\n  split: [";
  for (int i = 0; i < 5000; ++i) big += (i ? "," : "") + std::to_string(i);
  write_file(dir / "big.yaml", big + "]\n");
  const auto [rc, text] = tuner("list " + (dir / "big.yaml").string());
  EXPECT_EQ(rc, 1) << text;
  EXPECT_NE(text.find("space.split: a list of 5000 values: at most 4096"), std::string::npos)
      << text;
}
