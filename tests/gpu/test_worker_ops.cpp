// The worker's requests in this process (handle_request, as a `tuner worker` runs them), on the
// GPU: a trial stores its phase times; keep_kernels unloads the kernels not named and a trial of
// a released variant loads it again and is still correct; a switch to another problem unloads
// every kernel of the last one; the interleaved re-measurement pools the leaders' rounds under
// one timer.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "tuner/worker.h"

using csrgat::tuner::handle_request;

namespace {

std::string cache_dir() {
  if (const char* d = std::getenv("CSRGAT_SOURCE_DIR")) return std::string(d) + "/.gpu/cache";
  return CSRGAT_SOURCE_DIR "/.gpu/cache";
}

nlohmann::json request(const std::string& op, const std::string& spec) {
  return {{"op", op},     {"graph", "g"},    {"spec", spec},          {"feat", 64},
          {"heads", 1},   {"seed", 1},       {"arch", "sm_90"},       {"cache_dir", cache_dir()},
          {"counters", false},
          {"timing", {{"cache", "cold"}, {"warmup", 1}, {"min_samples", 3}, {"max_samples", 5},
                      {"max_seconds", 0.05}, {"max_rel_noise", 0.5}}}};
}

nlohmann::json trial(const std::string& spec, const std::string& variant) {
  nlohmann::json r = request("trial", spec);
  r["variant"] = variant;
  r["stage"] = 1;
  r["rel_tol"] = 1e-5;
  return handle_request(0, r);
}

nlohmann::json keep(const std::string& spec, const std::vector<std::string>& ids) {
  nlohmann::json r = request("keep_kernels", spec);
  r["variants"] = ids;
  return handle_request(0, r);
}

TEST(WorkerOps, PhaseTimesKeepKernelsAndAProblemSwitch) {
  const std::string seed = "seed:n=384,deg=18,seed=1", other = "uniform:n=2000,deg=8,seed=3";
  const std::string a = "csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32";
  const std::string b = "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32";

  const auto ta = trial(seed, a);
  ASSERT_TRUE(ta.value("ok", false)) << ta.dump();
  EXPECT_EQ(ta["trial"]["status"], "ok") << ta.dump();
  const auto& ph = ta["trial"]["raw"]["phase_s"];
  for (const char* p : {"prepare", "load", "verify", "measure"}) {
    ASSERT_TRUE(ph.contains(p)) << ph.dump();
    EXPECT_GE(ph[p].get<double>(), 0.0) << p;
  }
  EXPECT_FALSE(ph.contains("counters"));  // not asked for
  ASSERT_EQ(trial(seed, b)["trial"]["status"], "ok");

  // Two kernels loaded: keeping a releases b.
  const auto k = keep(seed, {a});
  ASSERT_TRUE(k.value("ok", false)) << k.dump();
  EXPECT_EQ(k["kept"], 1);
  EXPECT_EQ(k["released"], 1);
  // b again: loaded anew, still correct.
  const auto tb = trial(seed, b);
  EXPECT_EQ(tb["trial"]["status"], "ok") << tb.dump();
  EXPECT_LT(tb["trial"]["rel_error"].get<double>(), 1e-5);

  // Another problem: the seed shape's kernels (a, b) are unloaded when it is prepared.
  ASSERT_EQ(trial(other, a)["trial"]["status"], "ok");
  const auto k2 = keep(other, {});
  ASSERT_TRUE(k2.value("ok", false)) << k2.dump();
  EXPECT_EQ(k2["released"], 1);  // only a, loaded again for this problem
  EXPECT_EQ(k2["kept"], 0);
}

// A screening trial past its cutoff: one warm-up launch and two cold samples, then the trial is
// kept, correct, with the cut in its detail and its timing; the same trial without it runs to
// min_samples.
TEST(WorkerOps, AScreeningTrialPastItsCutoffStopsAtTwoSamples) {
  const std::string spec = "uniform:n=20000,deg=16,seed=2";
  const std::string v = "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32";
  nlohmann::json r = request("trial", spec);
  r["variant"] = v;
  r["stage"] = 0;
  r["rel_tol"] = 1e-5;
  r["timing"]["warmup"] = 3;
  r["timing"]["cutoff_us"] = 0.5;  // no kernel of 20k rows takes under half a microsecond
  const auto cut = handle_request(0, r);
  ASSERT_TRUE(cut.value("ok", false)) << cut.dump();
  const auto& t = cut["trial"];
  EXPECT_EQ(t["status"], "ok") << t.dump();
  EXPECT_EQ(t["samples"], 2) << t.dump();
  EXPECT_NE(t["detail"].get<std::string>().find("screening cut after 2 samples"), std::string::npos)
      << t["detail"];
  EXPECT_EQ(t["raw"]["stop"], "cutoff") << t["raw"].dump();
  if (t["timer"] == "cupti") {  // the warm launch's span decided: no second or third warm-up
    EXPECT_NE(t["raw"]["note"].get<std::string>().find("warm-up stopped after 1 of 3 launches"),
              std::string::npos)
        << t["raw"]["note"];
  }
  r["timing"].erase("cutoff_us");
  const auto full = handle_request(0, r);
  ASSERT_TRUE(full.value("ok", false)) << full.dump();
  EXPECT_GE(full["trial"]["samples"].get<int>(), 3) << full["trial"].dump();
  EXPECT_EQ(full["trial"]["detail"].get<std::string>().find("screening cut"), std::string::npos);
}

// The interleaved re-measurement of two leaders: each pooled over its rounds (rounds x samples per
// round), and both under one timer, the one each result names (profiler::pool_rounds).
TEST(WorkerOps, InterleavedLeadersArePooledUnderOneTimer) {
  const std::string spec = "uniform:n=20000,deg=16,seed=2";
  const std::string a = "csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.i32.f32";
  const std::string b = "csrgat.tpr32.fl8.rpb4.vec4.t2.g4.smem0.online.split0.i32.f32";
  nlohmann::json r = request("interleaved", spec);
  r["variants"] = {a, b};
  r["rounds"] = 3;
  r["samples_per_round"] = 4;
  const auto rep = handle_request(0, r);
  ASSERT_TRUE(rep.value("ok", false)) << rep.dump();
  ASSERT_EQ(rep["results"].size(), 2u) << rep.dump();
  const std::string timer = rep["results"][0]["timer"];
  EXPECT_TRUE(timer == "cupti" || timer == "events") << timer;
  for (const auto& res : rep["results"]) {
    EXPECT_EQ(res["timer"], timer) << rep.dump();
    EXPECT_EQ(res["summary"]["n"], 12) << res.dump();
    EXPECT_GT(res["summary"]["median"].get<double>(), 0.0) << res.dump();
    // Its own rounds' timers: the pooled one alone, unless a round (of any leader) lost CUPTI:
    // then all were timed again by events.
    if (timer == "cupti") {
      EXPECT_EQ(res["timers"], nlohmann::json::array({"cupti"})) << res.dump();
    } else {
      EXPECT_EQ(res["timers"], nlohmann::json::array({"events"})) << res.dump();
    }
  }
}

}  // namespace
