// The reading commands (report, compare, export, emit, promote) end to end through the built
// tuner, on bad input found by a probing review: each is refused naming what and where, with the
// exit code its command documents, and never hangs, guesses or writes something wrong.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "recorded.h"
#include "reports/run_io.h"
#include "scratch.h"
#include "sqlite_exec.h"
#include "tuner_exe.h"

namespace fs = std::filesystem;

namespace {

[[maybe_unused]] testing::Environment* const kScratchCleanup =
    csrgat::testing_scratch::remove_at_end("reports_cli");
fs::path test_dir() {
  return csrgat::testing_scratch::test_dir("reports_cli");
}

std::string q(const fs::path& p) {
  return "'" + p.string() + "'";
}

// Under a 30 s limit: a command that blocks on a FIFO fails its test.
std::pair<int, std::string> shell(const std::string& line) {
  return csrgat::testing_tuner::shell(line, 30);
}
std::pair<int, std::string> tuner(const std::string& args) {
  return csrgat::testing_tuner::tuner(args, 30);
}

bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using csrgat::testing_sqlite::sql;

// A copy of the committed synthetic store (one finished run, id 1) in the test's folder.
fs::path synthetic(const fs::path& dir, const std::string& name = "s.sqlite") {
  const fs::path to = dir / name;
  fs::create_directories(to.parent_path());
  fs::copy_file(fs::path(CSRGAT_SOURCE_DIR) / "tests/data/recorded/synthetic.sqlite", to,
                fs::copy_options::overwrite_existing);
  return to;
}

}  // namespace

// A run id of 0 or below is no run (never "the latest"), and a run named twice differently is
// refused: --run and the STORE:RUN suffix, for report, export, compare and emit alike.
TEST(ReportsCli, RunIdsThatAreNotRunsAreRefused) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  const std::string out = " -o " + q(dir / "out");
  const struct {
    std::string args;
    int rc;
    std::string says;
  } cases[] = {
      {"report " + q(s) + " --run -3" + out, 1, "--run -3: runs are numbered from 1"},
      {"report " + q(s) + " --run 0" + out, 1, "--run 0: runs are numbered from 1"},
      {"export " + q(s) + " --run -3 -o " + q(dir / "e.json"), 1, "--run -3"},
      {"compare " + q(s.string() + ":0") + " " + q(s) + out, 3,
       "names run 0, but runs are numbered from 1"},
      {"report " + q(s.string() + ":1") + " --run 7" + out, 1, "names run 1 but --run names run 7"},
      {"emit " + q(s) + " --run 0 -o " + q(dir / "h.h"), 1, "--run 0"},
      {"emit " + q(s.string() + ":0") + " -o " + q(dir / "h.h"), 1, "names run 0"},
      {"emit " + q(s.string() + ":2") + " -o " + q(dir / "h.h"), 1, "has no run 2 (its runs: 1)"},
  };
  for (const auto& c : cases) {
    const auto [rc, text] = tuner(c.args);
    EXPECT_EQ(rc, c.rc) << c.args << "\n" << text;
    EXPECT_TRUE(has(text, c.says)) << c.args << "\n" << text;
  }
  EXPECT_FALSE(fs::exists(dir / "out")) << "a refused run wrote a report";
  // emit takes STORE:RUN as the others do.
  const auto [rc, text] = tuner("emit " + q(s.string() + ":1") + " -o " + q(dir / "h.h"));
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(text, "(run 1 of " + s.string())) << text;
}

// tuner compare: a bad argument is an error, 3, as README says (CLI11's own codes, 105/106/109,
// would be neither a verdict nor the documented error); its help names every verdict.
TEST(ReportsCli, CompareUsageErrorsExitThree) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  for (const std::string& args :
       {"compare " + q(s), "compare " + q(s) + " " + q(s) + " --bogus",
        "compare " + q(s) + " " + q(s) + " " + q(s), "compare --threshold nan " + q(s) + " " + q(s),
        "compare --threshold -1 " + q(s) + " " + q(s)}) {
    const auto [rc, text] = tuner(args);
    EXPECT_EQ(rc, 3) << args << "\n" << text;
  }
  const auto [rc, text] = tuner("compare --help");
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(text, "slower or was lost")) << text;
  // The other reading commands keep CLI11's usage codes (not their error code 1).
  EXPECT_EQ(tuner("report").first, 106);
  EXPECT_EQ(tuner("export " + q(s)).first, 106);
}

// compare says on stdout how many problems it left out, always; with none comparable it refuses
// (2) and says why, rather than "no change" with 0.
TEST(ReportsCli, CompareCountsWhatItLeftOut) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir), t = synthetic(dir, "t.sqlite");
  auto [rc, text] = tuner("compare " + q(s) + " " + q(t) + " -o " + q(dir / "same"));
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(text, " compared, 0 not compared.")) << text;
  for (const char* table : {"trials", "graphs", "problems"})
    sql(t, std::string("UPDATE ") + table + " SET graph = graph || '_x'");
  std::tie(rc, text) = tuner("compare " + q(s) + " " + q(t) + " -o " + q(dir / "none"));
  EXPECT_EQ(rc, 2) << text;
  EXPECT_TRUE(has(text, "no problem was comparable: the runs have no problem in common")) << text;
  EXPECT_TRUE(has(text, "Problems: 0 compared")) << text;
  EXPECT_FALSE(has(text, "no change")) << text;
  EXPECT_TRUE(has(slurp(dir / "none" / "compare.md"), "## csrgat compare: refused"));
}

// A run compared with itself (`tuner compare S S`, the run suffix left out) fails no gate but is
// said to be one run, on stderr and in compare.md: one file twice, a byte copy, or the store and
// its export (the same recorded run); a run continued since (another finish) is another.
TEST(ReportsCli, CompareOfARunWithItselfWarns) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir), t = synthetic(dir, "t.sqlite");
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "s.json")).first, 0);
  for (const std::string& other : {s.string(), s.string() + ":1", (dir / "." / "s.sqlite").string(),
                                   t.string(), (dir / "s.json").string()}) {
    const auto [rc, text] = tuner("compare " + q(s) + " " + q(other) + " -o " + q(dir / "self"));
    EXPECT_EQ(rc, 0) << other << "\n" << text;
    EXPECT_TRUE(has(text, "tuner compare: warning: base and new are one run (run 1, started "))
        << text;
    EXPECT_TRUE(has(slurp(dir / "self" / "compare.md"), "**Warning**: base and new are one run"));
  }
  sql(t, "UPDATE runs SET finished = '2099-01-01T00:00:00Z'");
  const auto [rc, text] = tuner("compare " + q(s) + " " + q(t) + " -o " + q(dir / "two"));
  EXPECT_EQ(rc, 0) << text;
  EXPECT_FALSE(has(text, "warning")) << text;
}

// The recorded runs 22 and 23 measured the same graphs; only the generators' and readers' code
// changed between them (and with it the source hash). They are compared, and the report says so.
TEST(ReportsCli, RecordedRuns22And23AreCompared) {
  const fs::path folder = csrgat::testing_recorded::recorded_store("h200");
  if (folder.empty()) GTEST_SKIP() << "no tests/data/recorded/h200";
  const fs::path dir = test_dir();
  const auto [rc, text] = tuner("compare " + q(folder.string() + ":22") + " " +
                                q(folder.string() + ":23") + " --allow-different-gpu -o " + q(dir));
  EXPECT_TRUE(rc == 0 || rc == 1) << text;
  EXPECT_TRUE(has(text, "Problems: 17 compared, 0 not compared.")) << text;
  const std::string md = slurp(dir / "compare.md");
  EXPECT_FALSE(has(md, "Not compared")) << md;
  EXPECT_TRUE(has(md, "generator code changed between the runs: powerlaw_1m_d16")) << md;
  EXPECT_TRUE(has(md, "the file's bytes or the reader code changed between the runs: ca-astroph"))
      << md;
  // Without --allow-different-gpu (runs 22 and 23 ran on different machines) it is refused, and
  // says that the 17 comparable problems were not compared.
  {
    const auto [rc2, text2] = tuner("compare " + q(folder.string() + ":22") + " " +
                                    q(folder.string() + ":23") + " -o " + q(dir / "refused"));
    EXPECT_EQ(rc2, 2) << text2;
    EXPECT_TRUE(has(text2, "Problems: none compared (refused): 17 comparable, 0 not comparable."))
        << text2;
    const auto jr = nlohmann::json::parse(slurp(dir / "refused" / "compare.json"));
    EXPECT_EQ(jr["problems"]["compared"], 0);
    EXPECT_EQ(jr["problems"]["comparable"], 17);
  }
  const auto j = nlohmann::json::parse(slurp(dir / "compare.json"));
  EXPECT_EQ(j["summary"]["problems"]["compared"], 17);
  EXPECT_EQ(j["summary"]["tuned_same"].get<int>() + j["summary"]["tuned_slower"].get<int>() +
                j["summary"]["tuned_faster"].get<int>(),
            17);
}

// emit's default output lies beside the store however its folder is spelt ("h200/" is h200):
// never inside a folder of stores.
TEST(ReportsCli, EmitOfAFolderWithATrailingSlashWritesBesideIt) {
  const fs::path dir = test_dir();
  synthetic(dir / "stores", "run-0001.sqlite");
  for (const std::string spelt : {"/", "//", "/."}) {
    const auto [rc, text] = tuner("emit " + q((dir / "stores").string() + spelt));
    EXPECT_EQ(rc, 0) << spelt << "\n" << text;
    EXPECT_TRUE(fs::exists(dir / "include/csrgat/tuned/sm_90.h")) << spelt << "\n" << text;
    EXPECT_FALSE(fs::exists(dir / "stores" / "include")) << spelt << "\n" << text;
    fs::remove_all(dir / "include");
  }
}

// An error met after the store opened (here: its graphs table is gone) names the input it came
// from, so that with two inputs (compare) the bad one is known. A store without its runs or
// trials table is no store, said as the store opens, by each command, naming the file.
TEST(ReportsCli, ErrorsAfterOpeningNameTheInput) {
  const fs::path dir = test_dir();
  const fs::path good = synthetic(dir), bad = synthetic(dir, "nographs.sqlite"),
                 none = synthetic(dir, "notrials.sqlite");
  sql(bad, "DROP TABLE graphs");
  auto [rc, text] = tuner("compare " + q(good) + " " + q(bad) + " -o " + q(dir / "c"));
  EXPECT_EQ(rc, 3) << text;
  EXPECT_TRUE(has(text, "new, run 1 of '" + bad.string() + "'")) << text;
  std::tie(rc, text) = tuner("report " + q(bad) + " -o " + q(dir / "r"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(
      has(text, "run 1 of '" + bad.string() + "': sqlite prepare failed: no such table: graphs"))
      << text;
  std::tie(rc, text) = tuner("export " + q(bad) + " -o " + q(dir / "x.json"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "run 1 of '" + bad.string() + "'")) << text;
  EXPECT_FALSE(fs::exists(dir / "x.json"));
  sql(none, "DROP TABLE trials");
  for (const std::string& cmd : {"compare " + q(good) + " " + q(none) + " -o " + q(dir / "c2"),
                                 "report " + q(none) + " -o " + q(dir / "r2"),
                                 "export " + q(none) + " -o " + q(dir / "x2.json"),
                                 "emit " + q(none) + " -o " + q(dir / "h.h")}) {
    std::tie(rc, text) = tuner(cmd);
    EXPECT_NE(rc, 0) << cmd << "\n" << text;
    EXPECT_TRUE(has(text, "'" + none.string() +
                              "': not a results store: it has no runs or "
                              "trials table"))
        << cmd << "\n"
        << text;
    EXPECT_FALSE(has(text, "SELECT")) << cmd << "\n" << text;
  }
}

// export: a write error on standard output or a path that cannot be written says why; a damaged
// JSON column in the store fails the export naming the run and the column (it wrote <discarded>).
TEST(ReportsCli, ExportFailuresSayWhy) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  auto [rc, text] = tuner("export " + q(s) + " -o - > /dev/full");
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "cannot write the exported run to standard output")) << text;
  std::tie(rc, text) = tuner("export " + q(s) + " -o " + q(dir / "nodir" / "x.json"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "the folder " + (dir / "nodir").string() + " does not exist")) << text;
  fs::create_directories(dir / "adir");
  std::tie(rc, text) = tuner("export " + q(s) + " -o " + q(dir / "adir"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "is a folder, not a file")) << text;
  sql(s, "UPDATE runs SET config_json = '{bad'");
  std::tie(rc, text) = tuner("export " + q(s) + " -o " + q(dir / "bad.json"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "run 1: runs.config_json is not JSON")) << text;
  EXPECT_FALSE(fs::exists(dir / "bad.json"));
}

// report of an exported run writes beside the export (its folder's report/), as its help says.
TEST(ReportsCli, AReportOfAnExportLiesBesideIt) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  fs::create_directories(dir / "d x");
  const fs::path js = dir / "d x" / "x 1.json";
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(js)).first, 0);
  const auto [rc, text] = shell("cd " + q(dir) + " && CSRGAT_NO_CHARTS=1 " + CSRGAT_TUNER_EXE +
                                " report 'd x/x 1.json'");
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(fs::exists(dir / "d x" / "report" / "report.md")) << text;
  EXPECT_FALSE(fs::exists(dir / "report")) << text;
}

// A folder that is a run folder and a folder of stores at once is refused naming both; a part
// that is a dangling link is named.
TEST(ReportsCli, AmbiguousFoldersAndDanglingPartsAreNamed) {
  const fs::path dir = test_dir();
  synthetic(dir / "both", "results.sqlite");
  synthetic(dir / "both", "run-0002.sqlite");
  auto [rc, text] = tuner("report " + q(dir / "both") + " -o " + q(dir / "r"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "holds both results.sqlite")) << text;
  EXPECT_TRUE(has(text, "run-0002.sqlite")) << text;
  synthetic(dir / "parts", "run-0001.sqlite");
  fs::create_symlink(dir / "gone.sqlite.gz", dir / "parts" / "run-0002.sqlite.gz");
  std::tie(rc, text) = tuner("emit " + q(dir / "parts") + " -o " + q(dir / "h.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "run-0002.sqlite.gz' is a symbolic link")) << text;
}

// FIFOs and pipes are refused at once (a FIFO blocked every reading command; a pipe's first
// byte, sniffed for JSON, was gone when the export was read).
TEST(ReportsCli, FifosAndPipesAreRefusedNotWaitedOn) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  const fs::path fifo = dir / "p.sqlite";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "r.json")).first, 0);
  const std::string out = " -o " + q(dir / "o");
  for (const std::string& args :
       {"emit " + q(fifo), "report " + q(fifo) + out,
        "export " + q(fifo) + " -o " + q(dir / "e.json"), "compare " + q(fifo) + " " + q(s) + out,
        "report " + q(s) + " --peers " + q(fifo) + out,
        "compare <(cat " + q(dir / "r.json") + ") " + q(dir / "r.json") + out}) {
    const auto [rc, text] = tuner(args);
    EXPECT_NE(rc, 0) << args << "\n" << text;
    EXPECT_NE(rc, 124) << args << ": it waited on the FIFO\n" << text;
    EXPECT_TRUE(has(text, "is not a regular file (a FIFO or pipe")) << args << "\n" << text;
  }
}

// emit reads stores only: an export is named as one, with what to do instead; a store with a
// trial no tuner writes (F = -936) is refused naming the trial, not turned into rules.
TEST(ReportsCli, EmitRefusesExportsAndImpossibleTrials) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "run.json")).first, 0);
  auto [rc, text] = tuner("emit " + q(dir / "run.json") + " -o " + q(dir / "h.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "is an exported run (JSON): emit reads results stores only")) << text;
  EXPECT_FALSE(has(text, "file is not a database")) << text;
  sql(s, "UPDATE trials SET feat = -936 WHERE rowid = (SELECT MIN(rowid) FROM trials)");
  std::tie(rc, text) = tuner("emit " + q(s) + " -o " + q(dir / "h.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "F=-936")) << text;
  EXPECT_FALSE(fs::exists(dir / "h.h"));
}

// promote copies whole generated headers only, under their architecture's name; the header of a
// run that did not finish only with --allow-unfinished.
TEST(ReportsCli, PromoteChecksTheHeaderAndItsName) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  const fs::path hdr = dir / "out" / "sm_90.h", tree = dir / "tree";
  fs::create_directories(tree);
  ASSERT_EQ(tuner("emit " + q(s) + " -o " + q(hdr)).first, 0);
  const std::string to = " --to " + q(tree);
  // Cut short (as `head -20` leaves it).
  fs::create_directories(dir / "cut");
  ASSERT_EQ(shell("head -20 " + q(hdr) + " > " + q(dir / "cut" / "sm_90.h")).first, 0);
  auto [rc, text] = tuner("promote " + q(dir / "cut" / "sm_90.h") + to);
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "is not a whole generated header")) << text;
  // Another architecture's name as the target file.
  std::tie(rc, text) = tuner("promote " + q(hdr) + " --to " + q(tree / "notes.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "is the header for sm_90, so it goes to sm_90.h, not 'notes.h'")) << text;
  std::tie(rc, text) = tuner("promote " + q(hdr) + " --to " + q(tree / "sm_80.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "not 'sm_80.h'")) << text;
  // Binary content is named as such, not printed.
  std::tie(rc, text) = tuner(std::string("promote ") + CSRGAT_TUNER_EXE + to);
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "it is binary, not text")) << text;
  EXPECT_TRUE(fs::is_empty(tree));
  // An unfinished run's header.
  sql(s, "UPDATE runs SET finished = NULL");
  fs::create_directories(dir / "unfinished");
  ASSERT_EQ(
      tuner("emit " + q(s) + " --allow-unfinished -o " + q(dir / "unfinished" / "sm_90.h")).first,
      0);
  std::tie(rc, text) = tuner("promote " + q(dir / "unfinished" / "sm_90.h") + to);
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "a run that did not finish")) << text;
  EXPECT_TRUE(fs::is_empty(tree));
  std::tie(rc, text) =
      tuner("promote " + q(dir / "unfinished" / "sm_90.h") + to + " --allow-unfinished");
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(text, "warning")) << text;
  // The whole, finished header goes in.
  std::tie(rc, text) = tuner("promote " + q(hdr) + to);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_EQ(slurp(tree / "sm_90.h"), slurp(hdr));
  // A header under any file name goes into a folder as <arch>.h.
  fs::remove(tree / "sm_90.h");
  fs::copy_file(hdr, dir / "notes.h");
  std::tie(rc, text) = tuner("promote " + q(dir / "notes.h") + to);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(fs::exists(tree / "sm_90.h")) << text;
}

// emit --arch: a target NVRTC compiles for, and the run's own capability (its rules are that
// GPU's measurements); its a suffix is the same capability.
TEST(ReportsCli, EmitArchIsARealTargetOfTheRunsGpu) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);  // tuned for sm_90
  for (const char* bad : {"sm_00", "sm_9999z", "sm_1"}) {
    const auto [rc, text] = tuner("emit " + q(s) + " --arch " + bad + " -o " + q(dir / "h.h"));
    EXPECT_EQ(rc, 1) << bad << ": " << text;
    EXPECT_TRUE(has(text, std::string("--arch: expected sm_<compute capability>"))) << text;
  }
  auto [rc, text] = tuner("emit " + q(s) + " --arch sm_80 -o " + q(dir / "h.h"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "--arch sm_80: run 1 of '")) << text;
  EXPECT_TRUE(has(text, "was tuned for sm_90 (NVIDIA H200 (synthetic))")) << text;
  EXPECT_FALSE(fs::exists(dir / "h.h"));
  std::tie(rc, text) = tuner("emit " + q(s) + " --arch sm_90a -o " + q(dir / "sm_90a.h"));
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(slurp(dir / "sm_90a.h"), "#define CSRGAT_TUNED_ARCH 90"))
      << slurp(dir / "sm_90a.h");
}

// report and compare never write over their inputs: an export named as one of their outputs,
// in the output folder, is refused (it was replaced by the report of itself).
TEST(ReportsCli, OutputsNeverOverwriteTheirInputs) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  fs::create_directories(dir / "ce");
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "ce" / "compare.json")).first, 0);
  const std::string exported = slurp(dir / "ce" / "compare.json");
  auto [rc, text] =
      tuner("compare " + q(dir / "ce" / "compare.json") + " " + q(s) + " -o " + q(dir / "ce"));
  EXPECT_EQ(rc, 3) << text;
  EXPECT_TRUE(has(text, "refusing to write the comparison's compare.json to '")) << text;
  EXPECT_EQ(slurp(dir / "ce" / "compare.json"), exported);
  // compare's default output is the current folder.
  std::tie(rc, text) = shell("cd " + q(dir / "ce") + " && " + CSRGAT_TUNER_EXE + " compare " +
                             q(s) + " compare.json");
  EXPECT_EQ(rc, 3) << text;
  EXPECT_EQ(slurp(dir / "ce" / "compare.json"), exported);
  fs::create_directories(dir / "re");
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "re" / "report.json")).first, 0);
  const std::string exported_re = slurp(dir / "re" / "report.json");
  std::tie(rc, text) = shell("CSRGAT_NO_CHARTS=1 " + std::string(CSRGAT_TUNER_EXE) + " report " +
                             q(dir / "re" / "report.json") + " -o " + q(dir / "re"));
  EXPECT_EQ(rc, 1) << text;
  EXPECT_TRUE(has(text, "refusing to write the report's report.json")) << text;
  EXPECT_EQ(slurp(dir / "re" / "report.json"), exported_re);
  EXPECT_FALSE(fs::exists(dir / "re" / "report.md"));
}

// A run that recorded its driver without NVML's version ("CUDA 13.0") is not "on a different
// driver" from one with it and the same CUDA version: compared, with a warning that says so.
TEST(ReportsCli, ADriverRecordedWithoutItsVersionIsNotAnotherDriver) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir), t = synthetic(dir, "t.sqlite");
  sql(s, "UPDATE runs SET driver = 'CUDA 13.0'");
  sql(t, "UPDATE runs SET driver = '580.159.04 (CUDA 13.0)', started = '2025-01-16T10:00:00Z'");
  auto [rc, text] = tuner("compare " + q(s) + " " + q(t) + " -o " + q(dir / "c"));
  EXPECT_EQ(rc, 0) << text;
  EXPECT_TRUE(has(text,
                  "warning: base recorded its driver as 'CUDA 13.0' only (no NVML where it "
                  "ran), the other '580.159.04 (CUDA 13.0)': whether the drivers differ is "
                  "not known"))
      << text;
  sql(t, "UPDATE runs SET driver = '580.159.04 (CUDA 13.1)'");
  std::tie(rc, text) = tuner("compare " + q(s) + " " + q(t) + " -o " + q(dir / "c"));
  EXPECT_EQ(rc, 2) << text;
  EXPECT_TRUE(
      has(text, "the runs are on different drivers: base CUDA 13.0, new 580.159.04 (CUDA 13.1)"))
      << text;
}

// An export's content is checked before it is read, each fault named by its list index and
// field: nothing skipped (states [1, "x", null]), nothing read as NaN ("fast"), no run id taken
// from autoincrement (-4), no unknown variant selected.
TEST(ReportsCli, ExportContentIsCheckedFieldByField) {
  const fs::path dir = test_dir();
  const fs::path s = synthetic(dir);
  ASSERT_EQ(tuner("export " + q(s) + " -o " + q(dir / "run.json")).first, 0);
  const nlohmann::json good = nlohmann::json::parse(slurp(dir / "run.json"));
  ASSERT_GE(good["states"].size(), 3u);
  const size_t n = good["states"].size();
  const struct {
    const char* name;
    std::function<void(nlohmann::json&)> edit;
    std::string says;
  } cases[] = {
      {"junk", [](nlohmann::json& j) { j["states"].push_back(1); },
       "states[" + std::to_string(n) + "] is 1 (number), not an object"},
      {"fast", [](nlohmann::json& j) { j["states"][1]["trial"]["median_us"] = "fast"; },
       "states[1].trial.median_us is \"fast\", not a number"},
      {"negative", [](nlohmann::json& j) { j["meta"]["run"]["id"] = -4; }, "meta.run.id is -4"},
      {"variant", [](nlohmann::json& j) { j["states"][2]["trial"]["variant"] = "csrgat.bogus"; },
       "states[2].trial.variant 'csrgat.bogus' is not a variant id of this tuner"},
      {"feat", [](nlohmann::json& j) { j["states"][0]["trial"]["feat"] = "64"; },
       "states[0].trial.feat is \"64\", not an integer"},
      {"notrial", [](nlohmann::json& j) { j["states"][0].erase("trial"); },
       "states[0] has no \"trial\""},
      {"problem",
       [](nlohmann::json& j) {
         j["problems"] = nlohmann::json::array({{{"graph", "g"}, {"feat", 64}, {"heads", 0}}});
       },
       "problems[0].heads is 0"},
      {"twice", [](nlohmann::json& j) { j["states"].push_back(j["states"][0]); },
       "states[" + std::to_string(n) + "] repeats the trial of states[0]"},
      {"status", [](nlohmann::json& j) { j["states"][1]["trial"]["status"] = "weird"; },
       "states[1].trial.status is not a trial status of this tuner: unknown trial status 'weird'"},
      {"below", [](nlohmann::json& j) { j["states"][0]["trial"]["median_us"] = -5; },
       "states[0].trial.median_us is -5, below 0"},
      {"graph", [](nlohmann::json& j) { j["states"][2]["trial"]["graph"] = "elsewhere"; },
       "states[2].trial.graph 'elsewhere' is not one of the export's graphs[]"},
  };
  for (const auto& c : cases) {
    nlohmann::json bad = good;
    c.edit(bad);
    const fs::path p = dir / (std::string(c.name) + ".json");
    std::ofstream(p) << bad.dump();
    std::string what;
    try {
      csrgat::reports::load_run_source(p.string());
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    EXPECT_TRUE(has(what, c.says)) << c.name << ": " << what;
    EXPECT_TRUE(has(what, p.string())) << c.name << ": " << what;
  }
  EXPECT_EQ(csrgat::reports::load_run_source((dir / "run.json").string()).run.id, 1);
}
