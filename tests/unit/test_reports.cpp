// reports/ without a GPU: the roofline report and the regression comparison on small synthetic
// stores, and the report on every recorded store under tests/data/recorded/*.sqlite[.gz].
#include "recorded.h"
#include "reports/analysis.h"
#include "reports/compare.h"
#include "reports/plot.h"
#include "reports/report.h"
#include "reports/run_io.h"
#include "tuner/config.h"
#include "tuner/select.h"
#include "tuner/store.h"
#include "variants/params.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace csrgat::reports {
namespace {

constexpr double kL2 = 50.0 * 1024 * 1024;

// A fresh folder under gtest's temp dir, removed afterwards unless the test failed.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::path(testing::TempDir()) /
              ("csrgat_reports_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    if (!testing::Test::HasFailure()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path operator/(const std::string& s) const { return path_ / s; }
  std::string string() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// Charts cost a matplotlib start each; only the test that checks them draws them.
struct NoCharts {
  NoCharts() { setenv("CSRGAT_NO_CHARTS", "1", 1); }
  ~NoCharts() { unsetenv("CSRGAT_NO_CHARTS"); }
};

std::string fused(int tpr, int vec, int rpb = 4) {
  VariantParams p;
  p.tpr = tpr;
  p.fl = std::min(tpr, 16);
  p.vec = vec;
  p.rpb = rpb;
  return p.id();
}
std::string baseline(Family f) {
  VariantParams p;
  p.family = f;
  return p.id();
}

// What the worker writes for ceilings and device (profiler::to_json of Ceilings / DeviceInfo).
tuner::RunInfo run_info(const std::string& uuid = "GPU-11111111-2222",
                        const std::string& driver = "560.35.03") {
  tuner::RunInfo r;
  r.name = "synthetic";
  r.config_hash = "00deadbeef000000";
  r.gpu_name = "NVIDIA H200";
  r.gpu_uuid = uuid;
  r.driver = driver;
  r.cuda_runtime = "12.6";
  r.nvrtc = "12.6";
  r.arch = "sm_90";
  r.commit = "abc123";
  r.host = "testhost";
  r.device = {{"name", "NVIDIA H200"},   {"uuid", uuid},
              {"driver", driver},        {"cuda_runtime", "12.6"},
              {"sm_count", 132},         {"cc", "9.0"},
              {"cc_major", 9},           {"cc_minor", 0},
              {"l2_bytes", kL2},         {"global_mem", 150e9},
              {"sm_clock_max_mhz", 1980}};
  nlohmann::json dram_method{{"timer", "cupti"},
                             {"samples", 50},
                             {"stop", "max_samples"},
                             {"best_us", 500.0},
                             {"median_us", 505.0},
                             {"rel_noise", 0.001},
                             {"throttled_any", false},
                             {"note", ""},
                             {"kernel", "float4 grid-stride copy"},
                             {"bytes_per_buffer", 1 << 30},
                             {"grid", 2112},
                             {"block", 256},
                             {"cache", "cold"},
                             {"value", "bytes_moved / best_us"},
                             {"median_gbs", 3950.0}};
  r.ceilings = {{"dram_copy_gbs", 4000.0},
                {"l2_copy_gbs", 10000.0},
                {"fp32_gflops", 60000.0},
                {"launch_us_plain", 2.5},
                {"launch_us_graph", 1.0},
                {"device_uuid", uuid},
                {"driver", driver},
                {"method",
                 {{"format", 1},
                  {"measured_at", "2025-01-01T00:00:00Z"},
                  {"dram_copy", dram_method},
                  {"device", r.device}}}};
  return r;
}

nlohmann::json counters(double dram_bytes, double l2_bytes, double ffma) {
  return {{"ok", true},
          {"reason", ""},
          {"kernels", 1},
          {"values",
           {{"dram__bytes_read.sum", dram_bytes * 0.75},
            {"dram__bytes_write.sum", dram_bytes * 0.25},
            {"lts__t_bytes.sum", l2_bytes},
            {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", ffma},
            {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 1000.0},
            {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 500.0}}},
          {"dram_bytes", dram_bytes},
          {"fp32_flops", 2 * ffma + 1500}};
}

struct GraphSpec {
  std::string name;
  int64_t nodes, edges;
  double base_us;  // the winner's median
};
const std::vector<GraphSpec> kGraphs{{"small_u1k", 1000, 16000, 10.0},
                                     {"big_u1m", 1000000, 16000000, 2000.0}};

// One trial of `variant` on (graph, F, one head): an ok one at `us` with 0.2% noise and 100
// samples, or a failed one with a reason.
void add_trial(tuner::Store& s, int64_t run, const std::string& graph, int feat,
               const std::string& variant, int stage, double us, const std::string& status = "ok",
               nlohmann::json cnt = nullptr) {
  tuner::TrialRecord t;
  t.run_id = run;
  t.graph = graph;
  t.spec = "uniform";
  t.feat = feat;
  t.heads = 1;
  t.variant = variant;
  t.stage = stage;
  t.status = status;
  if (status == "ok") {
    t.median_us = us;
    t.q1_us = us * 0.99;
    t.q3_us = us * 1.01;
    t.min_us = us * 0.98;
    t.max_us = us * 1.05;
    t.mean_us = us;
    t.stddev_us = us * 0.01;
    t.rel_noise = 0.002;
    t.event_median_us = us + 3;
    t.samples = 100;
    t.timer = stage == 2 ? "interleaved" : "cupti";
  } else {
    t.detail = "max relative error 3.2e-02 above 1e-05";
  }
  t.counters = std::move(cnt);
  s.put_trial(t);
}

// One run: per graph (F=64, H=1, f32/i32) five fused variants, one wrong one, two baselines.
// `slow` scales the winner's (tpr32 vec4) time on the graph named `slow_graph`.
int64_t fill_run(tuner::Store& s, const tuner::RunInfo& info, double slow = 1.0,
                 const std::string& slow_graph = "small_u1k") {
  const int64_t run = s.open_run(info).id;
  for (const auto& g : kGraphs) {
    s.put_graph(run, g.name, "uniform:n=" + std::to_string(g.nodes) + ",deg=16",
                {{"num_nodes", g.nodes},
                 {"num_edges", g.edges},
                 {"min_degree", 16},
                 {"median_degree", 16.0},
                 {"mean_degree", 16.0},
                 {"max_degree", 16},
                 {"cv_degree", 0.0},
                 {"empty_rows", 0},
                 {"long_row_threshold", 1024},
                 {"long_row_edge_share", 0.0}});
    auto put = [&](const std::string& variant, int stage, double us,
                   const std::string& status = "ok", nlohmann::json cnt = nullptr) {
      add_trial(s, run, g.name, 64, variant, stage, us, status, std::move(cnt));
    };
    const double w = g.base_us * (g.name == slow_graph ? slow : 1.0);
    const double e = static_cast<double>(g.edges);
    put(fused(32, 4), 1, w * 1.01, "ok", counters(e * 300, e * 600, e * 64));
    put(fused(32, 4), 2, w);
    put(fused(16, 4), 1, g.base_us * 1.26, "ok", counters(e * 320, e * 640, e * 64));
    put(fused(16, 4), 2, g.base_us * 1.25);
    put(fused(8, 2), 1, g.base_us * 1.6, "ok", counters(e * 330, e * 650, e * 64));
    put(fused(32, 2), 1, g.base_us * 1.4, "ok",
        {{"ok", false}, {"reason", "RmProfilingAdminOnly=1"}});
    put(fused(64, 4, 1), 0, g.base_us * 2.0);
    put(fused(4, 1), 1, g.base_us * 0.5, "wrong");
    put(baseline(Family::seed), 1, g.base_us * 5.0, "ok", counters(e * 700, e * 900, e * 64));
    put(baseline(Family::cusparse), 1, g.base_us * 2.5, "ok", counters(e * 500, e * 800, e * 64));
  }
  s.finish_run(run);
  return run;
}

// A result of the peers file with a field of the wrong type is named in that file, not blamed on
// the run being reported; a failed peer run (no median) is skipped as before.
TEST(ReportPeers, AMistypedResultNamesThePeersFile) {
  TempDir dir("peers_mistyped");
  const fs::path p = dir / "peers.json";
  std::ofstream(p) << R"({"results": [{"graph": "cora", "impl": "pyg", "median_us": 180.0,
    "feat": 64, "heads": 1}, {"graph": "cora", "impl": "pyg"}, {"graph": "citeseer",
    "impl": "pyg", "median_us": 181.0, "feat": "64", "heads": 1}]})";
  try {
    load_peers(p.string());
    ADD_FAILURE() << "a string feat was read";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("peers file '" + p.string() + "': results[2]: "), std::string::npos)
        << what;
  }
}

TEST(ReportModel, ByteModelMatchesHandCount) {
  Roofs r;
  r.dram_gbs = 4000;
  r.l2_bytes = kL2;
  // N=1000, E=16000, F=64, H=1, i32, f32: row_ptr 4004 + col 64000 + scores 64000 + values 256000 +
  // out 256000.
  const Model m = byte_model(1000, 16000, 64, 1, 4, 4, r);
  EXPECT_TRUE(m.known);
  EXPECT_DOUBLE_EQ(m.compulsory_bytes, 644004);
  EXPECT_TRUE(m.values_fit_l2);
  EXPECT_DOUBLE_EQ(m.traffic_bytes, m.compulsory_bytes);
  EXPECT_DOUBLE_EQ(m.floor_us, 644004 / 4000e3);
  EXPECT_DOUBLE_EQ(m.flops, 16000.0 * (2 * 64 + kSoftmaxFlops));
  // 1M nodes x 64 x 2 B = 128 MB of values > the L2: every edge reads its source row through
  // L2, and misses it in the share of the values the L2 cannot hold.
  const Model big = byte_model(1000000, 16000000, 64, 1, 4, 2, r);
  EXPECT_FALSE(big.values_fit_l2);
  const double gather = 1000001.0 * 4 + 16e6 * 4 + 16e6 * 4 + 16e6 * 64 * 2 + 1e6 * 64 * 4;
  EXPECT_DOUBLE_EQ(big.gather_bytes, gather);
  const double hit = r.l2_bytes / (1e6 * 64 * 2);
  EXPECT_DOUBLE_EQ(big.l2_hit, hit);
  const double traffic =
      1000001.0 * 4 + 16e6 * 4 + 16e6 * 4 + 1e6 * 64 * 4 + 16e6 * 64 * 2 * (1 - hit);
  EXPECT_DOUBLE_EQ(big.traffic_bytes, traffic);
  EXPECT_DOUBLE_EQ(big.gather_estimate_us, traffic / 4000e3);
}

TEST(ReportModel, CountersReadBothShapesAndReasons) {
  const Counters c = counters_of(counters(1000, 2000, 10));
  EXPECT_TRUE(c.available);
  EXPECT_DOUBLE_EQ(c.dram_bytes, 1000);
  EXPECT_DOUBLE_EQ(c.l2_bytes, 2000);
  EXPECT_DOUBLE_EQ(c.flops, 2 * 10 + 1000 + 500);
  const Counters flat =
      counters_of({{"dram__bytes_read.sum", 5.0}, {"dram__bytes_write.sum", 1.0}});
  EXPECT_TRUE(flat.has_dram);
  EXPECT_DOUBLE_EQ(flat.dram_bytes, 6);
  EXPECT_FALSE(flat.has_l2);
  const Counters off = counters_of({{"ok", false}, {"reason", "RmProfilingAdminOnly=1"}});
  EXPECT_FALSE(off.available);
  EXPECT_EQ(off.why, "RmProfilingAdminOnly=1");
  EXPECT_EQ(counters_of({{"unavailable", "MIG"}}).why, "MIG");
  EXPECT_FALSE(counters_of(nullptr).available);
}

TEST(ReportModel, AchievedUsesCountersElseModel) {
  Roofs r;
  r.dram_gbs = 4000;
  r.fp32_gflops = 60000;
  r.l2_bytes = kL2;
  const Model m = byte_model(1000, 16000, 64, 1, 4, 4, r);
  const Achieved a = achieved(10.0, counters_of(counters(4e6, 8e6, 1e6)), m, r);
  EXPECT_FALSE(a.dram_model);
  EXPECT_DOUBLE_EQ(a.dram_gbs, 4e6 / 10.0 * 1e-3);  // 400 GB/s
  EXPECT_DOUBLE_EQ(a.l2_gbs, 8e6 / 10.0 * 1e-3);
  EXPECT_DOUBLE_EQ(a.ai, (2e6 + 1500) / 4e6);
  // Hand values, not the formula again: 2,001,500 flops in 10 us, 400 GB/s against a 4000 GB/s
  // roof at AI 0.500375 (below the ridge), so 10% of it.
  EXPECT_DOUBLE_EQ(a.gflops, 200.15);
  EXPECT_NEAR(a.pct_roof, 10.0, 1e-9);
  // No ceilings: the percentage is unknown (n/a, JSON null), never 0.
  EXPECT_TRUE(
      std::isnan(achieved(10.0, counters_of(counters(4e6, 8e6, 1e6)), m, Roofs{}).pct_roof));
  // No graph size and no counters: nothing is known, so no rate is 0 either.
  const Achieved none = achieved(10.0, Counters{}, Model{}, r);
  EXPECT_FALSE(none.known);
  EXPECT_TRUE(std::isnan(none.dram_gbs) && std::isnan(none.ai) && std::isnan(none.pct_roof));
  const Achieved b = achieved(10.0, Counters{}, m, r);
  EXPECT_TRUE(b.dram_model && b.l2_model && b.flops_model);
  EXPECT_DOUBLE_EQ(b.dram_bytes, m.compulsory_bytes);
  EXPECT_DOUBLE_EQ(b.flops, m.flops);
}

TEST(Report, WritesMarkdownHtmlWithWinnersSpeedupsAndModel) {
  NoCharts no_charts;
  const TempDir dir("report");
  tuner::Store s((dir / "results.sqlite").string());
  const int64_t run = fill_run(s, run_info());
  write_report(s, run, (dir / "report").string(), "");
  ASSERT_TRUE(fs::exists(dir / "report" / "report.md"));
  ASSERT_TRUE(fs::exists(dir / "report" / "report.html"));
  const std::string md = slurp(dir / "report" / "report.md");
  const std::string html = slurp(dir / "report" / "report.html");
  for (const auto& g : kGraphs) {
    EXPECT_TRUE(contains(md, g.name)) << g.name;
    EXPECT_TRUE(contains(html, g.name)) << g.name;
  }
  // Device, ceilings and how they were measured.
  EXPECT_TRUE(contains(md, "GPU-11111111-2222"));
  EXPECT_TRUE(contains(md, "560.35.03"));
  EXPECT_TRUE(contains(md, "4000.0 GB/s"));
  EXPECT_TRUE(contains(md, "float4 grid-stride copy"));
  EXPECT_TRUE(contains(md, "50 samples by the cupti timer"));
  // The winner row of the summary: the stage-2 median of tpr32 vec4, its spread and speedups.
  const std::string winner = fused(32, 4);
  EXPECT_TRUE(contains(md, "| small_u1k F=64 H=1 f32/i32 | `" + winner + "` | " + format_us(10.0) +
                               " | " + format_us(9.9) + "–" + format_us(10.1) +
                               " | 0.20% | interleaved |"))
      << md;
  EXPECT_TRUE(contains(md, "| " + format_us(2000.0) + " |"));
  EXPECT_TRUE(contains(md, "| 5.00x | 2.50x |"));
  // The byte model is stated, and a winner is set against its floor.
  EXPECT_TRUE(contains(md, "Compulsory bytes, every array once"));
  EXPECT_TRUE(contains(md, "E*H*F*value_bytes"));
  EXPECT_TRUE(contains(md, "x the floor"));
  EXPECT_TRUE(contains(md, "gather estimate"));
  // A variant without counters is marked, the wrong one is out, the screening-only one is in.
  EXPECT_TRUE(contains(md, "(model)"));
  EXPECT_TRUE(contains(md, "Disqualified"));
  EXPECT_TRUE(contains(md, fused(4, 1)));
  EXPECT_TRUE(contains(md, "Charts skipped"));
  EXPECT_TRUE(contains(html, "<table>"));
  EXPECT_FALSE(contains(html, "http://") || contains(html, "https://"))
      << "the page must open offline";

  const auto j = nlohmann::json::parse(slurp(dir / "report" / "report.json"));
  ASSERT_EQ(j["problems"].size(), 2u);
  for (const auto& p : j["problems"]) {
    ASSERT_TRUE(p.contains("winner")) << p.dump();
    EXPECT_EQ(p["winner"]["variant"], winner);
    EXPECT_NEAR(p["winner"]["speedup_seed"].get<double>(), 5.0, 1e-9);
    EXPECT_NEAR(p["winner"]["speedup_cusparse"].get<double>(), 2.5, 1e-9);
    EXPECT_FALSE(
        p["winner"]["dram_from_model"].get<bool>());  // stage-1 counters under a stage-2 time
    const double e = p["graph"] == "small_u1k" ? 16000 : 16e6,
                 us = p["graph"] == "small_u1k" ? 10 : 2000;
    EXPECT_NEAR(p["winner"]["dram_gbs"].get<double>(), e * 300 / us * 1e-3, 1e-6);
    EXPECT_EQ(p["runners_up"].size(), 4u);
  }
}

// report.md of fill_run's run with run_info()'s ceilings alone (DRAM and L2 copy, FP32, launch:
// a run recorded before the L2 gather and DRAM read ceilings), in a folder named `name`.
std::string report_md_of_a_plain_run(const std::string& name) {
  const TempDir dir(name);
  tuner::Store s((dir / "results.sqlite").string());
  write_report(s, fill_run(s, run_info()), (dir / "report").string(), "");
  return slurp(dir / "report" / "report.md");
}

// Where the run measured the DRAM read ceiling it is the roof of the floors and the roofline
// (the kernels here read 90%+ of their DRAM bytes and pass the copy's roof on their counters);
// runs recorded before it keep the copy's.
TEST(ReportModel, TheDramRoofIsTheReadCeilingWhenMeasured) {
  Roofs r;
  r.dram_gbs = 4000;
  r.fp32_gflops = 60000;
  r.l2_bytes = kL2;
  EXPECT_DOUBLE_EQ(r.dram_roof_gbs(), 4000.0);
  EXPECT_STREQ(r.dram_roof_name(), "DRAM copy");
  const Model copy_model = byte_model(1000000, 16000000, 64, 1, 4, 4, r);
  r.dram_read_gbs = 5000;
  EXPECT_DOUBLE_EQ(r.dram_roof_gbs(), 5000.0);
  EXPECT_STREQ(r.dram_roof_name(), "DRAM read");
  const Model m = byte_model(1000000, 16000000, 64, 1, 4, 4, r);
  // Hand values: compulsory 4,000,004 + 64,000,000 + 64,000,000 + 256,000,000 + 256,000,000
  // bytes = 644,000,004, at 5000 GB/s = 5e6 bytes a microsecond.
  EXPECT_DOUBLE_EQ(m.compulsory_bytes, 644000004.0);
  EXPECT_DOUBLE_EQ(m.floor_us, 644000004.0 / 5e6);
  EXPECT_DOUBLE_EQ(copy_model.floor_us, 644000004.0 / 4e6);
  EXPECT_DOUBLE_EQ(m.gather_estimate_us, copy_model.gather_estimate_us * 0.8);
  // 4e6 bytes in 1 us = 4000 GB/s: 100% of the copy's roof, 80% of the read roof.
  const Achieved a = achieved(1.0, counters_of(counters(4e6, 8e6, 1e6)), m, r);
  EXPECT_NEAR(a.pct_roof, 80.0, 1e-9);
  // A read measured below the copy (noise, or a device whose reads are slower) is not the roof:
  // it would raise every floor the report calls a lower bound.
  r.dram_read_gbs = 3500;
  EXPECT_DOUBLE_EQ(r.dram_roof_gbs(), 4000.0);
  EXPECT_STREQ(r.dram_roof_name(), "DRAM copy");
  EXPECT_DOUBLE_EQ(byte_model(1000000, 16000000, 64, 1, 4, 4, r).floor_us, copy_model.floor_us);
}

TEST(Report, TheDramReadCeilingIsListedAndIsTheFloorsRoof) {
  NoCharts no_charts;
  const TempDir dir("report-dram-read");
  tuner::Store s((dir / "results.sqlite").string());
  tuner::RunInfo info = run_info();
  info.ceilings["dram_read_gbs"] = 4400.0;
  info.ceilings["method"]["dram_read"] = {{"timer", "cupti"},
                                          {"samples", 10},
                                          {"kernel", "float4 grid-stride read, summed"},
                                          {"median_gbs", 4350.0}};
  write_report(s, fill_run(s, info), (dir / "report").string(), "");
  const std::string md = slurp(dir / "report" / "report.md");
  EXPECT_TRUE(contains(md, "| DRAM copy | 4000.0 GB/s |")) << md;
  EXPECT_TRUE(
      contains(md, "| DRAM read | 4400.0 GB/s | 4350.0 GB/s | float4 grid-stride read, summed"))
      << md;
  EXPECT_TRUE(contains(md, "us (compulsory bytes at the DRAM read ceiling)")) << md;
  const auto j = nlohmann::json::parse(slurp(dir / "report" / "report.json"));
  EXPECT_DOUBLE_EQ(j["ceilings"]["dram_gbs"].get<double>(), 4000.0);
  EXPECT_DOUBLE_EQ(j["ceilings"]["dram_read_gbs"].get<double>(), 4400.0);
  EXPECT_DOUBLE_EQ(j["ceilings"]["dram_roof_gbs"].get<double>(), 4400.0);
  EXPECT_EQ(j["ceilings"]["dram_roof"], "DRAM read");
  // The charts' input: the roof they draw, and its name for the legend (scripts/plot_report.py).
  const auto chart = nlohmann::json::parse(slurp(dir / "report" / "chart_data.json"));
  EXPECT_DOUBLE_EQ(chart["ceilings"]["dram_gbs"].get<double>(), 4400.0);
  EXPECT_EQ(chart["ceilings"]["dram_roof"], "DRAM read");

  const std::string old_md = report_md_of_a_plain_run("report-dram-read-old");
  EXPECT_FALSE(contains(old_md, "DRAM read")) << old_md;
  EXPECT_TRUE(contains(old_md, "us (compulsory bytes at the DRAM copy ceiling)")) << old_md;
}

// The L2 gather ceiling (measured since the sixteenth session): a row of the ceilings table and,
// for a problem whose values fit in L2, its floor at that rate. Runs measured before it have
// neither (a plain run: no such row).
TEST(Report, L2GatherCeilingAndFloorWhenMeasured) {
  NoCharts no_charts;
  const TempDir dir("report-l2-gather");
  tuner::Store s((dir / "results.sqlite").string());
  tuner::RunInfo info = run_info();
  info.ceilings["l2_gather_gbs"] = 5000.0;
  info.ceilings["method"]["l2_gather"] = {
      {"timer", "cupti"},     {"samples", 10},    {"kernel", "random row gathers"},
      {"matrix_bytes", 15e6}, {"row_bytes", 256}, {"row_numbers", 1966080},
      {"median_gbs", 4900.0}};
  const int64_t run = fill_run(s, info);
  write_report(s, run, (dir / "report").string(), "");
  const std::string md = slurp(dir / "report" / "report.md");
  EXPECT_TRUE(contains(md,
                       "| L2 gather | 5000.0 GB/s | 4900.0 GB/s | random row gathers; 15.0 MB "
                       "of 256-byte rows, 1966080 random row numbers;"))
      << md;
  // small_u1k: (N+1)*4 + E*4 + E*4 + E*64*4 + N*64*4 bytes through L2, N = 1000, E = 16000.
  const double gather_bytes = 1001 * 4 + 16000 * 4 + 16000 * 4 + 16000 * 64 * 4 + 1000 * 64 * 4;
  const double l2_floor = gather_bytes / (5000.0 * 1e3);
  EXPECT_TRUE(contains(md, "L2 floor " + format_us(l2_floor) +
                               " us (the gather bytes at the L2 gather ceiling: every gather an "
                               "L2 access); the winner takes " +
                               fmt(10.0 / l2_floor, 2) + "x it."))
      << md;
  const auto j = nlohmann::json::parse(slurp(dir / "report" / "report.json"));
  EXPECT_DOUBLE_EQ(j["ceilings"]["l2_gather_gbs"].get<double>(), 5000.0);

  const std::string old_md = report_md_of_a_plain_run("report-l2-gather-old");
  EXPECT_FALSE(contains(old_md, "L2 gather")) << old_md;
  EXPECT_FALSE(contains(old_md, "L2 floor")) << old_md;
}

// A run spread over two GPUs (tuner run on a two-GPU machine: each problem on one worker)
// names every GPU with its problems; a run on one GPU says nothing more than its device table.
TEST(Report, RunOnSeveralGpusNamesEachGpusProblems) {
  NoCharts no_charts;
  const TempDir dir("report-gpus");
  tuner::Store s((dir / "results.sqlite").string());
  const int64_t run = fill_run(s, run_info());
  auto stamp_and_report = [&](const std::string& name, auto gpu_of) {
    for (auto t : s.trials(run)) {
      t.raw = {{"gpu_uuid", gpu_of(t)}};
      s.put_trial(t);
    }
    write_report(s, run, (dir / name).string(), "");
    return slurp(dir / name / "report.md");
  };
  // Unstamped (stores from before the stamp) and all on one GPU: nothing to add.
  write_report(s, run, (dir / "none").string(), "");
  EXPECT_FALSE(contains(slurp(dir / "none" / "report.md"), "Measured on"));
  EXPECT_FALSE(
      contains(stamp_and_report("one", [](const tuner::TrialRecord&) { return "GPU-aaaa"; }),
               "Measured on"));
  // Two GPUs, one graph each.
  const std::string md = stamp_and_report("two", [](const tuner::TrialRecord& t) {
    return t.graph == "big_u1m" ? "GPU-bbbb" : "GPU-aaaa";
  });
  EXPECT_TRUE(contains(md, "Measured on 2 GPUs (the device table describes GPU 0, `GPU-11111111"))
      << md.substr(0, 900);
  EXPECT_TRUE(contains(
      md,
      "each (graph, F, H) on one: `GPU-aaaa`: small_u1k F=64 H=1; `GPU-bbbb`: big_u1m F=64 H=1."))
      << md.substr(0, 900);
  EXPECT_FALSE(contains(md, "compared across chips"));
  // One graph's trials split over both GPUs (a resumed problem that moved): named as such.
  const std::string mixed = stamp_and_report("mixed", [](const tuner::TrialRecord& t) {
    return t.graph == "big_u1m" && t.stage == 2 ? "GPU-bbbb" : "GPU-aaaa";
  });
  EXPECT_TRUE(contains(mixed, "compared across chips: big_u1m F=64 H=1.")) << mixed.substr(0, 900);
  EXPECT_FALSE(contains(mixed, "each (graph, F, H) on one"));
  EXPECT_FALSE(contains(mixed, "continues run"));
  // A run that continued one stopped on another machine (tuner run --continue) says so.
  auto continued = run_info();
  continued.gpu_uuid = "GPU-cccc";
  s.continue_run(continued, run, {});  // carries nothing; fill_run's open_run resumes it
  const int64_t next = fill_run(s, continued);
  write_report(s, next, (dir / "continued").string(), "");
  EXPECT_TRUE(contains(slurp(dir / "continued" / "report.md"),
                       "(continues run " + std::to_string(run) + ", stopped on another GPU"));
  EXPECT_FALSE(contains(slurp(dir / "continued" / "report.md"), "tuner run --reuse"));
  // A run that took an earlier run's finished problem (tuner run --reuse) names that run.
  s.finish_problem(run, "small_u1k", 64, 1, "GPU-aaaa");
  auto reusing = run_info();
  reusing.gpu_uuid = "GPU-dddd";
  reusing.config_hash = "reusing";
  const int64_t third = s.open_run(reusing).id;
  s.reuse_problems(third, {{run, s.finished_problems(run).at(0)}});
  EXPECT_EQ(s.runs_taken_from(third), std::vector<int64_t>{run});
  write_report(s, third, (dir / "reused").string(), "");
  EXPECT_TRUE(contains(
      slurp(dir / "reused" / "report.md"),
      "(took the finished problems of run " + std::to_string(run) +
          " whose problem fingerprint and graph sources are this config's: tuner run --reuse)"))
      << slurp(dir / "reused" / "report.md").substr(0, 600);
}

TEST(Report, PeersAreFoldedInByGraphAndFeat) {
  NoCharts no_charts;
  const TempDir dir("peers");
  tuner::Store s((dir / "results.sqlite").string());
  const int64_t run = fill_run(s, run_info());
  const nlohmann::json peers{
      {"meta", {{"torch", "2.4.0"}, {"torch_geometric", "2.5.3"}, {"gpu", "NVIDIA H200"}}},
      {"results",
       {{{"graph", "small_u1k"},
         {"feat", 64},
         {"heads", 1},
         {"impl", "pyg"},
         {"median_us", 40.0},
         {"q1_us", 39.0},
         {"q3_us", 41.0},
         {"rel_error", 1e-7},
         {"samples", 50}},
        {{"graph", "small_u1k"},
         {"feat", 64},
         {"heads", 1},
         {"impl", "torch_sparse_csr"},
         {"median_us", 30.0},
         {"q1_us", 29.0},
         {"q3_us", 31.0},
         {"rel_error", 2e-7},
         {"samples", 50}},
        {{"graph", "small_u1k"}, {"feat", 128}, {"impl", "pyg"}, {"median_us", 99.0}}}}};
  std::ofstream((dir / "peers.json").string()) << peers.dump();
  write_report(s, run, (dir / "report").string(), (dir / "peers.json").string());
  const std::string md = slurp(dir / "report" / "report.md");
  EXPECT_TRUE(contains(md, "4.00x over pyg"));
  EXPECT_TRUE(contains(md, "3.00x over torch_sparse_csr"));
  const auto j = nlohmann::json::parse(slurp(dir / "report" / "report.json"));
  EXPECT_NEAR(j["problems"][1]["winner"]["speedup_peers"]["pyg"].get<double>(), 4.0, 1e-9);
  EXPECT_THROW(write_report(s, run, (dir / "r2").string(), (dir / "missing.json").string()),
               std::runtime_error);
  EXPECT_FALSE(contains(md, "the peers were measured on"));
  // Not one timer: the text says so, with the run's own launch cost.
  EXPECT_TRUE(contains(md,
                       "timed by their own timer, against the winner's GPU time by its own "
                       "timer (CUPTI's span has no launch)"))
      << md;
  EXPECT_TRUE(contains(md, "(this run measured a plain launch at 2.50 us)")) << md;
  // The run's timing is said, and with it whether the DRAM floor bounds its times.
  EXPECT_TRUE(contains(md, "timed with L2 cold, single launches; `x floor`")) << md;
  EXPECT_TRUE(contains(md, "(compulsory bytes at the DRAM roof: a lower bound)")) << md;
  // Peers from another GPU model: the report says so beside the ratios.
  nlohmann::json other = peers;
  other["meta"]["gpu"] = "NVIDIA A100-SXM4-80GB";
  std::ofstream((dir / "a100.json").string()) << other.dump();
  write_report(s, run, (dir / "r3").string(), (dir / "a100.json").string());
  EXPECT_TRUE(contains(slurp(dir / "r3" / "report.md"),
                       "**Warning**: the peers were measured on NVIDIA A100-SXM4-80GB, this run on NVIDIA H200"));
  // A run timed warm through graph replays: its floor is not a bound of its times.
  tuner::Store w((dir / "warm.sqlite").string());
  tuner::RunInfo warm = run_info();
  warm.config = {{"timing", {{"cache", "warm"}, {"graph_replay", true}}}};
  write_report(w, fill_run(w, warm), (dir / "r4").string(), "");
  const std::string wmd = slurp(dir / "r4" / "report.md");
  EXPECT_TRUE(contains(wmd, "timed with L2 warm, graph replays; `x floor`")) << wmd;
  EXPECT_TRUE(contains(wmd, "a lower bound of a cold single launch only")) << wmd;
}

TEST(Report, ChartsDrawnWhenMatplotlibExistsElseSkipNote) {
  const TempDir dir("charts");
  tuner::Store s((dir / "results.sqlite").string());
  const int64_t run = fill_run(s, run_info());
  write_report(s, run, (dir / "report").string(), "");
  const std::string md = slurp(dir / "report" / "report.md");
  const std::string html = slurp(dir / "report" / "report.html");
  EXPECT_TRUE(fs::exists(dir / "report" / "chart_data.json"));
  std::string why;
  if (find_matplotlib_python(&why).empty()) {
    EXPECT_TRUE(contains(md, "Charts skipped")) << md;
    EXPECT_TRUE(contains(md, "matplotlib"));
    GTEST_SKIP() << "no Python with matplotlib here (" << why << "): checked the skip note only";
  }
  for (const char* f : {"roofline.png", "roofline.svg", "params.png", "params.svg"})
    EXPECT_TRUE(fs::exists(dir / "report" / f)) << f;
  EXPECT_TRUE(contains(md, "![roofline](roofline.png)"));
  EXPECT_FALSE(contains(md, "Charts skipped"));
  EXPECT_TRUE(contains(html, "<svg"));  // inlined: the page opens offline
}

TEST(Report, RunReportNeverThrows) {
  NoCharts no_charts;
  const TempDir dir("never_throws");
  tuner::Store s((dir / "results.sqlite").string());
  tuner::Config cfg;
  cfg.output = (dir / "out").string();
  EXPECT_NO_THROW(write_run_report(cfg, s, 42));  // no such run: printed, not thrown
  const int64_t run = fill_run(s, run_info());
  EXPECT_NO_THROW(write_run_report(cfg, s, run));
  EXPECT_TRUE(fs::exists(dir / "out" / "report" / "report.md"));
}

TEST(ReportPlot, MissingProgramIsAResultNotACrash) {
  const ProcessResult r = run_process({"/nonexistent/csrgat-no-such-python"}, {}, 10);
  EXPECT_NE(r.exit_code, 0);
  const ProcessResult ok =
      run_process({"sh", "-c", "echo $CSRGAT_T; exit 3"}, {"CSRGAT_T=hello"}, 10);
  EXPECT_EQ(ok.exit_code, 3);
  EXPECT_EQ(ok.output, "hello\n");
  const ProcessResult slow = run_process({"sleep", "5"}, {}, 0.2);
  EXPECT_TRUE(slow.timed_out);
  EXPECT_TRUE(contains(embedded_plot_script(), "def roofline("));
}

TEST(Compare, ClassifyNeedsThresholdAndNoise) {
  EXPECT_EQ(classify(100, 0.001, 110, 0.001, 0.03).change, Change::slower);
  EXPECT_EQ(classify(110, 0.001, 100, 0.001, 0.03).change, Change::faster);
  EXPECT_EQ(classify(100, 0.001, 102, 0.001, 0.03).change, Change::same);  // within the threshold
  EXPECT_EQ(classify(100, 0.05, 110, 0.05, 0.03).change, Change::same);  // within 2 sigma of noise
  // A noise not known (one sample): the threshold alone decides.
  EXPECT_EQ(classify(100, INFINITY, 200, 0.001, 0.03).change, Change::slower);
  EXPECT_EQ(classify(100, INFINITY, 1000, INFINITY, 0.03).change, Change::slower);
  EXPECT_EQ(classify(200, INFINITY, 100, 0.001, 0.03).change, Change::faster);
  EXPECT_EQ(classify(100, INFINITY, 102, 0.001, 0.03).change, Change::same);
  EXPECT_EQ(classify(0, 0.001, 100, 0.001, 0.03).change, Change::same);  // no time to compare
  EXPECT_EQ(classify(100, 0.001, NAN, 0.001, 0.03).change, Change::same);
  const Verdict v = classify(100, 0.01, 120, 0.01, 0.03);
  EXPECT_NEAR(v.noise_us, 2 * std::sqrt(1.0 + 1.44), 1e-12);
  EXPECT_NEAR(v.ratio, 1.2, 1e-12);
}

TEST(Compare, IdenticalRunsHaveNoSlowerChoice) {
  const TempDir dir("cmp_same");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info());
  }
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.tuned_slower, 0);
  EXPECT_EQ(r.tuned_same, 2);
  EXPECT_EQ(r.dispatch_same, 2);  // each graph its own bucket, its winner the rule's kernel
  EXPECT_EQ(r.dispatch_slower + r.dispatch_faster + r.dispatch_untimed, 0);
  EXPECT_EQ(r.variants_slower + r.variants_faster, 0);
  EXPECT_TRUE(contains(r.markdown, "no change"));
  EXPECT_TRUE(contains(r.markdown, "No problem's dispatch moved")) << r.markdown;
  write_compare(r, (dir / "out").string());
  EXPECT_TRUE(fs::exists(dir / "out" / "compare.md"));
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "out" / "compare.json"))["exit_code"], 0);
}

TEST(Compare, TenPercentSlowerWinnerIsARegression) {
  const TempDir dir("cmp_slow");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info(), 1.10, "big_u1m");
  }
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.tuned_slower, 1);
  EXPECT_EQ(r.tuned_same, 1);
  EXPECT_EQ(r.dispatch_slower, 1);  // the rule's kernel is the winner that got slower
  EXPECT_EQ(r.json["summary"]["dispatch_slower"], 1);
  EXPECT_GE(r.variants_slower, 1);
  EXPECT_TRUE(contains(r.markdown, "REGRESSION"));
  EXPECT_TRUE(contains(r.markdown, "| big_u1m F=64 H=1 f32/i32 | **slower** | `" + fused(32, 4) +
                                       "` | " + format_us(2000.0) + " | (same) | " +
                                       format_us(2200.0) + " | +10.0% |"))
      << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "Rule:"));
  // The other way round it is an improvement, not a failure.
  const auto back = compare_runs(load_run_source((dir / "b.sqlite").string()),
                                 load_run_source((dir / "a.sqlite").string()), {});
  EXPECT_EQ(back.exit_code, 0);
  EXPECT_EQ(back.tuned_faster, 1);
  // A threshold above the change hides it.
  CompareOptions loose;
  loose.threshold = 0.2;
  EXPECT_EQ(compare_runs(load_run_source((dir / "a.sqlite").string()),
                         load_run_source((dir / "b.sqlite").string()), loose)
                .exit_code,
            0);
}

// One run on uniform 2M (F=128, f32): the rule's kernel kSweepRuleV at 7476 us, another fused
// kernel at 7900 and, with `sweep`, the column-blocked sweep kSweepC at 6900, which the header
// then runs there.
const std::string kSweepRuleV = "csrgat.tpr16.fl16.rpb8.vec4.t1.g4.smem3.online.split0.i32.f32";
const std::string kSweepC = "colblock.r19.ps16.lag8.i32.f32";
int64_t fill_sweep_run(tuner::Store& s, bool sweep) {
  const int64_t run = s.open_run(run_info()).id;
  s.put_graph(
      run, "u2m", "uniform:n=2000000,deg=32",
      {{"num_nodes", 2000000}, {"num_edges", 64000000}, {"mean_degree", 32.0}, {"max_degree", 70}});
  add_trial(s, run, "u2m", 128, kSweepRuleV, 2, 7476.0);
  add_trial(s, run, "u2m", 128, "csrgat.tpr8.fl8.rpb16.vec4.t2.g4.smem0.online.split0.i32.f32", 2,
            7900.0);
  add_trial(s, run, "u2m", 128, baseline(Family::seed), 1, 9000.0);
  if (sweep) add_trial(s, run, "u2m", 128, kSweepC, 2, 6900.0);
  s.finish_run(run);
  return run;
}

// The report's dispatch section: what the header runs per problem against the winner and the
// baselines (target 1 is about the dispatch), the sweep where the rule carries one.
TEST(Report, TheHeadersDispatchPerProblem) {
  const NoCharts no_charts;
  const TempDir dir("report_dispatch");
  for (const bool sweep : {false, true}) {
    SCOPED_TRACE(sweep ? "sweep" : "no sweep");
    tuner::Store s((dir / (sweep ? "sweep.sqlite" : "plain.sqlite")).string());
    const std::string out = (dir / (sweep ? "sweep" : "plain")).string();
    write_report(s, fill_sweep_run(s, sweep), out, "");
    const std::string md = slurp(fs::path(out) / "report.md");
    const std::string kernel = sweep ? kSweepC : kSweepRuleV;
    const double us = sweep ? 6900.0 : 7476.0;
    EXPECT_TRUE(contains(md, "## The header's dispatch per problem")) << md;
    EXPECT_TRUE(contains(md, "| u2m F=128 H=1 f32/i32 | `" + kernel + "`" +
                                 (sweep ? " (the rule's sweep)" : "") + " | " + format_us(us) +
                                 " | 2 | " + fmt(us / 7476.0, 3) + " | " +
                                 format_speedup(9000.0 / us) + " | n/a |"))
        << md;
    EXPECT_TRUE(contains(md,
                         "On each of the 1 timed problems with a baseline timed, the dispatch's "
                         "median is below every baseline's timed there (both seed and cuSPARSE on "
                         "0)."))
        << md;
    const auto j = nlohmann::json::parse(slurp(fs::path(out) / "report.json"));
    const auto& x = j["problems"].at(0)["dispatch"];
    EXPECT_EQ(x["kernel"], kernel);
    EXPECT_EQ(x["sweep"], sweep);
    EXPECT_DOUBLE_EQ(x["speedup_seed"].get<double>(), 9000.0 / us);
    EXPECT_DOUBLE_EQ(x["over_winner"].get<double>(), us / 7476.0);
    EXPECT_EQ(x["stage"], 2);
    EXPECT_TRUE(x["speedup_cusparse"].is_null());
  }
}

// The header's dispatch, not only each problem's fastest fused kernel: a column-blocked sweep
// attached to the rule in one run and not in the other moves what the header runs while the
// tuned choice (a fused kernel) keeps its time. Gained, the dispatch is faster with another
// kernel; lost, the gate fails (before the sixty-sixth session compare showed neither).
TEST(Compare, TheHeadersDispatchIsComparedAndASlowerOneFailsTheGate) {
  const TempDir dir("cmp_dispatch");
  const auto fill = [&](const std::string& file, bool sweep) {
    tuner::Store s((dir / file).string());
    fill_sweep_run(s, sweep);
  };
  fill("plain.sqlite", false);
  fill("sweep.sqlite", true);
  const auto gained = compare_runs(load_run_source((dir / "plain.sqlite").string()),
                                   load_run_source((dir / "sweep.sqlite").string()), {});
  EXPECT_EQ(gained.tuned_same, 1);
  EXPECT_EQ(gained.dispatch_faster, 1);
  EXPECT_EQ(gained.exit_code, 0);
  EXPECT_TRUE(contains(gained.markdown, "## csrgat compare: improved")) << gained.markdown;
  EXPECT_TRUE(contains(gained.markdown, "| u2m F=128 H=1 f32/i32 | **faster** | `" + kSweepRuleV +
                                            "` | " + format_us(7476.0) + " | `" + kSweepC + "` | " +
                                            format_us(6900.0) + " | -7.7% |"))
      << gained.markdown;
  const auto& row = gained.json["dispatch"].at(0);
  EXPECT_EQ(row["base"]["kernel"], kSweepRuleV);
  EXPECT_EQ(row["new"]["kernel"], kSweepC);
  EXPECT_EQ(row["new"]["sweep"], true);
  EXPECT_EQ(row["kernel_changed"], true);

  const auto lost = compare_runs(load_run_source((dir / "sweep.sqlite").string()),
                                 load_run_source((dir / "plain.sqlite").string()), {});
  EXPECT_EQ(lost.tuned_same, 1);
  EXPECT_EQ(lost.tuned_slower, 0);
  EXPECT_EQ(lost.dispatch_slower, 1);
  EXPECT_EQ(lost.exit_code, 1);
  EXPECT_TRUE(contains(lost.markdown, "## csrgat compare: REGRESSION")) << lost.markdown;
  EXPECT_TRUE(contains(lost.markdown, "the header's dispatch: **1 slower**")) << lost.markdown;
}

// A run on one small uniform graph "g" (1,000 nodes, degree 16), its trials to be added.
int64_t open_small_run(tuner::Store& s) {
  const int64_t run = s.open_run(run_info()).id;
  s.put_graph(
      run, "g", "uniform:n=1000,deg=16",
      {{"num_nodes", 1000}, {"num_edges", 16000}, {"mean_degree", 16.0}, {"max_degree", 16}});
  return run;
}

// The dispatch section's verdict on the baselines speaks of those timed: a problem where neither
// was timed is named, not counted as one where the dispatch beat both (a review found "below
// both baselines'" on a run whose bfloat16 problems had neither).
TEST(Report, TheDispatchIsHeldOnlyToTheBaselinesTimed) {
  const NoCharts no_charts;
  const TempDir dir("report_dispatch_baselines");
  tuner::Store s((dir / "r.sqlite").string());
  const int64_t run = open_small_run(s);
  const std::string A = fused(32, 4);
  add_trial(s, run, "g", 64, A, 2, 10.0);
  add_trial(s, run, "g", 96, A, 2, 20.0);
  add_trial(s, run, "g", 96, baseline(Family::seed), 1, 30.0);
  add_trial(s, run, "g", 96, baseline(Family::cusparse), 1, 25.0);
  s.finish_run(run);
  const std::string out = (dir / "report").string();
  write_report(s, run, out, "");
  const std::string md = slurp(fs::path(out) / "report.md");
  EXPECT_TRUE(contains(md,
                       "On each of the 1 timed problems with a baseline timed, the dispatch's "
                       "median is below every baseline's timed there (both seed and cuSPARSE on "
                       "1). No baseline timed on 1: g F=64 H=1 f32/i32."))
      << md;
  EXPECT_FALSE(contains(md, "below both baselines")) << md;
}

// A rule may dispatch a kernel that was never timed on one of its problems (no variant measured
// on all of them: the largest problem's winner, here F=96's over F=64's on one graph, which no
// cut on the graph's shape separates). That problem's dispatch has no time to compare: it is
// counted and named, not called the same.
TEST(Compare, ADispatchNotTimedOnItsProblemIsNamed) {
  const TempDir dir("cmp_untimed");
  const std::string A = fused(32, 4), B = fused(16, 4);
  for (const char* file : {"a.sqlite", "b.sqlite"}) {
    tuner::Store s((dir / file).string());
    const int64_t run = open_small_run(s);
    add_trial(s, run, "g", 64, A, 2, 10.0);
    add_trial(s, run, "g", 96, B, 2, 20.0);
    s.finish_run(run);
  }
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.tuned_same, 2);
  EXPECT_EQ(r.dispatch_same, 1);
  EXPECT_EQ(r.dispatch_untimed, 1);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.markdown, ", 1 not timed in base;")) << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "g F=64 H=1 f32/i32: base `" + B + "` (not timed on it), new `" +
                                       B + "` (not timed on it)"))
      << r.markdown;
  const auto& rows = r.json["dispatch"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["change"], "not timed");
  EXPECT_TRUE(rows[0]["base"]["median_us"].is_null());
}

// A store without the graph's features (from before they were kept) places its problem in the
// catch-all rule only; what the library would take there by the graph's shape is unknown. Such a
// dispatch is named and not compared (a review: dropping one side's features read as a 53%
// slower dispatch and failed the gate), and the report says it is a guess.
TEST(Compare, ADispatchWithoutTheGraphsFeaturesIsNotCompared) {
  const NoCharts no_charts;
  const TempDir dir("cmp_no_shape");
  const std::string A = fused(32, 4), B = fused(16, 4);
  for (const bool features : {true, false}) {
    tuner::Store s((dir / (features ? "with.sqlite" : "without.sqlite")).string());
    const int64_t run = s.open_run(run_info()).id;
    // Three graphs, three buckets (mean degree 2, 16 and 40): with features each is its own
    // rule's.
    s.put_graph(run, "g", "uniform:n=1000,deg=16",
                features ? nlohmann::json{{"num_nodes", 1000},
                                          {"num_edges", 16000},
                                          {"mean_degree", 16.0},
                                          {"max_degree", 16}}
                         : nlohmann::json());
    s.put_graph(
        run, "h", "uniform:n=1000,deg=2",
        {{"num_nodes", 1000}, {"num_edges", 2000}, {"mean_degree", 2.0}, {"max_degree", 2}});
    s.put_graph(
        run, "i", "uniform:n=1000,deg=40",
        {{"num_nodes", 1000}, {"num_edges", 40000}, {"mean_degree", 40.0}, {"max_degree", 40}});
    add_trial(s, run, "g", 64, A, 2, 10.0);
    add_trial(s, run, "g", 64, B, 2, 15.0);
    add_trial(s, run, "h", 64, B, 2, 5.0);
    add_trial(s, run, "i", 64, B, 2, 30.0);  // B on 3 of 3 problems, A on 1: B is the catch-all
    s.finish_run(run);
    if (!features) write_report(s, run, (dir / "report").string(), "");
  }
  const auto r = compare_runs(load_run_source((dir / "with.sqlite").string()),
                              load_run_source((dir / "without.sqlite").string()), {});
  EXPECT_EQ(r.dispatch_unknown, 1);
  EXPECT_EQ(r.dispatch_slower + r.dispatch_lost, 0);
  EXPECT_EQ(r.exit_code, 0) << r.markdown;
  EXPECT_TRUE(contains(r.markdown,
                       "**Dispatch not known** (a run's store has no features of the "
                       "graph"))
      << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "g F=64 H=1 f32/i32 (no graph features in new)")) << r.markdown;
  // What it would have compared: g's own rule's A (10 us) against the catch-all's B (15 us).
  bool seen = false;
  for (const auto& row : r.json["dispatch"])
    if (row["graph"] == "g") {
      seen = true;
      EXPECT_EQ(row["change"], "shape unknown");
      EXPECT_EQ(row["base"]["kernel"], A);
      EXPECT_EQ(row["new"]["kernel"], B);
      EXPECT_EQ(row["new"]["shape_unknown"], true);
    }
  EXPECT_TRUE(seen) << r.json["dispatch"].dump();
  const std::string md = slurp(dir / "report" / "report.md");
  EXPECT_TRUE(contains(md, "(the catch-all's: no graph features in the store, a guess)")) << md;
}

// New runs, on a problem where base's dispatch was timed, a kernel nobody timed there or one
// ruled out there (wrong, or hung: a timeout rules a kernel out as the selection does,
// tuner::rules_out): the dispatch is lost, and that fails the gate as a lost tuned choice does,
// even when every tuned choice kept its time. A variant timed in both runs but ruled out in new
// is listed as broken there, with its status, not compared by the time it had before.
TEST(Compare, ADispatchRuledOutOrUntimedInNewIsLost) {
  const TempDir dir("cmp_dispatch_lost");
  const std::string A = fused(32, 4), B = fused(16, 4);
  // One graph at F=64 and F=96 (one bucket: no cut on the graph's shape separates them).
  // base: A on both, the rule's kernel. untimed: A alone on F=64, B alone on F=96: no kernel
  // covers both, so the rule is the largest problem's winner, B, never timed on F=64. wrong
  // (and timeout): A on both but wrong (hung) once on F=64 (out there), B on F=64 only: the rule
  // is again the largest problem's winner, A, which the header would run on F=64 where it failed.
  const auto fill = [&](const std::string& file, const std::string& how) {
    tuner::Store s((dir / file).string());
    const int64_t run = open_small_run(s);
    add_trial(s, run, "g", 64, A, 2, 10.0);
    if (how == "base") add_trial(s, run, "g", 96, A, 2, 20.0);
    if (how == "untimed") add_trial(s, run, "g", 96, B, 2, 19.0);
    if (how == "wrong" || how == "timeout") {
      add_trial(s, run, "g", 96, A, 2, 20.0);
      add_trial(s, run, "g", 64, A, 1, 10.0, how);
      add_trial(s, run, "g", 64, B, 2, 10.0);
    }
    s.finish_run(run);
  };
  fill("base.sqlite", "base");
  for (const char* how : {"untimed", "wrong", "timeout"}) fill(std::string(how) + ".sqlite", how);
  for (const std::string how : {"untimed", "wrong", "timeout"}) {
    SCOPED_TRACE(how);
    const auto r = compare_runs(load_run_source((dir / "base.sqlite").string()),
                                load_run_source((dir / (how + ".sqlite")).string()), {});
    EXPECT_EQ(r.tuned_slower + r.tuned_lost, 0);
    EXPECT_EQ(r.dispatch_lost, 1);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.markdown, "## csrgat compare: REGRESSION")) << r.markdown;
    EXPECT_TRUE(contains(r.markdown, "**1 lost** (ruled out or untimed in new)")) << r.markdown;
    const std::string tail = how == "untimed" ? "`" + B + "` (not timed on it)"
                             : how == "wrong" ? "`" + A + "` (wrong on it)"
                                              : "`" + A + "` (hung (timeout) on it)";
    EXPECT_TRUE(contains(r.markdown, "g F=64 H=1 f32/i32: base `" + A + "` at " + format_us(10.0) +
                                         " us, new " + tail))
        << r.markdown;
    EXPECT_EQ(r.json["summary"]["dispatch_lost"], 1);
    if (how == "untimed") continue;
    EXPECT_TRUE(contains(r.markdown,
                         "**Broken in new (a wrong, crashed or hung trial)** (1): g F=64 "
                         "H=1 f32/i32 `" +
                             A + "` (" + (how == "wrong" ? "wrong" : "hung (timeout)") + ")"))
        << r.markdown;
    EXPECT_EQ(r.json["summary"]["broken"].size(), 1u);
  }
}

// The same time by another kernel is no change but is shown, with the stages of each side.
TEST(Compare, AnotherDispatchedKernelAtTheSameTimeIsShown) {
  const TempDir dir("cmp_dispatch_other");
  const std::string A = fused(32, 4), B = fused(16, 4);
  for (const auto& [file, kernel] : {std::pair{"a.sqlite", A}, std::pair{"b.sqlite", B}}) {
    tuner::Store s((dir / file).string());
    const int64_t run = open_small_run(s);
    add_trial(s, run, "g", 64, kernel, 2, 10.0);
    s.finish_run(run);
  }
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.dispatch_same, 1);
  EXPECT_TRUE(contains(r.markdown, "(1 with another kernel)")) << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "| g F=64 H=1 f32/i32 | same time, other kernel | `" + A +
                                       "` | " + format_us(10.0) + " | `" + B + "` | " +
                                       format_us(10.0) + " | +0.0% |"))
      << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "| 2 / 2 |")) << r.markdown;
}

// SQL on a store file a test wrote (a trial's status, a graph's features).
void edit_store(const fs::path& p, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(p.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

// A tuned choice that the new run lacks (its fused trials wrong or crashed, or a run that
// stopped before the problem) fails the gate: it is a regression, not "improved".
TEST(Compare, ALostTunedChoiceIsARegression) {
  const TempDir dir("cmp_lost");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info(), 0.5, "big_u1m");  // faster on the other graph
  }
  edit_store(dir / "b.sqlite",
             "UPDATE trials SET status = 'crashed' WHERE graph = 'small_u1k' AND variant LIKE 'csrgat%'");
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.tuned_lost, 1);
  EXPECT_EQ(r.tuned_faster, 1);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.markdown, "## csrgat compare: REGRESSION")) << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "**1 lost**")) << r.markdown;
  EXPECT_EQ(r.json["summary"]["tuned_lost"], 1);
  // The other way round, a choice only in new is no failure.
  const auto back = compare_runs(load_run_source((dir / "b.sqlite").string()),
                                 load_run_source((dir / "a.sqlite").string()), {});
  EXPECT_EQ(back.tuned_lost, 0);
  EXPECT_EQ(back.exit_code, 1);  // big_u1m is slower that way
}

// Problems whose graph is another one under the same name (its source hash or size changed)
// are left out of the comparison and named.
TEST(Compare, AChangedGraphIsNotCompared) {
  const TempDir dir("cmp_graph");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info(), 0.25, "big_u1m");  // "4x faster": a smaller graph
  }
  edit_store(dir / "b.sqlite",
             "UPDATE graphs SET features_json = json_set(features_json, '$.num_nodes', 250000) "
             "WHERE graph = 'big_u1m'");
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.tuned_faster, 0);
  EXPECT_EQ(r.tuned_same, 1);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.markdown, "Not compared: the graph differs between the runs")) << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "num_nodes 1000000 -> 250000")) << r.markdown;
  ASSERT_EQ(r.json["summary"]["graph_changed"].size(), 1u);
  EXPECT_EQ(r.problems_compared, 1);
  EXPECT_EQ(r.problems_line,
            "Problems: 1 compared, 1 not compared (1 whose graph differs between the runs).");
  EXPECT_TRUE(contains(r.markdown, r.problems_line)) << r.markdown;
}

// The source hash covers the generators' and readers' code as well as the graph, so any edit
// under graphs/ changes it: a graph whose structure (size, degree statistics) and generator spec
// are the same is compared, and the report says what changed (a probing review: the recorded
// runs 22 and 23 read "no change" with every problem left out). What the graph is decides.
TEST(Compare, OnlyTheSourceHashChangedIsComparedAndNamed) {
  const TempDir dir("cmp_hash");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info(), 1.10, "big_u1m");
  }
  const auto hash = [&](const char* store, const std::string& graph, const std::string& h) {
    edit_store(dir / store,
               "UPDATE graphs SET features_json = json_set(features_json, '$.source_hash', '" + h +
                   "') WHERE graph = '" + graph + "'");
  };
  hash("a.sqlite", "big_u1m", "gen:aaaa");
  hash("b.sqlite", "big_u1m", "gen:bbbb");
  hash("a.sqlite", "small_u1k", "file:1111");
  hash("b.sqlite", "small_u1k", "file:2222");
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.problems_compared, 2);
  EXPECT_EQ(r.problems_not_compared(), 0);
  EXPECT_EQ(r.tuned_slower, 1);  // big_u1m's 10%: found, not hidden behind "the graph differs"
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(contains(r.markdown, "Not compared")) << r.markdown;
  EXPECT_TRUE(contains(r.markdown, "generator code changed between the runs: big_u1m"))
      << r.markdown;
  EXPECT_TRUE(contains(r.markdown,
                       "the file's bytes or the reader code changed between the runs: small_u1k"))
      << r.markdown;
  ASSERT_EQ(r.json["summary"]["graph_source_changed"].size(), 2u);
  EXPECT_EQ(r.json["summary"]["graph_source_changed"][0]["source_hash"], "gen:aaaa -> gen:bbbb");

  // Another graph under the same name is still left out: a degree statistic differs, a
  // generator's spec differs (another seed: the same statistics), or one run read a file where
  // the other generated it.
  edit_store(dir / "b.sqlite",
             "UPDATE graphs SET features_json = json_set(features_json, '$.cv_degree', 0.5) WHERE "
             "graph = 'small_u1k'");
  edit_store(dir / "b.sqlite", "UPDATE trials SET spec = 'uniform:seed=2' WHERE graph = 'big_u1m'");
  const auto d = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(d.problems_graph_differs, 2);
  EXPECT_TRUE(contains(d.markdown, "cv_degree 0.0 -> 0.5")) << d.markdown;
  EXPECT_TRUE(contains(d.markdown, "spec 'uniform' -> 'uniform:seed=2'")) << d.markdown;
  EXPECT_EQ(graph_difference({{"num_nodes", 5}, {"num_edges", 9}, {"source_hash", "gen:1"}}, "x",
                             {{"num_nodes", 5}, {"num_edges", 9}, {"source_hash", "file:1"}}, "x")
                .substr(0, 22),
            "read from a file in on");
  // Without a stored size, a changed hash cannot be shown to be the same graph.
  EXPECT_FALSE(
      graph_difference({{"source_hash", "gen:1"}}, "", {{"source_hash", "gen:2"}}, "").empty());
  std::string note;
  EXPECT_EQ(graph_difference(
                {{"num_nodes", 5}, {"num_edges", 9}, {"source_hash", "gen:1"}}, "u",
                {{"num_nodes", 5}, {"num_edges", 9}, {"source_hash", "gen:2"}, {"new_feature", 1}},
                "u", &note),
            "");
  EXPECT_EQ(note, "generator code changed between the runs");
  // With the CSR's hash stored on both sides: the same edges say the code alone moved, other
  // edges under the same statistics (a relabelled file) are another graph; one side without it
  // (a run before it was stored) says nothing.
  const nlohmann::json f1 = {{"num_nodes", 5},
                             {"num_edges", 9},
                             {"source_hash", "file:1"},
                             {"csr_hash", "00000000000000aa"}};
  nlohmann::json f2 = f1;
  f2["source_hash"] = "file:2";
  EXPECT_EQ(graph_difference(f1, "g.mtx", f2, "g.mtx", &note), "");
  EXPECT_EQ(note,
            "the reader code or the file's encoding changed between the runs; the same CSR "
            "(csr_hash)");
  f2["csr_hash"] = "00000000000000bb";
  EXPECT_EQ(graph_difference(f1, "g.mtx", f2, "g.mtx", &note),
            "the same size and degree statistics over other edges (csr_hash 00000000000000aa -> "
            "00000000000000bb: a relabelled or edited graph)");
  f2.erase("csr_hash");
  EXPECT_EQ(graph_difference(f1, "g.mtx", f2, "g.mtx", &note), "");
  EXPECT_EQ(note, "the file's bytes or the reader code changed between the runs");
}

// With nothing comparable (every graph another, or no problem in common) the comparison is
// refused, exit 2, saying why: never "no change" with exit 0 over nothing.
TEST(Compare, NothingComparableIsRefused) {
  const TempDir dir("cmp_none");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string()),
        c((dir / "c.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info());
    fill_run(c, run_info());
  }
  edit_store(dir / "b.sqlite",
             "UPDATE graphs SET features_json = json_set(features_json, '$.num_edges', 7)");
  CompareOptions allow;
  allow.allow_different_gpu = true;  // no way round it
  const auto r = compare_runs(load_run_source((dir / "a.sqlite").string()),
                              load_run_source((dir / "b.sqlite").string()), allow);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(
      contains(r.refusal, "no problem was comparable: the graph differs in each of the 2 problems"))
      << r.refusal;
  EXPECT_EQ(r.problems_line,
            "Problems: 0 compared, 2 not compared (2 whose graph differs between the runs).");
  EXPECT_TRUE(contains(r.markdown, "## csrgat compare: refused")) << r.markdown;
  EXPECT_FALSE(contains(r.markdown, "no change")) << r.markdown;
  EXPECT_EQ(r.json["exit_code"], 2);
  EXPECT_EQ(r.json["problems"]["not_compared"], 2);

  for (const char* table : {"trials", "graphs"})
    edit_store(dir / "c.sqlite",
               std::string("UPDATE ") + table + " SET graph = graph || '_renamed'");
  const auto none = compare_runs(load_run_source((dir / "a.sqlite").string()),
                                 load_run_source((dir / "c.sqlite").string()), {});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.refusal, "the runs have no problem in common")) << none.refusal;
  EXPECT_EQ(none.problems_line,
            "Problems: 0 compared, 4 not compared (2 only in base, 2 only in new).");
}

TEST(Compare, DifferentGpuOrDriverIsRefused) {
  const TempDir dir("cmp_gpu");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string()),
        c((dir / "c.sqlite").string());
    fill_run(a, run_info());
    fill_run(b, run_info("GPU-99999999-0000"));
    fill_run(c, run_info("GPU-11111111-2222", "570.00"));
  }
  const auto a = load_run_source((dir / "a.sqlite").string());
  const auto r = compare_runs(a, load_run_source((dir / "b.sqlite").string()), {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.refusal, "different GPUs"));
  EXPECT_TRUE(contains(r.refusal, "GPU-99999999-0000"));
  const auto d = compare_runs(a, load_run_source((dir / "c.sqlite").string()), {});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_TRUE(contains(d.refusal, "different drivers"));
  // The same run GPU, but one problem's trials measured on another GPU (a run continued or
  // reused from another machine's): refused too, naming the problem.
  {
    tuner::Store e((dir / "e.sqlite").string());
    fill_run(e, run_info());
  }
  edit_store(dir / "e.sqlite", "UPDATE trials SET raw_json = json_object('gpu_uuid', 'GPU-11111111-2222')");
  edit_store(dir / "a.sqlite", "UPDATE trials SET raw_json = json_object('gpu_uuid', "
                               "CASE graph WHEN 'small_u1k' THEN 'GPU-other' ELSE 'GPU-11111111-2222' END)");
  const auto mixed = compare_runs(load_run_source((dir / "a.sqlite").string()),
                                  load_run_source((dir / "e.sqlite").string()), {});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(contains(mixed.refusal, "1 problem was measured on different GPUs")) << mixed.refusal;
  EXPECT_TRUE(contains(mixed.refusal, "small_u1k")) << mixed.refusal;
  CompareOptions allow;
  allow.allow_different_gpu = true;
  const auto ok = compare_runs(a, load_run_source((dir / "b.sqlite").string()), allow);
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_TRUE(contains(ok.markdown, "Warning"));
}

// Runs timed differently (cold single launches against warm, overlapped graph replays: the
// `-overlapped` configs) measure another thing: refused unless allowed, and then warned of; each
// run's timing is in both texts. A tuned choice timed by events in one run and CUPTI in the
// other is warned of (events include the launch).
TEST(Compare, DifferentTimingIsRefusedAndAnotherTimerWarned) {
  const TempDir dir("cmp_timing");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string()),
        c((dir / "c.sqlite").string());
    fill_run(a, run_info());
    tuner::RunInfo warm = run_info();
    warm.config = {
        {"timing", {{"cache", "warm"}, {"graph_replay", true}, {"overlap_previous", true}}}};
    fill_run(b, warm);
    tuner::RunInfo cold = run_info();  // the same timing, said in full, with other sample counts
    cold.config = {{"timing", {{"cache", "cold"}, {"graph_replay", false}, {"min_samples", 3}}}};
    fill_run(c, cold);
  }
  edit_store(dir / "c.sqlite", "UPDATE trials SET timer = 'events'");
  // fill_run's stage-2 trials say "interleaved", a timer not known (a tuner from before the
  // leaders' pooled timer was kept): never warned of.
  edit_store(dir / "a.sqlite", "UPDATE trials SET timer = 'cupti'");
  const auto a = load_run_source((dir / "a.sqlite").string());
  const auto b = load_run_source((dir / "b.sqlite").string());
  const auto r = compare_runs(a, b, {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.refusal,
                       "the runs were timed differently: base L2 cold, single launches, new L2 "
                       "warm, graph replays, overlapped"))
      << r.refusal;
  EXPECT_TRUE(contains(r.refusal, "--allow-different-timing")) << r.refusal;
  EXPECT_TRUE(contains(r.markdown, "timed L2 warm, graph replays, overlapped")) << r.markdown;
  EXPECT_EQ(r.json["new"]["timing"], "L2 warm, graph replays, overlapped");
  CompareOptions allow;
  allow.allow_different_gpu = true;  // not this one
  EXPECT_EQ(compare_runs(a, b, allow).exit_code, 2);
  allow.allow_different_timing = true;
  const auto ok = compare_runs(a, b, allow);
  EXPECT_NE(ok.exit_code, 2) << ok.refusal;
  ASSERT_FALSE(ok.warnings.empty());
  EXPECT_TRUE(contains(ok.warnings[0], "compared anyway: --allow-different-timing"))
      << ok.warnings[0];
  EXPECT_EQ(ok.json["meta"]["timing"]["new"], "L2 warm, graph replays, overlapped");

  // Timed alike (the sample counts decide how long, not what), each tuned choice by another timer.
  const auto timers = compare_runs(a, load_run_source((dir / "c.sqlite").string()), {});
  EXPECT_NE(timers.exit_code, 2) << timers.refusal;
  bool warned = false;
  for (const auto& w : timers.warnings)
    warned = warned || (contains(w, "tuned choices were timed by another timer in each run") &&
                        contains(w, "(base cupti, new events)"));
  EXPECT_TRUE(warned) << nlohmann::json(timers.warnings).dump();
  EXPECT_TRUE(compare_runs(a, a, {}).warnings.size() == 1);  // one run: only that warning
}

// Each run's measured ceilings side by side, refused or compared: a board 5% slower on DRAM
// reads as a 5% slower DRAM-bound problem, and the table says so; a ceiling one run did not
// measure (the DRAM read, before the forty-seventh session) is n/a on that side.
TEST(Compare, TheRunsCeilingsAreSideBySide) {
  const TempDir dir("cmp_ceilings");
  {
    tuner::Store a((dir / "a.sqlite").string()), b((dir / "b.sqlite").string());
    fill_run(a, run_info());
    tuner::RunInfo other = run_info("GPU-99999999-0000");
    other.ceilings["dram_copy_gbs"] = 3800.0;
    other.ceilings["dram_read_gbs"] = 4100.0;
    other.ceilings["launch_us_plain"] = 3.0;
    other.ceilings["method"]["measured_at"] = "2025-02-01T00:00:00Z";
    fill_run(b, other);
  }
  const auto a = load_run_source((dir / "a.sqlite").string());
  const auto b = load_run_source((dir / "b.sqlite").string());
  CompareOptions allow;
  allow.allow_different_gpu = true;
  for (const auto& r : {compare_runs(a, b, {}), compare_runs(a, b, allow)}) {
    EXPECT_TRUE(contains(r.markdown, "### Measured ceilings")) << r.markdown;
    EXPECT_TRUE(contains(r.markdown,
                         "Each run's own, measured on its GPU (base "
                         "2025-01-01T00:00:00Z, new 2025-02-01T00:00:00Z)"))
        << r.markdown;
    EXPECT_EQ(r.json["new"]["ceilings_measured_at"], "2025-02-01T00:00:00Z");
    EXPECT_TRUE(contains(r.markdown, "| DRAM copy (GB/s) | 4000.0 | 3800.0 | -5.0% |"))
        << r.markdown;
    EXPECT_TRUE(contains(r.markdown, "| DRAM read (GB/s) | n/a | 4100.0 | n/a |")) << r.markdown;
    EXPECT_TRUE(contains(r.markdown, "| launch (plain) (us) | 2.50 | 3.00 | +20.0% |"))
        << r.markdown;
    EXPECT_FALSE(contains(r.markdown, "L2 gather")) << r.markdown;  // neither run measured it
    const auto& c = r.json.at("ceilings");
    ASSERT_EQ(c.size(), 7u);
    EXPECT_EQ(c[0]["ceiling"], "DRAM copy");
    EXPECT_DOUBLE_EQ(c[0]["new"].get<double>(), 3800.0);
    EXPECT_TRUE(c[1]["base"].is_null());
    EXPECT_DOUBLE_EQ(c[1]["new"].get<double>(), 4100.0);
  }
  // Two runs of one GPU and driver took one cached measurement: said, not read as "no change of
  // the machine".
  const auto same = compare_runs(a, a, {});
  EXPECT_TRUE(contains(same.markdown,
                       "Both runs used one measurement (taken 2025-01-01T00:00:00Z, "
                       "cached for the GPU and driver)"))
      << same.markdown;
}

TEST(Compare, ExportRoundTripsAndRunSuffixSelectsRun) {
  const TempDir dir("export");
  int64_t first = 0;
  {
    tuner::Store a((dir / "a.sqlite").string());
    auto continued = run_info();  // a run that continued one stopped on another GPU
    continued.kernels_hash = "0123456789abcdef";
    a.continue_run(continued, 7, {});  // carries nothing; fill_run's open_run resumes it
    first = fill_run(a, continued);
    auto other = run_info();
    other.config_hash = "another";
    fill_run(a, other, 1.5, "small_u1k");  // run 2, the latest
    std::ofstream((dir / "run1.json").string()) << export_run(a, first).dump(1);
  }
  const auto j = nlohmann::json::parse(slurp(dir / "run1.json"));
  EXPECT_TRUE(j.contains("meta") && j.contains("devices") && j.contains("states"));
  EXPECT_EQ(j["devices"][0]["uuid"], "GPU-11111111-2222");
  EXPECT_EQ(j["states"][0]["summaries"][0]["tag"], "nv/cold/time/gpu/median");

  const auto from_json = load_run_source((dir / "run1.json").string());
  EXPECT_EQ(from_json.run.id, first);
  // What it continued and which kernels it measured survive the export as recorded, in the
  // imported store too (so that exporting it again loses nothing), although run 7 is not there.
  EXPECT_EQ(from_json.run.continued_from, 7);
  EXPECT_EQ(from_json.run.kernels_hash, "0123456789abcdef");
  EXPECT_EQ(from_json.store->run(from_json.run_id)->kernels_hash, "0123456789abcdef");
  EXPECT_EQ(from_json.store->run(from_json.run_id)->continued_from, 7);
  EXPECT_TRUE(from_json.store->runs_taken_from(from_json.run_id).empty());
  // Read back as recorded: its id and its finish (a report of it says "run N", finished), and
  // the store names the file it came from.
  EXPECT_EQ(from_json.run_id, first);
  EXPECT_EQ(from_json.store->run(from_json.run_id)->finished, from_json.run.finished);
  EXPECT_FALSE(from_json.run.finished.empty());
  EXPECT_EQ(from_json.store->path(), (dir / "run1.json").string());
  const auto run1 = load_run_source((dir / "a.sqlite").string() + ":" + std::to_string(first));
  EXPECT_EQ(run1.run_id, first);
  EXPECT_EQ(from_json.store->trials(from_json.run_id).size(),
            run1.store->trials(run1.run_id).size());
  const auto same = compare_runs(run1, from_json, {});
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(same.variants_slower + same.variants_faster, 0);
  EXPECT_GT(same.variants_same, 0);
  // The latest run (2) has small_u1k 50% slower.
  const auto latest = compare_runs(from_json, load_run_source((dir / "a.sqlite").string()), {});
  EXPECT_EQ(latest.exit_code, 1);
  EXPECT_THROW(load_run_source((dir / "a.sqlite").string() + ":77"), std::runtime_error);
  EXPECT_THROW(load_run_source((dir / "nothing.sqlite").string()), std::runtime_error);
}

// An export reads back losslessly: exported again it is the same JSON (but for when it was
// exported and from which file), the run it continued, each problem's finish time, GPU, build
// time and the run it was taken from included. The recorded runs 6 (continues run 5, which
// measured one of its problems) and 9 (took problems of run 8 by --reuse).
TEST(ReportRecorded, ExportLoadExportIsTheSameForRuns6And9) {
  const fs::path folder = testing_recorded::recorded_store("h200");
  if (folder.empty()) GTEST_SKIP() << "no tests/data/recorded/h200";
  const TempDir dir("roundtrip");
  const tuner::Store s(folder.string(), true);
  for (const int64_t run : {6, 9}) {
    SCOPED_TRACE("run " + std::to_string(run));
    nlohmann::json first = export_run(s, run);
    const fs::path file = dir / ("run" + std::to_string(run) + ".json");
    std::ofstream(file) << first.dump(1);
    const LoadedRun back = load_run_source(file.string());
    nlohmann::json again = export_run(*back.store, back.run_id);
    EXPECT_EQ(again["meta"]["source"], file.string());
    for (auto* j : {&first, &again}) {
      (*j)["meta"].erase("exported");
      (*j)["meta"].erase("source");
    }
    EXPECT_EQ(first, again) << nlohmann::json::diff(first, again).dump(1).substr(0, 2000);
    bool taken = false;
    for (const auto& p : again["problems"]) taken |= p["from_run"].get<int64_t>() > 0;
    EXPECT_TRUE(taken);
    EXPECT_EQ(back.store->runs_taken_from(back.run_id), s.runs_taken_from(run));
  }
  EXPECT_EQ(load_run_source((dir / "run6.json").string()).run.continued_from, 5);
}

// Results recorded on a GPU (committed by the lead): a report for every run, every graph of the
// store in it, and the winners' numbers exactly as the store has them.
TEST(ReportRecorded, EveryRecordedStoreReports) {
  NoCharts no_charts;
  const fs::path rec = testing_recorded::recorded_dir();
  const auto stores = testing_recorded::recorded_stores();
  ASSERT_FALSE(stores.empty()) << "tests/data/recorded holds no *.sqlite[.gz]: they are committed";
  for (const auto& [name, path] : stores) {
    SCOPED_TRACE(path.string());
    // The store is opened once (a folder of stores inflates and merges every part, ~1.7 s for
    // the recorded h200/): the report, the selection and the self-comparison read this one.
    auto loaded = load_run_source(path.string());
    const tuner::Store& s = *loaded.store;
    int reported = 0;  // a store whose every run is empty reports nothing: that fails below
    for (const auto& run : s.runs()) {
      SCOPED_TRACE("run " + std::to_string(run.id));
      const auto trials = s.trials(run.id);
      if (trials.empty()) continue;
      ++reported;
      const TempDir out("recorded_" + name + "_" + std::to_string(run.id));
      const fs::path peers = rec / (name + ".peers.json");
      write_report(s, run.id, out.string(), fs::exists(peers) ? peers.string() : "");
      const std::string md = slurp(out / "report.md");
      ASSERT_TRUE(fs::exists(out / "report.html"));
      std::set<std::string> graphs;
      for (const auto& t : trials) graphs.insert(t.graph);
      for (const auto& g : graphs) EXPECT_TRUE(contains(md, g)) << g;
      const auto j = nlohmann::json::parse(slurp(out / "report.json"));
      for (const auto& w : tuner::select_winners(s, run.id)) {
        EXPECT_TRUE(contains(md, "`" + w.variant + "` | " + format_us(w.median_us) + " | "))
            << w.variant;
        bool found = false;
        for (const auto& p : j["problems"])
          if (p["graph"] == w.graph && p["feat"] == w.feat && p["heads"] == w.heads &&
              p["value"] == to_string(w.value) && p["index"] == to_string(w.index)) {
            found = true;
            EXPECT_EQ(p["winner"]["variant"], w.variant);
            EXPECT_DOUBLE_EQ(p["winner"]["median_us"].get<double>(), w.median_us);
            // Every problem with a winner has a rule; its kernel is no faster than the winner
            // beyond a noise tie, and only a sweep may be.
            ASSERT_TRUE(p.contains("dispatch")) << w.graph;
            const auto& x = p["dispatch"];
            if (!x["sweep"].get<bool>() && x["median_us"].is_number()) {
              EXPECT_GE(x["median_us"].get<double>(), 0.97 * w.median_us) << w.graph;
              EXPECT_EQ(x["kernel"].get<std::string>().rfind("csrgat.", 0), 0u) << w.graph;
            }
            if (std::isfinite(w.seed_us)) {
              EXPECT_NEAR(p["winner"]["speedup_seed"].get<double>(), w.seed_us / w.median_us, 1e-9);
            }
          }
        EXPECT_TRUE(found) << w.graph;
      }
      // Peers recorded with the store are matched to its problems.
      if (fs::exists(peers)) {
        for (const auto& p : load_peers(peers.string()).results) {
          if (!graphs.count(p.graph)) continue;
          EXPECT_TRUE(contains(md, "over " + p.impl + " (" + format_us(p.median_us)))
              << p.graph << " " << p.impl;
        }
      }
      // A run compared with itself is never a regression, and is said to be one run.
      loaded.run_id = run.id;
      loaded.run = run;
      const auto self = compare_runs(loaded, loaded, {});
      EXPECT_EQ(self.exit_code, 0);
      ASSERT_EQ(self.warnings.size(), 1u);
      EXPECT_TRUE(contains(self.warnings[0], "base and new are one run")) << self.warnings[0];
    }
    EXPECT_GT(reported, 0) << "no run of the store has a trial";
  }
}

// Where the tuning time went: per problem, the span of its trials' stored times and the
// worker's phase times summed; the slowest trials by those; a run without phase times says so.
TEST(Report, TuningTimePerProblemAndTheSlowestTrials) {
  NoCharts no_charts;
  const TempDir dir("report-time");
  tuner::Store s((dir / "results.sqlite").string());
  const int64_t run = s.open_run(run_info()).id;
  auto put = [&](const std::string& graph, const std::string& variant, const std::string& created,
                 nlohmann::json phase_s, const std::string& status = "ok",
                 nlohmann::json counter_wall_s = nullptr) {
    tuner::TrialRecord t;
    t.run_id = run;
    t.graph = graph;
    t.spec = "uniform";
    t.feat = 64;
    t.heads = graph == "b" ? 8 : 1;
    t.variant = variant;
    t.stage = 1;
    t.status = status;
    t.median_us = 10;
    t.created = created;
    t.raw = {{"gpu_uuid", "GPU-1"}};
    if (!phase_s.is_null()) t.raw["phase_s"] = phase_s;
    if (!counter_wall_s.is_null()) t.counters = {{"ok", true}, {"wall_s", counter_wall_s}};
    s.put_trial(t);
  };
  // "z" is measured first: the table follows the stored times, not the names.
  // Counters without step times (a collection that never ran) are not a collection.
  put("z", fused(32, 4), "2026-12-01T16:00:00Z", {{"verify", 0.1}, {"measure", 0.2}}, "ok",
      nlohmann::json::object());
  put("z", fused(16, 4), "2026-12-01T16:00:03Z",
      {{"verify", 0.1}, {"measure", 0.3}, {"counters", 2.5}}, "ok",
      {{"enable", 0.2}, {"replay", 2.0}, {"disable", 0.3}});
  put("z", fused(8, 2), "2026-12-01T15:59:00Z", nullptr, "pruned");  // never ran: not counted
  put("b", baseline(Family::cusparse), "2026-12-01T16:01:05Z",
      {{"measure", 0.5}, {"counters", 41.0}}, "ok",
      {{"enable", 0.4}, {"replay", 40.0}, {"decode", 0.7}});
  put("b", fused(32, 4), "2026-12-01T16:00:10Z", {{"measure", 0.2}});
  s.finish_problem(run, "b", 64, 8, "GPU-1", 3.5);  // built in 3.5 s; z without a build time
  s.finish_problem(run, "z", 64, 1, "GPU-1");
  s.finish_run(run);
  write_report(s, run, (dir / "report").string(), "");
  const std::string md = slurp(dir / "report" / "report.md");
  EXPECT_TRUE(contains(md, "## Tuning time")) << md;
  EXPECT_TRUE(contains(md, "| z F=64 H=1 | 2 | 3 | n/a | n/a | n/a | 0.2 | 0.5 | 2.5 |")) << md;
  EXPECT_TRUE(contains(md, "| b F=64 H=8 | 2 | 55 | 3.5 | n/a | n/a | n/a | 0.7 | 41.0 |")) << md;
  EXPECT_TRUE(contains(md, "build, s")) << md;
  EXPECT_LT(md.find("| z F=64 H=1 |"), md.find("| b F=64 H=8 |"));
  // The slowest trial first, its phases longest first (counters before measure, not by name).
  const std::string slowest = "| b F=64 H=8 | `" + baseline(Family::cusparse) +
                              "` | 1 | 41.50 | counters 41.00, measure 0.50 |";
  const std::string second = "| z F=64 H=1 | `" + fused(16, 4) +
                             "` | 1 | 2.90 | counters 2.50, measure 0.30, verify 0.10 |";
  EXPECT_TRUE(contains(md, slowest)) << md;
  EXPECT_TRUE(contains(md, second)) << md;
  EXPECT_LT(md.find(slowest), md.find(second));
  // The counter collections' steps, summed over the two trials that carry them.
  EXPECT_TRUE(contains(md,
                       "Hardware counters: 2 collections, 43.6 s of host time (21.800 s each), "
                       "by step, longest first: replay 42.0 s, decode 0.7 s, enable 0.6 s, "
                       "disable 0.3 s"))
      << md;
  const auto j = nlohmann::json::parse(slurp(dir / "report" / "report.json"));
  ASSERT_EQ(j["tuning_time"].size(), 2u);
  EXPECT_EQ(j["tuning_time"][1]["problem"], "b F=64 H=8");  // after z
  EXPECT_NEAR(j["tuning_time"][1]["phase_s"]["counters"].get<double>(), 41.0, 1e-9);
  EXPECT_NEAR(j["tuning_time"][1]["build_s"].get<double>(), 3.5, 1e-12);
  EXPECT_TRUE(j["tuning_time"][0]["build_s"].is_null());
  EXPECT_EQ(j["counter_steps"]["collections"], 2);
  EXPECT_NEAR(j["counter_steps"]["wall_s"]["replay"].get<double>(), 42.0, 1e-12);

  // The recorded run 4 has no phase times: the table has the spans only, and says why.
  const TempDir dir2("report-time-old");
  tuner::Store old((dir2 / "results.sqlite").string());
  const int64_t r2 = fill_run(old, run_info());
  write_report(old, r2, (dir2 / "report").string(), "");
  const std::string md2 = slurp(dir2 / "report" / "report.md");
  EXPECT_TRUE(contains(md2, "carry no phase times")) << md2;
  EXPECT_FALSE(contains(md2, "counters, s"));
  EXPECT_FALSE(contains(md2, "build, s"));
  EXPECT_FALSE(contains(md2, "Hardware counters:"));
}

}  // namespace
}  // namespace csrgat::reports
