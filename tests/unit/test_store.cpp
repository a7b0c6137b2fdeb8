// tuner/store: resuming and continuing runs (no GPU). A run resumes only on its GPU with its
// kernel sources; `tuner run --continue` continues a run stopped on another GPU of the same
// model, driver, runtime, NVRTC and kernel sources by copying the problems that GPU finished,
// and refuses, naming the difference, when anything differs. Stores written before these
// fields were kept are read as they are and upgraded when opened for writing. `tuner run
// --reuse` takes whole problems from earlier runs of the same kind whose problem fingerprint
// matches.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "recorded.h"
#include "scratch.h"
#include "sqlite_exec.h"
#include "tuner/config.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/store.h"

namespace fs = std::filesystem;
using namespace csrgat::tuner;

namespace {

[[maybe_unused]] testing::Environment* const kScratchCleanup = csrgat::testing_scratch::remove_at_end("store");
fs::path test_dir() { return csrgat::testing_scratch::test_dir("store"); }

RunInfo run_on(const std::string& gpu_uuid) {
  RunInfo r;
  r.name = "continue";
  r.config_hash = "c0ffee0000000001";
  r.gpu_name = "NVIDIA H200";
  r.gpu_uuid = gpu_uuid;
  r.driver = "580.95.05";
  r.cuda_runtime = "13.0";
  r.nvrtc = "13.0";
  r.arch = "sm_90";
  r.commit = "test";
  r.host = "host-" + gpu_uuid;
  r.kernels_hash = "k000000000000001";
  r.config = nlohmann::json::object();
  r.device = nlohmann::json::object();
  r.ceilings = nlohmann::json::object();
  return r;
}

void put(Store& s, int64_t run, const std::string& graph, int feat, const std::string& variant, int stage,
         const std::string& gpu, double median) {
  TrialRecord t;
  t.run_id = run;
  t.graph = graph;
  t.spec = "spec-" + graph;
  t.feat = feat;
  t.variant = variant;
  t.stage = stage;
  t.status = "ok";
  t.median_us = median;
  t.samples = 50;
  t.counters = {{"dram__bytes_read.sum", 1e6}};
  t.raw = {{"gpu_uuid", gpu}, {"samples_us", {median, median * 1.01}}};
  s.put_trial(t);
}

// Run A on GPU-A: "cora" F=64 finished (screening, full and interleaved trials), "pubmed"
// F=64 part-done (two screening trials, no finish mark).
int64_t stopped_run(Store& s) {
  const int64_t a = s.open_run(run_on("GPU-A")).id;
  s.put_graph(a, "cora", "spec-cora", {{"nodes", 2708}, {"source_hash", "file:c0"}});
  s.put_graph(a, "pubmed", "spec-pubmed", {{"nodes", 19717}, {"source_hash", "file:b0"}});
  for (const char* v : {"v1", "v2", "v3"}) put(s, a, "cora", 64, v, 0, "GPU-A", 10);
  for (const char* v : {"v1", "v2"}) put(s, a, "cora", 64, v, 1, "GPU-A", 9);
  for (const char* v : {"v1", "v2"}) put(s, a, "cora", 64, v, 2, "GPU-A", 8.5);
  s.finish_problem(a, "cora", 64, 1, "GPU-A");
  put(s, a, "pubmed", 64, "v1", 0, "GPU-A", 30);
  put(s, a, "pubmed", 64, "v2", 0, "GPU-A", 31);
  return a;
}

// The graphs' sources as stopped_run stored them.
const GraphSources kSources{{"cora", "file:c0"}, {"pubmed", "file:b0"}};

size_t count_of(const std::vector<TrialRecord>& ts, const std::string& graph) {
  return static_cast<size_t>(std::count_if(ts.begin(), ts.end(), [&](const TrialRecord& t) { return t.graph == graph; }));
}

}  // namespace

TEST(StoreContinue, CarriesFinishedProblemsAndLeavesTheStoppedRunWhole) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  const int64_t a = stopped_run(s);
  const std::vector<TrialRecord> before = s.trials(a);

  // GPU-B is another machine's H200. A plain rerun there begins a run of its own; one that has
  // measured nothing may be dropped (tuner run --continue does), one that holds anything not.
  const RunInfo want = run_on("GPU-B");
  const int64_t empty = s.open_run(want).id;
  EXPECT_EQ(s.resumable_run(want)->id, empty);
  EXPECT_FALSE(s.drop_empty_run(a));
  EXPECT_TRUE(s.drop_empty_run(empty));
  EXPECT_FALSE(s.run(empty).has_value());
  EXPECT_FALSE(s.resumable_run(want).has_value());
  std::string why;
  const auto from = s.continuable_run(want, &why);
  ASSERT_TRUE(from.has_value()) << why;
  EXPECT_EQ(from->id, a);

  // A cora file replaced since (another source hash) is not carried: measured again.
  {
    const RunInfo changed = s.continue_run(run_on("GPU-X"), a, {{"cora", "file:c1"}, {"pubmed", "file:b0"}});
    EXPECT_TRUE(s.finished_problems(changed.id).empty());
    EXPECT_TRUE(s.trials(changed.id).empty());
    s.drop_empty_run(changed.id);
  }
  const RunInfo b = s.continue_run(want, a, kSources);
  EXPECT_NE(b.id, a);
  EXPECT_EQ(b.continued_from, a);
  EXPECT_EQ(b.gpu_uuid, "GPU-B");
  EXPECT_EQ(b.kernels_hash, want.kernels_hash);

  // Only the finished problem came over, every trial of it, each still naming GPU-A.
  const auto carried = s.trials(b.id);
  EXPECT_EQ(count_of(carried, "cora"), 7u);
  EXPECT_EQ(count_of(carried, "pubmed"), 0u);
  for (const auto& t : carried) {
    EXPECT_EQ(t.raw.value("gpu_uuid", ""), "GPU-A");
    EXPECT_EQ(t.counters.value("dram__bytes_read.sum", 0.0), 1e6);
    EXPECT_EQ(t.run_id, b.id);
  }
  EXPECT_TRUE(s.has_trial(b.id, "cora", 64, 1, "v2", 2));
  EXPECT_FALSE(s.has_trial(b.id, "pubmed", 64, 1, "v1", 0));
  const auto fin = s.finished_problems(b.id);
  ASSERT_EQ(fin.size(), 1u);
  EXPECT_EQ(fin[0].graph, "cora");
  EXPECT_EQ(fin[0].gpu_uuid, "GPU-A");
  EXPECT_EQ(s.graph_features(b.id, "cora").value("nodes", 0), 2708);
  EXPECT_TRUE(s.graph_features(b.id, "pubmed").is_null());

  // The stopped run keeps all it measured, part-done problem included.
  EXPECT_EQ(s.trials(a).size(), before.size());
  EXPECT_EQ(count_of(s.trials(a), "pubmed"), 2u);

  // A continued run is done with: neither resumed on its own GPU nor continued again. A rerun
  // on GPU-B resumes B; a third GPU would continue B, not A.
  EXPECT_FALSE(s.resumable_run(run_on("GPU-A")).has_value());
  ASSERT_TRUE(s.resumable_run(want).has_value());
  EXPECT_EQ(s.resumable_run(want)->id, b.id);
  const auto next = s.continuable_run(run_on("GPU-C"), &why);
  ASSERT_TRUE(next.has_value()) << why;
  EXPECT_EQ(next->id, b.id);

  // B finishes pubmed on GPU-B; C's continuation carries both, each with its own GPU.
  s.put_graph(b.id, "pubmed", "spec-pubmed", {{"nodes", 19717}, {"source_hash", "file:b0"}});
  put(s, b.id, "pubmed", 64, "v1", 0, "GPU-B", 29);
  s.finish_problem(b.id, "pubmed", 64, 1, "GPU-B", 2.5);
  const RunInfo c = s.continue_run(run_on("GPU-C"), b.id, kSources);
  const auto fin_c = s.finished_problems(c.id);
  ASSERT_EQ(fin_c.size(), 2u);
  EXPECT_EQ(fin_c[0].prepare_s, -1);          // cora: finished without a build time
  EXPECT_DOUBLE_EQ(fin_c[1].prepare_s, 2.5);  // carried over with the problem
  EXPECT_EQ(fin_c[0].gpu_uuid, "GPU-A");  // cora
  EXPECT_EQ(fin_c[1].gpu_uuid, "GPU-B");  // pubmed
  EXPECT_EQ(s.trials(c.id).size(), 8u);
  // cora came to C from A through B: a continuation, not a --reuse.
  EXPECT_EQ(fin_c[0].from_run, a);
  EXPECT_TRUE(s.runs_taken_from(c.id).empty());
}

// Each field that makes measurements incomparable refuses the continuation, naming it.
TEST(StoreContinue, RefusesAnotherKindOfMachineNamingTheDifference) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  stopped_run(s);
  const auto refused = [&](RunInfo want, const std::string& what) {
    std::string why;
    EXPECT_FALSE(s.continuable_run(want, &why).has_value()) << what;
    EXPECT_NE(why.find(what), std::string::npos) << why;
  };
  const std::pair<const char*, void (*)(RunInfo&)> differences[] = {
      {"GPU model", [](RunInfo& w) { w.gpu_name = "NVIDIA H100 80GB HBM3"; }},
      {"driver", [](RunInfo& w) { w.driver = "570.0"; }},
      {"CUDA runtime", [](RunInfo& w) { w.cuda_runtime = "12.8"; }},
      {"NVRTC", [](RunInfo& w) { w.nvrtc = "12.8"; }},
      {"target", [](RunInfo& w) { w.arch = "sm_100"; }},
      {"other kernel sources", [](RunInfo& w) { w.kernels_hash = "k000000000000002"; }},
      {"no unfinished run of config c0ffee0000000002", [](RunInfo& w) { w.config_hash = "c0ffee0000000002"; }},
  };
  for (const auto& [what, change] : differences) {
    RunInfo w = run_on("GPU-B");
    change(w);
    refused(w, what);
  }
  // The same GPU with other kernels neither resumes the run nor continues it.
  RunInfo w = run_on("GPU-A");
  w.kernels_hash = "k000000000000002";
  EXPECT_FALSE(s.resumable_run(w).has_value());
  refused(w, "no unfinished run");
  // A newer stray run of another kind does not hide an older one that may be continued; when
  // none may, the refusal names the store.
  RunInfo stray = run_on("GPU-D");
  stray.driver = "570.0";
  const int64_t stray_id = s.open_run(stray).id;
  {
    std::string why;
    const auto from = s.continuable_run(run_on("GPU-B"), &why);
    ASSERT_TRUE(from.has_value()) << why;
    EXPECT_LT(from->id, stray_id);
    RunInfo h100 = run_on("GPU-B");
    h100.gpu_name = "NVIDIA H100";
    EXPECT_FALSE(s.continuable_run(h100, &why).has_value());
    EXPECT_NE(why.find("results.sqlite"), std::string::npos) << why;
    EXPECT_NE(why.find("run " + std::to_string(stray_id)), std::string::npos) << why;  // the newest's reason
  }
  s.finish_run(stray_id);
  // A finished run is not continued.
  s.finish_run(s.resumable_run(run_on("GPU-A"))->id);
  refused(run_on("GPU-B"), "no unfinished run");
}

// A store written before kernels_hash, continued_from and finish marks were kept: read
// read-only as it is (compressed, in memory), upgraded in place when opened for writing, and
// its runs are never continued (nothing shows their kernels).
// A store keeps its format in SQLite's user_version (1; 0 before it was kept): a store written by
// a later tuner is refused by name, read-only or not; one of format 0 is read and upgraded.
TEST(StoreFormat, ALaterFormatIsRefusedByName) {
  const fs::path dir = test_dir();
  const std::string path = (dir / "f.sqlite").string();
  { Store s(path); }
  const auto user_version = [&] {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
    sqlite3_step(st);
    const int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
  };
  const auto set_version = [&](int v) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, ("PRAGMA user_version = " + std::to_string(v)).c_str(), nullptr, nullptr,
                 nullptr);
    sqlite3_close(db);
  };
  EXPECT_EQ(user_version(), 1);
  set_version(0);
  EXPECT_NO_THROW(Store(path, true));
  { Store s(path); }
  EXPECT_EQ(user_version(), 1);
  set_version(2);
  for (const bool read_only : {true, false}) {
    try {
      const Store s(path, read_only);
      ADD_FAILURE() << "a format-2 store opened (read_only " << read_only << ")";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(
          std::string(e.what()).find("results store '" + path + "': written in store format 2"),
          std::string::npos)
          << e.what();
    }
  }
}

// An empty file, or another program's SQLite database, read as a store is named as not one,
// not failed at its first query with that query's SQL (a review: `tuner compare a.sqlite
// empty.sqlite` printed "no such table: runs in: SELECT id, name, ...").
TEST(StoreFormat, AFileWithoutTheTablesIsNotAStore) {
  const fs::path dir = test_dir();
  const std::string empty = (dir / "empty.sqlite").string(),
                    other = (dir / "other.sqlite").string();
  std::ofstream(empty).close();
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE runs (id INTEGER)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  for (const std::string& path : {empty, other}) {
    try {
      const Store s(path, true);
      ADD_FAILURE() << path << " opened as a store";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("'" + path + "': not a results store: it has no runs or trials table"),
                std::string::npos)
          << what;
      EXPECT_EQ(what.find("SELECT"), std::string::npos) << what;
    }
  }
}

// A graph row whose features are not JSON is named, not read as a graph never measured.
TEST(StoreFormat, DamagedGraphFeaturesAreNamed) {
  const fs::path dir = test_dir();
  const std::string path = (dir / "g.sqlite").string();
  int64_t run = 0;
  {
    Store s(path);
    RunInfo info;
    info.name = "r";
    run = s.open_run(info).id;
    s.put_graph(run, "cora", "cora.mtx.gz", nlohmann::json{{"nodes", 2708}});
  }
  {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "UPDATE graphs SET features_json = '{not json'", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const Store s(path, true);
  try {
    s.graph_features(run, "cora");
    ADD_FAILURE() << "damaged features read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("run " + std::to_string(run) + ", graph 'cora': its features"),
        std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(s.graph_features(run, "pubmed").is_null());  // never measured: null, as before
}

TEST(StoreContinue, OlderStoresReadAsTheyAreAndAreUpgradedForWriting) {
  const fs::path dir = test_dir();
  const std::string gz = (csrgat::testing_recorded::recorded_dir() / "h200_reportsmoke.sqlite.gz").string();
  size_t trials = 0;
  RunInfo old;
  {
    const Store s(gz, true);
    ASSERT_FALSE(s.runs().empty());
    old = *s.latest_run();
    EXPECT_EQ(old.kernels_hash, "");
    EXPECT_EQ(old.continued_from, 0);
    EXPECT_TRUE(s.finished_problems(old.id).empty());
    trials = s.trials(old.id).size();
    ASSERT_GT(trials, 0u);
  }
  // gunzip it, then open it for writing.
  const fs::path plain = dir / "old.sqlite";
  {
    gzFile in = gzopen(gz.c_str(), "rb");
    ASSERT_NE(in, nullptr);
    std::ofstream out(plain, std::ios::binary);
    char buf[1 << 16];
    for (int n; (n = gzread(in, buf, sizeof buf)) > 0;) out.write(buf, n);
    gzclose(in);
  }
  {
    Store s(plain.string());
    EXPECT_EQ(s.trials(old.id).size(), trials);
    EXPECT_EQ(s.run(old.id)->kernels_hash, "");
    RunInfo want = old;
    want.gpu_uuid = "GPU-elsewhere";
    want.kernels_hash = kernel_sources_hash(old.arch);
    std::string why;
    EXPECT_FALSE(s.continuable_run(want, &why).has_value());  // it is finished
    EXPECT_NE(why.find("no unfinished run"), std::string::npos) << why;
    // Unfinished, it is still refused: nothing shows which kernels it measured.
    {
      sqlite3* db = nullptr;
      ASSERT_EQ(sqlite3_open(plain.c_str(), &db), SQLITE_OK);
      ASSERT_EQ(sqlite3_exec(db, ("UPDATE runs SET finished = NULL WHERE id = " + std::to_string(old.id)).c_str(),
                             nullptr, nullptr, nullptr), SQLITE_OK);
      sqlite3_close(db);
    }
    EXPECT_FALSE(s.continuable_run(want, &why).has_value());
    EXPECT_NE(why.find("records no kernel sources hash"), std::string::npos) << why;
    // The upgraded store takes the new fields.
    want.gpu_uuid = old.gpu_uuid;
    want.config_hash = "upgraded";
    const RunInfo r = s.open_run(want);
    EXPECT_EQ(s.run(r.id)->kernels_hash, want.kernels_hash);
    s.finish_problem(r.id, "g", 64, 1, old.gpu_uuid, 4.5);
    EXPECT_EQ(s.finished_problems(r.id).size(), 1u);
  }
  {
    const Store s(plain.string(), true);  // re-read: the upgrade was written
    EXPECT_EQ(s.latest_run()->config_hash, "upgraded");
    const auto fin = s.finished_problems(s.latest_run()->id);
    ASSERT_EQ(fin.size(), 1u);
    EXPECT_DOUBLE_EQ(fin[0].prepare_s, 4.5);
  }
  // A store with finish marks from before their build times (the recorded H200 runs 1-7) reads
  // them as not recorded; run 8 (sixteenth session) recorded them.
  const Store h200(csrgat::testing_recorded::recorded_store("h200").string(), true);
  const auto marks = h200.finished_problems(7);
  ASSERT_FALSE(marks.empty());
  for (const auto& f : marks) EXPECT_EQ(f.prepare_s, -1) << f.graph;
  const auto built = h200.finished_problems(8);
  ASSERT_FALSE(built.empty());
  for (const auto& f : built) EXPECT_GE(f.prepare_s, 0) << f.graph;
}

// Two graphs; `pubmed_space` is pubmed's own space map ("" for none).
Config two_graphs(const std::string& pubmed_space) {
  return parse_config("arch: sm_90\ngraphs:\n"
                      "  - {name: cora, spec: 'seed:n=64,deg=4', feat: [64]}\n"
                      "  - {name: pubmed, spec: 'seed:n=96,deg=4', feat: [64]" +
                          (pubmed_space.empty() ? std::string() : ", space: " + pubmed_space) +
                          "}\n"
                          "space: {tpr: [8, 32], fl: [8], rpb: [4]}\n",
                      "/somewhere/reuse.yaml");
}

RunInfo run_of(const Config& c, const std::string& gpu) {
  RunInfo r = run_on(gpu);
  r.config = to_json(c);
  r.config_hash = config_hash(c);
  return r;
}

void finish(Store& s, int64_t run, const std::string& graph, const std::string& gpu, double median) {
  for (const char* v : {"v1", "v2"}) put(s, run, graph, 64, v, 0, gpu, median);
  put(s, run, graph, 64, "v1", 1, gpu, median);
  s.finish_problem(run, graph, 64, 1, gpu);
}

TEST(StoreReuse, TakesOnlyFinishedProblemsWithTheSameFingerprint) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  const Config before = two_graphs(""), after = two_graphs("{tpr: [32]}");
  const int64_t a = s.open_run(run_of(before, "GPU-A")).id;
  const GraphSources sources{{"cora", "gen:c0"}, {"pubmed", "gen:b0"}};
  s.put_graph(a, "cora", "spec-cora", {{"nodes", 64}, {"source_hash", "gen:c0"}});
  s.put_graph(a, "pubmed", "spec-pubmed", {{"nodes", 96}, {"source_hash", "gen:b0"}});
  finish(s, a, "cora", "GPU-A", 10);
  finish(s, a, "pubmed", "GPU-A", 20);
  s.finish_run(a);

  // pubmed now searches its own space: only cora is taken. A part-done cora of the new run
  // (a stray screening trial) gives way to the finished one.
  const RunInfo b = s.open_run(run_of(after, "GPU-B"));
  put(s, b.id, "cora", 64, "v9", 0, "GPU-B", 99);
  // Another generator (or a replaced file) under the same spec: nothing is taken.
  EXPECT_TRUE(reusable_problems(s, b, to_json(after), {{"cora", "gen:c1"}, {"pubmed", "gen:b0"}}).empty());
  EXPECT_TRUE(reusable_problems(s, b, to_json(after), {}).empty());
  const auto take = reusable_problems(s, b, to_json(after), sources);
  ASSERT_EQ(take.size(), 1u);
  EXPECT_EQ(take[0].first, a);
  EXPECT_EQ(take[0].second.graph, "cora");
  s.reuse_problems(b.id, take);
  const auto trials = s.trials(b.id);
  EXPECT_EQ(count_of(trials, "cora"), 3u);
  EXPECT_EQ(count_of(trials, "pubmed"), 0u);
  EXPECT_FALSE(s.has_trial(b.id, "cora", 64, 1, "v9", 0));
  for (const auto& t : trials) EXPECT_EQ(t.raw.value("gpu_uuid", ""), "GPU-A");
  auto fin = s.finished_problems(b.id);
  ASSERT_EQ(fin.size(), 1u);
  EXPECT_EQ(fin[0].gpu_uuid, "GPU-A");
  EXPECT_EQ(fin[0].from_run, a);
  EXPECT_EQ(s.graph_features(b.id, "cora").value("nodes", 0), 64);
  EXPECT_EQ(s.trials(a).size(), 6u);  // the earlier run keeps all it has

  // B measures pubmed itself. A third run takes both from B, the newest; cora still names the
  // run that measured it.
  s.put_graph(b.id, "pubmed", "spec-pubmed", {{"nodes", 96}, {"source_hash", "gen:b0"}});
  finish(s, b.id, "pubmed", "GPU-B", 19);
  s.finish_run(b.id);
  const RunInfo c = s.open_run(run_of(after, "GPU-C"));
  s.reuse_problems(c.id, reusable_problems(s, c, to_json(after), sources));
  fin = s.finished_problems(c.id);
  ASSERT_EQ(fin.size(), 2u);
  EXPECT_EQ(fin[0].graph, "cora");
  EXPECT_EQ(fin[0].from_run, a);
  EXPECT_EQ(fin[1].graph, "pubmed");
  EXPECT_EQ(fin[1].from_run, b.id);
  EXPECT_EQ(fin[1].gpu_uuid, "GPU-B");
  // Nothing is taken twice.
  EXPECT_TRUE(reusable_problems(s, c, to_json(after), sources).empty());

  // Another kind of machine (driver, kernels) takes nothing.
  RunInfo other = run_of(after, "GPU-D");
  other.driver = "590.1";
  EXPECT_TRUE(reusable_problems(s, s.open_run(other), to_json(after), sources).empty());
  RunInfo kernels = run_of(after, "GPU-E");
  kernels.kernels_hash = "k000000000000002";
  EXPECT_TRUE(reusable_problems(s, s.open_run(kernels), to_json(after), sources).empty());
}

// The kernels hash is the same wherever the toolkit lies, and differs by target.
TEST(StoreContinue, KernelSourcesHashIsStableAndNamesTheTarget) {
  const std::string here = kernel_sources_hash("sm_90");
  EXPECT_EQ(kernel_sources_hash("sm_90"), here);
  EXPECT_EQ(here.size(), 16u);
  EXPECT_NE(kernel_sources_hash("sm_80"), here);
  // Another machine keeps its CUDA headers elsewhere: the include option differs, the hash not.
  const fs::path other = test_dir() / "cuda" / "include";
  fs::create_directories(other);
  std::ofstream(other / "cuda_bf16.h") << "// stand-in\n";
  setenv("CSRGAT_CUDA_INCLUDE", other.c_str(), 1);
  EXPECT_EQ(kernel_sources_hash("sm_90"), here);
  unsetenv("CSRGAT_CUDA_INCLUDE");
}

// A resumed run whose graph changed under it (tuner run drops the graph and measures it again).
TEST(StoreSources, ChangedGraphsAreFoundAndForgotten) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  const int64_t a = stopped_run(s);  // cora finished, pubmed part-done; both with sources
  s.put_graph(a, "citeseer", "spec-citeseer", {{"nodes", 3327}});  // no source stored
  std::vector<std::string> unknown;
  EXPECT_TRUE(changed_graphs(s, a, kSources, &unknown).empty());
  EXPECT_EQ(unknown, std::vector<std::string>{});  // citeseer is not in kSources
  const GraphSources now{{"cora", "file:c1"}, {"pubmed", "file:b0"}, {"citeseer", "file:s0"}, {"new", "gen:0"}};
  EXPECT_EQ(changed_graphs(s, a, now, &unknown), std::vector<std::string>{"cora"});
  EXPECT_EQ(unknown, std::vector<std::string>{"citeseer"});
  s.forget_graph(a, "cora");
  EXPECT_EQ(count_of(s.trials(a), "cora"), 0u);
  EXPECT_EQ(count_of(s.trials(a), "pubmed"), 2u);
  EXPECT_TRUE(s.finished_problems(a).empty());
  EXPECT_TRUE(s.graph_features(a, "cora").is_null());
  EXPECT_TRUE(changed_graphs(s, a, now).empty());
  // A file that cannot be read now ("") is not evidence of a change: pubmed is kept.
  unknown.clear();
  EXPECT_TRUE(changed_graphs(s, a, {{"pubmed", ""}}, &unknown).empty());
  EXPECT_EQ(unknown, std::vector<std::string>{"pubmed"});
}

// A resumed problem measured again on another GPU: its trials go, the rest of the run stays.
TEST(StoreSources, AProblemsTrialsAreForgottenAlone) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  const int64_t a = stopped_run(s);
  put(s, a, "pubmed", 128, "v1", 0, "GPU-A", 60);  // the same graph, another F
  s.forget_trials(a, "pubmed", 64, 1);
  const auto left = s.trials(a);
  EXPECT_EQ(count_of(left, "pubmed"), 1u);
  EXPECT_EQ(count_of(left, "cora"), 7u);
  EXPECT_FALSE(s.graph_features(a, "pubmed").is_null());
  EXPECT_EQ(s.finished_problems(a).size(), 1u);  // cora's mark stays
}

// A run from before sources were kept carries nothing into a continuation.
TEST(StoreSources, ARunWithoutSourcesCarriesNothing) {
  const fs::path dir = test_dir();
  Store s((dir / "results.sqlite").string());
  const int64_t a = s.open_run(run_on("GPU-A")).id;
  s.put_graph(a, "cora", "spec-cora", {{"nodes", 2708}});
  put(s, a, "cora", 64, "v1", 0, "GPU-A", 10);
  s.finish_problem(a, "cora", 64, 1, "GPU-A");
  const RunInfo b = s.continue_run(run_on("GPU-B"), a, kSources);
  EXPECT_TRUE(s.finished_problems(b.id).empty());
  EXPECT_EQ(s.trials(a).size(), 1u);
}

// A rerun resumes its unfinished run on the same GPU with the same kernels, but not after the
// driver or the CUDA runtime changed: the old measurements would not compare with the new.
TEST(StoreContinue, ARerunResumesOnlyOnTheSameDriverAndRuntime) {
  const fs::path dir = test_dir();
  Store s((dir / "resume.sqlite").string());
  const RunInfo first = s.open_run(run_on("GPU-aaaa"));
  EXPECT_EQ(s.open_run(run_on("GPU-aaaa")).id, first.id);  // resumed
  RunInfo upgraded = run_on("GPU-aaaa");
  upgraded.driver = "590.10.01";
  const RunInfo second = s.open_run(upgraded);
  EXPECT_NE(second.id, first.id);
  RunInfo runtime = run_on("GPU-aaaa");
  runtime.cuda_runtime = "13.1";
  EXPECT_FALSE(s.resumable_run(runtime).has_value() && s.resumable_run(runtime)->id == first.id);
}

// Outputs never replace a results store (`tuner export -o`, `tuner emit -o` given the store's
// own path): an SQLite file, or a gzip file named .sqlite.gz, is refused by name; anything else
// may be written.
TEST(StoreFiles, OutputsRefuseToOverwriteAResultsStore) {
  const fs::path dir = test_dir();
  const fs::path store = dir / "r.sqlite";
  { Store s(store.string()); }
  try {
    refuse_to_overwrite_store(store.string(), "the header");
    ADD_FAILURE() << "an SQLite store was not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("refusing to write the header to '" + store.string() +
                                         "': it is a results store"),
              std::string::npos)
        << e.what();
  }
  { std::ofstream(dir / "old.sqlite.gz", std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4); }
  EXPECT_THROW(refuse_to_overwrite_store((dir / "old.sqlite.gz").string(), "x"), std::runtime_error);
  { std::ofstream(dir / "notes.gz", std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4); }
  EXPECT_NO_THROW(refuse_to_overwrite_store((dir / "notes.gz").string(), "x"));
  { std::ofstream(dir / "sm_90.h") << "// Generated by csrgat tuner\n"; }
  EXPECT_NO_THROW(refuse_to_overwrite_store((dir / "sm_90.h").string(), "x"));
  EXPECT_NO_THROW(refuse_to_overwrite_store((dir / "missing.json").string(), "x"));
}

// A trial whose noise is unknown (one sample: rel_noise +inf) crosses the worker's JSON as null
// and comes back unknown; reading it threw before and stopped that GPU's worker thread.
TEST(StoreFiles, AOneSampleTrialCrossesJsonWithItsNoiseUnknown) {
  TrialRecord t;
  t.graph = "g";
  t.variant = "seed.i32.f32";
  t.status = "ok";
  t.median_us = 12.5;
  t.samples = 1;
  t.rel_noise = INFINITY;
  const nlohmann::json j = nlohmann::json::parse(to_json(t).dump());
  EXPECT_TRUE(j["rel_noise"].is_null());
  TrialRecord back;
  ASSERT_NO_THROW(back = trial_from_json(j));
  EXPECT_TRUE(std::isinf(back.rel_noise));
  EXPECT_EQ(back.median_us, 12.5);
  nlohmann::json old = j;  // a record from before rel_noise was kept: no noise known, 0
  old.erase("rel_noise");
  old["median_us"] = nullptr;
  EXPECT_EQ(trial_from_json(old).rel_noise, 0.0);
  EXPECT_EQ(trial_from_json(old).median_us, 0.0);
}

namespace {
using csrgat::testing_sqlite::sql;

// e.what() of what fn throws (std::runtime_error), or "" when it throws nothing.
template <class Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// A damaged JSON column of a run or a trial is named (run, column) when it is read, never carried
// on as a discarded value (which an export wrote as the text <discarded>).
TEST(StoreFormat, DamagedRunAndTrialColumnsAreNamed) {
  const fs::path dir = test_dir();
  const fs::path path = dir / "d.sqlite";
  int64_t run = 0;
  {
    Store s(path.string());
    run = stopped_run(s);
  }
  sql(path, "UPDATE runs SET config_json = '{bad'");
  std::string e = error_of([&] { Store(path.string(), true).run(run); });
  EXPECT_NE(e.find("run " + std::to_string(run) + ": runs.config_json is not JSON"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(path.string()), std::string::npos) << e;
  sql(path, "UPDATE runs SET config_json = '{}'");
  sql(path, "UPDATE trials SET counters_json = '[1,' WHERE graph = 'pubmed' AND variant = 'v2'");
  e = error_of([&] { Store(path.string(), true).trials(run); });
  EXPECT_NE(
      e.find("graph 'pubmed', F=64, H=1, variant 'v2', stage 0): trials.counters_json is not JSON"),
      std::string::npos)
      << e;
}

// Trial and finish-mark rows no tuner writes (F or H not positive) are refused by name when
// read: emit would otherwise turn them into rules (a probing review's feat=-936).
TEST(StoreFormat, TrialsWithImpossibleShapesAreNamed) {
  const fs::path dir = test_dir();
  const fs::path path = dir / "f.sqlite";
  int64_t run = 0;
  {
    Store s(path.string());
    run = stopped_run(s);
  }
  sql(path, "UPDATE trials SET feat = -936 WHERE graph = 'pubmed' AND variant = 'v1'");
  std::string e = error_of([&] { Store(path.string(), true).trials(run); });
  EXPECT_NE(e.find("trial (graph 'pubmed', F=-936"), std::string::npos) << e;
  sql(path, "UPDATE trials SET feat = 64, heads = -1 WHERE graph = 'pubmed' AND variant = 'v1'");
  e = error_of([&] { Store(path.string(), true).trials(run); });
  EXPECT_NE(e.find("H=-1"), std::string::npos) << e;
  sql(path, "UPDATE trials SET heads = 1; UPDATE problems SET feat = 0");
  EXPECT_EQ(error_of([&] { Store(path.string(), true).trials(run); }), "");
  e = error_of([&] { Store(path.string(), true).finished_problems(run); });
  EXPECT_NE(e.find("finish mark (graph 'cora', F=0"), std::string::npos) << e;
}

// The run of a reading command's argument: "STORE:N" or --run, never a run id 0 or below read as
// "the latest", nor two different ones.
TEST(StoreFiles, StoreArgumentsNameTheirRun) {
  const fs::path dir = test_dir();
  EXPECT_EQ(parse_store_arg("runs").path, "runs");
  EXPECT_FALSE(parse_store_arg("runs").run_id.has_value());
  EXPECT_EQ(parse_store_arg("runs:22").path, "runs");
  EXPECT_EQ(parse_store_arg("runs:22").run_id, 22);
  EXPECT_EQ(parse_store_arg("runs", 7).run_id, 7);
  EXPECT_EQ(parse_store_arg("runs:7", 7).run_id, 7);
  EXPECT_NE(error_of([] { parse_store_arg("runs:0"); }).find("'runs:0' names run 0"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_store_arg("runs", -3); }).find("--run -3"), std::string::npos);
  EXPECT_NE(error_of([] { parse_store_arg("runs", 0); }).find("--run 0"), std::string::npos);
  EXPECT_NE(error_of([] {
              parse_store_arg("runs:5", 7);
            }).find("'runs:5' names run 5 but --run names run 7"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_store_arg("runs:99999999999999999999"); }).find("out of range"),
            std::string::npos);
  // A file whose name ends in ":3" is that file.
  const fs::path odd = dir / "x:3";
  std::ofstream(odd) << "";
  EXPECT_EQ(parse_store_arg(odd.string()).path, odd.string());
  EXPECT_FALSE(parse_store_arg(odd.string()).run_id.has_value());
}

// A folder that is both a run folder (results.sqlite) and a folder of stores is refused naming
// both; a folder store's part that is a dangling link, or no regular file, is named, not skipped;
// a FIFO is refused before it is opened (opening it would wait for a writer).
TEST(StoreFiles, AmbiguousFoldersDanglingPartsAndFifosAreNamed) {
  const fs::path dir = test_dir();
  const fs::path both = dir / "both";
  fs::create_directories(both);
  {
    Store a((both / "results.sqlite").string());
    stopped_run(a);
    Store b((both / "other.sqlite").string());
    stopped_run(b);
  }
  std::string e = error_of([&] { resolve_store_path(both.string()); });
  EXPECT_NE(e.find("holds both results.sqlite"), std::string::npos) << e;
  EXPECT_NE(e.find("other.sqlite"), std::string::npos) << e;
  fs::remove(both / "other.sqlite");
  EXPECT_EQ(resolve_store_path(both.string()), (both / "results.sqlite").string());

  const fs::path parts = dir / "parts";
  fs::create_directories(parts);
  fs::copy_file(both / "results.sqlite", parts / "a.sqlite");
  fs::create_symlink(dir / "gone.sqlite", parts / "b.sqlite");
  e = error_of([&] { Store(parts.string(), true); });
  EXPECT_NE(e.find("b.sqlite' is a symbolic link to '" + (dir / "gone.sqlite").string() +
                   "', which does not exist"),
            std::string::npos)
      << e;
  fs::remove(parts / "b.sqlite");
  EXPECT_EQ(Store(parts.string(), true).runs().size(), 1u);

  const fs::path fifo = dir / "p.sqlite";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  e = error_of([&] { Store(fifo.string(), true); });
  EXPECT_NE(e.find("is not a regular file (a FIFO or pipe"), std::string::npos) << e;
  EXPECT_NE(
      input_file_problem(fifo.string(), "peers file").find("peers file '" + fifo.string() + "'"),
      std::string::npos);
  EXPECT_NE(input_file_problem((dir / "nope").string(), "x").find("does not exist"),
            std::string::npos);
  EXPECT_EQ(input_file_problem(parts.string(), "x"), "");
}

// Where a command's default output goes: beside a folder store whatever its spelling, beside a
// file (a store, an export) in its folder.
TEST(StoreFiles, OutputsGoBesideTheInput) {
  EXPECT_EQ(folder_beside("a/h200"), fs::path("a"));
  EXPECT_EQ(folder_beside("a/h200/"), fs::path("a"));
  EXPECT_EQ(folder_beside("a/h200//"), fs::path("a"));
  EXPECT_EQ(folder_beside("a/h200/."), fs::path("a"));
  EXPECT_EQ(folder_beside("h200/"), fs::path());
  EXPECT_EQ(folder_beside("run/results.sqlite"), fs::path("run"));
  EXPECT_EQ(folder_beside("d x/x 1.json"), fs::path("d x"));
  EXPECT_EQ(folder_beside("."), fs::current_path().parent_path());
}

// A finish mark read back from an export keeps its time, GPU, build time and the run it came
// from; an imported run keeps the run it continued.
TEST(StoreFiles, ImportedRunsAndFinishMarksKeepWhatWasRecorded) {
  Store s(":memory:");
  RunInfo r = run_on("GPU-B");
  r.id = 6;
  r.continued_from = 5;
  r.finished = "2026-12-01T16:06:02Z";
  const RunInfo made = s.import_run(r);
  EXPECT_EQ(made.id, 6);
  EXPECT_EQ(made.continued_from, 5);
  EXPECT_EQ(made.finished, "2026-12-01T16:06:02Z");
  FinishedProblem f{"rmat", 64, 1, "GPU-A", "2026-12-01T15:56:23Z", 5, -1};
  s.import_problem(6, f);
  FinishedProblem g{"cora", 64, 8, "GPU-B", "2026-12-01T16:00:00Z", 0, 2.5};
  s.import_problem(6, g);
  const auto got = s.finished_problems(6);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].graph, "cora");
  EXPECT_EQ(got[0].from_run, 0);
  EXPECT_EQ(got[0].prepare_s, 2.5);
  EXPECT_EQ(got[1].finished, "2026-12-01T15:56:23Z");
  EXPECT_EQ(got[1].from_run, 5);
  EXPECT_EQ(got[1].prepare_s, -1);
  EXPECT_EQ(got[1].gpu_uuid, "GPU-A");
  s.put_graph(6, "cora", "cora.mtx.gz", {{"num_nodes", 2708}});
  const auto graphs = s.graphs(6);
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].spec, "cora.mtx.gz");
  EXPECT_EQ(graphs[0].features["num_nodes"], 2708);
}
