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

// A folder given as a graph is named as one (the readers would call it a corrupt gzip stream).
TEST(GraphInfoCli, AFolderIsNamed) {
  const fs::path dir = test_dir() / "g.mtx.gz";
  fs::create_directories(dir);
  const auto [rc, text] = tuner("graph-info " + dir.string());
  EXPECT_EQ(rc, 1) << text;
  EXPECT_NE(text.find("'" + dir.string() + "' is a folder, not a graph file"), std::string::npos)
      << text;
}
