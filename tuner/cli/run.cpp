// tuner run: the whole job. Compile every variant (parallel, cached), then per problem verify
// and time each candidate in a worker process (one per GPU), screening first when the
// strategy is successive halving, re-measure the leaders interleaved, and store every trial
// as it finishes. A rerun of the same config on the same GPU resumes where it stopped; with
// --continue, a run stopped on another GPU of the same kind continues here (Store::continue_run);
// with --reuse, problems that earlier runs of the same kind finished with the same problem
// fingerprint are taken from them (Store::reuse_problems).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <thread>

#include "graphs/features.h"
#include "graphs/generate.h"
#include "graphs/source.h"
#include "tuner/cli/commands.h"
#include "tuner/config.h"
#include "tuner/job_queue.h"
#include "tuner/cli/run_support.h"
#include "tuner/space.h"
#include "tuner/store.h"
#include "tuner/verify.h"
#include "tuner/worker.h"

namespace fs = std::filesystem;

namespace csrgat::tuner {
namespace {

// "cora F=64 H=1": a problem as the progress lines name it.
std::string label(const Problem& pr) {
  return pr.graph_name + " F=" + std::to_string(pr.feat) + " H=" + std::to_string(pr.heads);
}

nlohmann::json timing_json(const TimingSpec& t, bool screening) {
  nlohmann::json j{{"cache", to_string(t.cache)}, {"warmup", t.warmup},
                   {"max_rel_noise", t.max_rel_noise}, {"min_samples", t.min_samples},
                   {"max_samples", t.max_samples}, {"max_seconds", t.max_seconds},
                   {"graph_replay", t.graph_replay}, {"overlap_previous", t.overlap_previous}};
  if (screening) {
    // A short look: enough to rank, not to report.
    j["min_samples"] = std::min(t.min_samples, 5);
    j["max_samples"] = std::min(t.max_samples, 30);
    j["max_seconds"] = std::min(t.max_seconds, 0.05);
    j["max_rel_noise"] = std::max(t.max_rel_noise, 0.02);
  }
  return j;
}

struct Progress {
  std::mutex mu;
  size_t done = 0, total = 0;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  bool tty = isatty(STDOUT_FILENO);
  void tick(size_t n = 1) {
    std::lock_guard<std::mutex> lock(mu);
    done += n;
    if (!tty) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = done ? el / done * (total - done) : 0;
    const int width = 40;
    const int fill = total ? static_cast<int>(width * done / total) : width;
    std::printf("\r[%.*s%*s] %zu/%zu trials  %.0fs elapsed, ETA %.0fs ", fill,
                "########################################", width - fill, "", done, total, el, eta);
    std::fflush(stdout);
  }
  void line(const std::string& s) {
    std::lock_guard<std::mutex> lock(mu);
    if (tty) std::printf("\r%*s\r", 100, "");
    std::printf("%s\n", s.c_str());
    std::fflush(stdout);
  }
};

double tolerance(const Config& cfg, const VariantParams& p) {
  return p.value == ValueType::f32 ? cfg.verify.rel_tol_f32 : cfg.verify.rel_tol_16bit;
}

// One line on how the problems will be spread: the estimated total, the longest few in the
// order they start, and the wall time of that order on `workers` GPUs (each problem to the GPU
// that frees first). An estimate (estimated_trial_seconds), printed as one.
void print_work_estimate(const std::vector<Problem>& ps, const std::vector<double>& per_trial,
                         const std::vector<size_t>& trials, int workers, double compile_s) {
  const std::vector<size_t> order = longest_first(per_trial, trials);
  double sum = 0;
  std::vector<double> gpu(std::max(1, workers), 0.0);
  std::string head;
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    const double sec = static_cast<double>(trials[i]) * per_trial[i];
    sum += sec;
    *std::min_element(gpu.begin(), gpu.end()) += sec;
    if (k < 4) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s%s F=%d H=%d ~%.0f s", k ? ", " : "", ps[i].graph_name.c_str(),
                    ps[i].feat, ps[i].heads, sec);
      head += buf;
    }
  }
  std::printf("work estimate (a full H200 run, fifteenth session; +-50%%): compiling ~%.0f s, then ~%.0f s of "
              "trials, ~%.0f s on %d GPU(s); longest first: %s%s\n",
              compile_s, sum, *std::max_element(gpu.begin(), gpu.end()), static_cast<int>(gpu.size()),
              head.c_str(), order.size() > 4 ? ", ..." : "");
}

// Trials a problem of n fused variants takes: halving screens all, then measures ~n/eta more.
size_t planned_trials(const Config& cfg, size_t n) {
  return cfg.strategy.kind == StrategyKind::halving && n > 4 ? n + n / cfg.strategy.eta + 3 : n;
}

// Whether a worker answered `ok`.
bool reply_ok(const WorkerProcess::Reply& rep) { return rep.json && rep.json->value("ok", false); }
// Whether the worker behind a reply was restarted (no reply: it died or was killed; or it said
// its state is fatal): it needs its problem again before the next trial.
bool worker_restarted(const WorkerProcess::Reply& rep) {
  return !rep.json || rep.json->value("fatal", false);
}

// Candidates counted per value and index type: take(p, n) holds for the first n of p's type.
class PerType {
 public:
  bool take(const VariantParams& p, size_t n) { return seen_[type_of(p)]++ < n; }

 private:
  std::map<std::pair<int, int>, size_t> seen_;
};

struct ProblemJob {
  Problem problem;
  std::vector<VariantParams> fused;     // after constraints, resources and strategy
  std::vector<VariantParams> baselines;
  std::vector<std::pair<VariantParams, std::string>> pruned;
};

class Runner {
 public:
  // The GPU that measured trials of this problem before a stop (raw.gpu_uuid), or "" when none
  // did: a resumed problem goes back to that GPU, so that its variants are compared on one chip.
  std::string gpu_of(const Problem& pr) {
    for (const auto& t : cached_trials(pr))
      if (t.raw.is_object() && t.raw.value("gpu_uuid", std::string()) != "") return t.raw["gpu_uuid"];
    return "";
  }
  size_t stored_trials(const Problem& pr) { return cached_trials(pr).size(); }
  // Drops a problem's stored trials (it is measured again from the start).
  void forget_trials(const Problem& pr) {
    std::lock_guard<std::mutex> lock(mu_);
    store_.forget_trials(run_.id, pr.graph_name, pr.feat, pr.heads);
    existing_[pr.key()].clear();
  }
  Runner(const Config& cfg, Store& store, const RunInfo& run, const std::map<std::string, CompileOutcome>& compiled)
      : cfg_(cfg), store_(store), run_(run), compiled_(compiled) {}

  // What every request about this problem carries; the seed makes its inputs the same in every
  // worker and every resumed run.
  nlohmann::json base_request(const Problem& pr) const {
    const uint64_t seed = problem_input_seed(pr.graph_index, pr.feat, pr.heads);
    return {{"graph", pr.graph_name}, {"spec", pr.spec}, {"feat", pr.feat}, {"heads", pr.heads},
            {"seed", seed}, {"arch", cfg_.arch}, {"cache_dir", cfg_.output + "/cache"},
            {"counters", cfg_.counters}, {"slow_percent", cfg_.test_only.slow_percent}};
  }

  // Runs one problem's trials on one worker, which built it in prepare_s seconds (stored with
  // its finish mark; < 0: not known).
  void run_problem(WorkerProcess& w, const ProblemJob& job, Progress& progress, double prepare_s = -1) {
    const Problem& pr = job.problem;
    const auto started = std::chrono::steady_clock::now();
    const nlohmann::json base = base_request(pr);
    for (const auto& [p, why] : job.pruned) record_static(pr, p, TrialStatus::pruned, why);

    // Screening (halving): a short measurement for every fused candidate.
    std::vector<VariantParams> finalists = job.fused;
    size_t cut = 0;  // screenings stopped at the cutoff
    if (cfg_.strategy.kind == StrategyKind::halving && job.fused.size() > 4) {
      std::vector<std::pair<double, VariantParams>> ranked;
      ScreeningCutoff cutoff(cfg_.strategy.cutoff);
      // With a cutoff, a spread of probes first, so that it soon rests on a fast time.
      for (const size_t i : screening_order(job.fused.size(), cfg_.strategy.cutoff > 0 ? 16 : 0)) {
        const VariantParams& p = job.fused[i];
        const TrialRecord t = trial(w, base, p, 0, progress, true, cutoff.cutoff_us(p));
        if (t.status != "ok") continue;
        cut += t.raw.is_object() && t.raw.value("stop", std::string()) == "cutoff";
        ranked.emplace_back(t.median_us, p);
        cutoff.record(p, t.median_us);
      }
      std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      // Per value and index type: selection makes each type a problem of its own, so the bf16
      // candidates (half the bytes) must not take every finalist's place from the f32 ones.
      std::map<std::pair<int, int>, size_t> keep;  // a type's candidates, then how many it keeps
      for (const auto& p : job.fused) ++keep[type_of(p)];
      for (auto& [type, k] : keep) {
        const auto plan =
            halving_plan(static_cast<int>(k), cfg_.strategy.budget, cfg_.strategy.eta);
        k = std::max<size_t>(
            3, plan.keep_counts.size() > 1 ? plan.keep_counts[1] : k / cfg_.strategy.eta);
      }
      PerType kept;
      finalists.clear();
      for (const auto& [us, p] : ranked)
        if (kept.take(p, keep[type_of(p)])) finalists.push_back(p);
    }
    // Full measurement for the finalists and the baselines; hardware counters (a replayed,
    // untimed pass) for the screening leaders (without a screening: the first three finalists
    // of each type in the config's order) and the baselines only: they cost passes. Those
    // are measured first, with no other kernel loaded in the worker (keep_kernels): a counter
    // pass slowed down with every module the worker held, to ~2 s per kernel with a screening's
    // ~350 modules loaded (fourteenth session). The other finalists' kernels load again on demand.
    // The three first of each value and index type are counted (each type is its own problem,
    // and its winner's roofline figures come from these counters): moved to the front, in order.
    size_t counted = 0;
    {
      PerType seen;
      std::vector<VariantParams> front, rest;
      for (const auto& p : finalists) (seen.take(p, 3) ? front : rest).push_back(p);
      counted = front.size();
      front.insert(front.end(), rest.begin(), rest.end());
      finalists = std::move(front);
    }
    {
      nlohmann::json req = base;
      req["op"] = "keep_kernels";
      req["variants"] = nlohmann::json::array();
      for (size_t i = 0; i < counted; ++i) req["variants"].push_back(finalists[i].id());
      for (const auto& p : job.baselines) req["variants"].push_back(p.id());
      const auto rep = w.call(req, 120);
      if (!reply_ok(rep))
        progress.line("  " + label(pr) + ": keep_kernels: " +
                      (rep.json ? rep.json->value("error", std::string("?")) : rep.failure) +
                      " (the trials go on with every kernel loaded)");
      if (worker_restarted(rep)) reprepare(w, base, "keep_kernels");
    }
    std::vector<std::pair<double, VariantParams>> full;
    const auto full_trial = [&](size_t i) {
      const VariantParams& p = finalists[i];
      const TrialRecord t = trial(w, base, p, 1, progress, i < counted);
      if (t.status == "ok" && !p.fault && !p.delay_ns) full.emplace_back(t.median_us, p);
    };
    for (size_t i = 0; i < counted; ++i) full_trial(i);
    for (const auto& p : job.baselines) trial(w, base, p, 1, progress);
    for (size_t i = counted; i < finalists.size(); ++i) full_trial(i);
    std::sort(full.begin(), full.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // Interleaved re-measurement of the leaders before declaring a winner. When it fails the
    // problem is not finished: a rerun (or a continuation) measures it again.
    bool complete = true;
    if (full.size() >= 2) {
      // The three fastest of each value and index type (each type is its own problem).
      std::vector<std::string> leaders;
      PerType led;
      for (const auto& [us, p] : full)
        if (led.take(p, 3)) leaders.push_back(p.id());
      bool have = true;
      for (const auto& id : leaders) have = have && store_.has_trial(run_.id, pr.graph_name, pr.feat, pr.heads, id, 2);
      if (!have) {
        nlohmann::json req = base;
        req["op"] = "interleaved";
        req["variants"] = leaders;
        req["rounds"] = 5;
        req["samples_per_round"] = 10;
        req["timing"] = timing_json(cfg_.timing, false);
        const auto rep = w.call(req, cfg_.timing.timeout_seconds * 20 + 60);
        if (reply_ok(rep)) {
          for (const auto& r : (*rep.json)["results"]) {
            TrialRecord t = record_for(pr, r["variant"].get<std::string>(), 2);
            t.status = "ok";
            t.detail = "interleaved with the other leaders";
            const auto& s = r["summary"];
            auto num = [&](const char* k) { return json_number(s, k, 0.0); };
            t.median_us = num("median");
            t.q1_us = num("q1");
            t.q3_us = num("q3");
            t.min_us = num("min");
            t.max_us = num("max");
            t.mean_us = num("mean");
            t.stddev_us = num("stddev");
            t.rel_noise = json_rel_noise(s, "rel_noise");
            t.samples = static_cast<int>(num("n"));
            // The one timer its pooled samples are of (profiler::pool_rounds: "events" where the
            // leaders' rounds did not all have one), and whether any round ran throttled.
            t.timer = r.value("timer", std::string("interleaved"));
            t.throttled = r.contains("throttled") && r["throttled"].is_boolean() && r["throttled"].get<bool>();
            t.raw = {{"gpu_uuid", rep.json->value("gpu_uuid", w.known_gpu_uuid())}};
            if (r.contains("timers") && r["timers"].is_array() && r["timers"].size() > 1)
              t.raw["round_timers"] = r["timers"];
            if (r.contains("notes") && !r["notes"].empty()) t.raw["notes"] = r["notes"];
            store_.put_trial(t);
          }
        } else {
          complete = false;
          progress.line("  interleaved re-measurement failed: " +
                        (rep.json ? rep.json->value("error", std::string("?")) : rep.failure) +
                        "; the problem stays unfinished");
        }
      }
    }
    // One line per problem: the best full measurement and the baselines.
    std::string line = "  " + label(pr);
    if (!full.empty()) {
      char buf[256];
      std::snprintf(buf, sizeof buf, ": best %.2f us (%s)", full[0].first, full[0].second.id().c_str());
      line += buf;
    } else {
      line += ": no correct fused variant";
    }
    if (cut > 0)
      line += "; " + std::to_string(cut) + " of " + std::to_string(job.fused.size()) +
              " screenings cut at two samples (strategy.cutoff)";
    // Where a run's time goes: an H100's power-law problem took 178 of 473 s (forty-fifth
    // session), which the start's estimate (from the H200's run) did not foresee.
    char took[64];
    std::snprintf(
        took, sizeof took, "; %.0f s",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    line += took;
    progress.line(line);
    if (complete) store_.finish_problem(run_.id, pr.graph_name, pr.feat, pr.heads, w.known_gpu_uuid(), prepare_s);
  }

  std::atomic<int> resumed{0}, measured{0};

  // cutoff_us > 0: a screening measurement stops early past it (strategy.cutoff).
  TrialRecord trial(WorkerProcess& w, const nlohmann::json& base, const VariantParams& p, int stage,
                    Progress& progress, bool counters = true, double cutoff_us = 0.0) {
    const Problem pr = problem_of(base);
    TrialRecord t;
    if (store_.has_trial(run_.id, pr.graph_name, pr.feat, pr.heads, p.id(), stage)) {
      for (const auto& old : cached_trials(pr))
        if (old.variant == p.id() && old.stage == stage) t = old;
      ++resumed;
      progress.tick();
      return t;
    }
    auto it = compiled_.find(p.id());
    if (it != compiled_.end() && !it->second.ok) {
      t = record_static(pr, p, TrialStatus::compile_failed, it->second.error, stage);
      progress.tick();
      return t;
    }
    nlohmann::json req = base;
    req["op"] = "trial";
    req["variant"] = p.id();
    req["stage"] = stage;
    req["rel_tol"] = tolerance(cfg_, p);
    req["timing"] = timing_json(cfg_.timing, stage == 0);
    if (cutoff_us > 0) req["timing"]["cutoff_us"] = cutoff_us;
    req["counters"] = cfg_.counters && counters && stage >= 1;
    auto rep = w.call(req, cfg_.timing.timeout_seconds);
    std::string counters_lost;  // why the counters are missing when a retry without them timed it
    if (req["counters"].get<bool>() && !reply_ok(rep) && worker_restarted(rep)) {
      // A timeout or crash with counters asked for (the leaders, which passed screening): the
      // counter replay may be what failed (CUPTI, a slow collection). Time the variant again
      // without them, on a fresh worker, rather than lose a good measurement.
      counters_lost = std::string(rep.timed_out ? "timed out" : "crashed") +
                      " with counters (" + rep.failure.substr(0, 200) + "); timed again without them";
      reprepare(w, base,
                p.id() + " (" + (rep.timed_out ? "timed out" : "crashed") + " with counters)");
      req["counters"] = false;
      rep = w.call(req, cfg_.timing.timeout_seconds);
    }
    if (reply_ok(rep)) {
      t = trial_from_json((*rep.json)["trial"]);
      if (!counters_lost.empty() && t.status == "ok")
        t.counters = {{"ok", false}, {"reason", counters_lost}};
    } else {
      t = record_for(pr, p.id(), stage);
      if (rep.timed_out) {
        t.status = to_string(TrialStatus::timeout);
        t.detail = rep.failure;
      } else if (!rep.json) {
        t.status = to_string(TrialStatus::crashed);
        t.detail = rep.failure;
      } else {
        t.status = to_string(TrialStatus::launch_failed);
        t.detail = rep.json->value("error", std::string("unknown worker error"));
        if (rep.json->value("fatal", false)) t.status = to_string(TrialStatus::crashed);
      }
    }
    t.run_id = run_.id;
    if (!t.raw.is_object()) t.raw = nlohmann::json::object();
    if (!t.raw.contains("gpu_uuid")) t.raw["gpu_uuid"] = w.known_gpu_uuid();  // no reply: the worker's GPU
    // A killed or crashed worker comes back empty: rebuild its problem under the long limit,
    // so the next trial's time limit is not spent on the graph and the reference. First: when
    // it cannot be rebuilt, the GPU may be what failed, not this variant, whose trial is then
    // not stored (a resumed run measures it again).
    if (worker_restarted(rep)) reprepare(w, base, p.id() + " (" + t.status + ")");
    store_.put_trial(t);
    ++measured;
    if (t.status != "ok" && t.status != "unsupported")
      progress.line("  " + pr.graph_name + " F=" + std::to_string(pr.feat) + " " + p.id() + ": " + t.status +
                    ": " + t.detail.substr(0, 160));
    else if (const std::string slow = slow_trial_note(t.raw.value("phase_s", nlohmann::json()),
                                                      cfg_.timing.timeout_seconds);
             !slow.empty())
      progress.line("  " + pr.graph_name + " F=" + std::to_string(pr.feat) + " H=" + std::to_string(pr.heads) +
                    " " + p.id() + ": " + slow);
    progress.tick();
    return t;
  }

  // After a worker restart (`after`: the trial or request whose crash or timeout caused it):
  // builds the problem again, or throws. A worker that cannot build a problem it built before,
  // twice, has lost its GPU (an Xid, a lost context, a broken device): the problem's later
  // trials would each fail and be stored as the variants' crashes, so the run stops measuring
  // on this GPU instead, and the problem stays unfinished (tuner run's thread hands the rest to
  // the other GPUs; a rerun resumes it). A variant that leaves the GPU unusable every time it
  // runs stops every rerun at itself: the log names it, and a constraint can leave it out.
  void reprepare(WorkerProcess& w, const nlohmann::json& base, const std::string& after) {
    if (cfg_.test_only.fail_reprepare) lost(base, after, "test_only.fail_reprepare");
    if (prepare(w, base).empty()) return;
    // Once more, after a pause: the killed worker's memory, or its context under an exclusive
    // compute mode, may not have been released yet.
    std::this_thread::sleep_for(std::chrono::seconds(5));
    const std::string failed = prepare(w, base);
    if (!failed.empty()) lost(base, after, failed.substr(0, 300) + " (twice, 5 s apart)");
  }
  [[noreturn]] static void lost(const nlohmann::json& base, const std::string& after,
                                const std::string& failed) {
    const Problem pr = problem_of(base);
    throw std::runtime_error("the worker was restarted after " + after + " on " + pr.graph_name +
                             " F=" + std::to_string(pr.feat) + " H=" + std::to_string(pr.heads) +
                             " and could not build that problem again (" + failed +
                             "): its GPU takes no more problems, that trial is not stored and the "
                             "problem stays unfinished (run the same command again to resume it)");
  }

  // Builds the problem (graph, inputs, float64 reference, device copy) in the worker.
  // Returns "" when the worker has it, else why not; `features` gets the graph's shape.
  std::string prepare(WorkerProcess& w, const nlohmann::json& base, nlohmann::json* features = nullptr) {
    nlohmann::json req = base;
    req["op"] = "prepare";
    const auto rep = w.call(req, 1800);
    if (!rep.json) return rep.failure;
    if (!rep.json->value("ok", false)) return rep.json->value("error", std::string("?"));
    if (features && rep.json->contains("features")) *features = (*rep.json)["features"];
    return "";
  }

 private:
  static Problem problem_of(const nlohmann::json& base) {
    Problem p;
    p.graph_name = base["graph"];
    p.spec = base["spec"];
    p.feat = base["feat"];
    p.heads = base["heads"];
    return p;
  }
  const std::vector<TrialRecord>& cached_trials(const Problem& pr) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!loaded_) {
      for (auto& t : store_.trials(run_.id)) existing_[problem_key(t.graph, t.feat, t.heads)].push_back(t);
      loaded_ = true;
    }
    return existing_[pr.key()];
  }
  // A record of this run for one problem, variant and stage, to be filled in.
  TrialRecord record_for(const Problem& pr, const std::string& variant, int stage) const {
    TrialRecord t;
    t.run_id = run_.id;
    t.graph = pr.graph_name;
    t.spec = pr.spec;
    t.feat = pr.feat;
    t.heads = pr.heads;
    t.variant = variant;
    t.stage = stage;
    return t;
  }
  TrialRecord record_static(const Problem& pr, const VariantParams& p, TrialStatus s, const std::string& why, int stage = 0) {
    TrialRecord t = record_for(pr, p.id(), stage);
    t.status = to_string(s);
    t.detail = why;
    std::lock_guard<std::mutex> lock(mu_);
    if (!store_.has_trial(run_.id, t.graph, t.feat, t.heads, t.variant, t.stage)) store_.put_trial(t);
    return t;
  }

  const Config& cfg_;
  Store& store_;
  const RunInfo& run_;
  const std::map<std::string, CompileOutcome>& compiled_;
  std::mutex mu_;
  bool loaded_ = false;
  std::map<std::string, std::vector<TrialRecord>> existing_;
};

// The run this invocation measures into: the one this config left unfinished on this GPU with
// these kernels; else, with `continue_elsewhere`, a continuation of one stopped on another GPU
// of the same kind (refused, with the reason, when there is none); else a new run.
// Each graph's source hash as the config names it now (graphs::graph_source_hash; "" for a spec
// that does not parse or a file that cannot be read, whose problems nothing is carried into).
GraphSources graph_sources(const Config& cfg) {
  GraphSources out;
  for (const auto& g : cfg.graphs) {
    try {
      out[g.name] = graphs::graph_source_hash(g.spec);
    } catch (const std::exception&) {
      out[g.name] = "";
    }
  }
  return out;
}

RunInfo open_or_continue(Store& store, const RunInfo& want, bool continue_elsewhere,
                         const GraphSources& sources) {
  if (const auto here = store.resumable_run(want)) {
    // A run begun here that measured nothing yet gives way to --continue.
    if (!continue_elsewhere || !store.drop_empty_run(here->id)) {
      if (continue_elsewhere)
        std::printf("run %lld of this config stopped on this GPU: resuming it, not continuing another\n",
                    static_cast<long long>(here->id));
      return *here;
    }
  }
  std::string why;
  const auto other = store.continuable_run(want, &why);
  if (!continue_elsewhere) {
    if (other)
      std::printf("note: run %lld of this config stopped unfinished on GPU %s (host %s); tuner run "
                  "--continue would carry its finished problems over instead of measuring them again\n",
                  static_cast<long long>(other->id), other->gpu_uuid.c_str(), other->host.c_str());
    return store.open_run(want);
  }
  if (!other) throw std::runtime_error("--continue: " + why);
  const RunInfo run = store.continue_run(want, other->id, sources);
  const size_t carried = store.finished_problems(run.id).size();
  const auto finished_there = store.finished_problems(other->id);
  const size_t finished = finished_there.size();
  std::printf("run %lld continues run %lld of GPU %s (host %s): %zu finished problems carried over; "
              "problems it left part-done are measured again here\n",
              static_cast<long long>(run.id), static_cast<long long>(other->id), other->gpu_uuid.c_str(),
              other->host.c_str(), carried);
  if (carried < finished) {
    size_t no_source = 0;
    for (const auto& f : finished_there) no_source += stored_graph_source(store, other->id, f.graph).empty();
    std::printf("  %zu finished problems of run %lld are measured again: %zu of them because that run stored no "
                "graph source (it predates them), the others because their graph's source (file bytes, "
                "generator or reader code) is not the one that run stored, or cannot be read now\n",
                finished - carried, static_cast<long long>(other->id), no_source);
  }
  return run;
}

// --reuse: copies into `run` every problem of cfg it has not finished that an earlier
// compatible run finished with the same problem fingerprint (the newest such run's), and says
// which, and from which runs.
void reuse_finished(Store& store, const Config& cfg, const RunInfo& run, const GraphSources& sources) {
  const auto take = reusable_problems(store, run, to_json(cfg), sources);
  std::map<int64_t, std::vector<std::string>> taken_from;
  // Named by the run that measured each (a problem a continuation carried keeps its first run).
  for (const auto& [from, f] : take)
    taken_from[f.from_run > 0 ? f.from_run : from].push_back(problem_key(f.graph, f.feat, f.heads));
  store.reuse_problems(run.id, take);
  const size_t total = problems(cfg).size();
  std::printf("--reuse: %zu of %zu problems taken from earlier runs of this GPU model, driver, runtime, "
              "NVRTC and kernels with the same problem fingerprint and graph sources%s\n",
              take.size(), total, take.empty() ? " (none matched)" : ":");
  for (const auto& [id, keys] : taken_from) {
    std::string list;
    for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
    std::printf("  from run %lld: %s\n", static_cast<long long>(id), list.c_str());
  }
}

}  // namespace

int run_tuning(const Config& cfg, bool continue_elsewhere, bool reuse) {
  const auto t_start = std::chrono::steady_clock::now();
  fs::create_directories(cfg.output);
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  std::printf("tuner run %s: %zu graphs, output %s, %d GPU(s)\n", cfg.name.c_str(), cfg.graphs.size(),
              cfg.output.c_str(), ndev);

  // Device description and ceilings from a worker, so this process never holds a context.
  WorkerProcess probe(0);
  const auto info = probe.call({{"op", "info"}, {"cache_dir", cfg.output}}, 600);
  // It ends before the run's workers start: a GPU in EXCLUSIVE_PROCESS compute mode admits one
  // context, and GPU 0's worker needs it.
  probe.end();
  if (!reply_ok(info))
    throw std::runtime_error("cannot describe GPU 0: " + (info.json ? info.json->value("error", std::string("?")) : info.failure));
  const auto& dev = (*info.json)["device"];
  const int have_major = dev.value("cc_major", 0), have_minor = dev.value("cc_minor", 0);
  const std::string have_cc = std::to_string(have_major) + std::to_string(have_minor);
  // Tuned on the GPU it names: its own capability (a family target's, any its code runs on).
  // Code for an earlier minor would run here, but its timings would not be the target's.
  const auto target = NvrtcCompiler::parse_arch(cfg.arch);
  const bool tunes_here = NvrtcCompiler::arch_runs_on(cfg.arch, have_major, have_minor) &&
                          (target->suffix == 'f' || target->cc == have_major * 10 + have_minor);
  if (!cfg.allow_other_arch && !tunes_here)
    throw std::runtime_error("config targets " + cfg.arch + " but GPU 0 is compute capability " + have_cc +
                             " (" + dev.value("name", std::string("?")) + "); set allow_other_arch: true to tune anyway");

  Store store(store_path(cfg));
  RunInfo want;
  want.name = cfg.name;
  want.config_hash = config_hash(cfg);
  want.config = to_json(cfg);
  want.gpu_name = dev.value("name", "");
  want.gpu_uuid = dev.value("uuid", "");
  want.driver = dev.value("driver", "");
  want.cuda_runtime = dev.value("cuda_runtime", "");
  want.nvrtc = NvrtcCompiler::nvrtc_version();
  want.arch = cfg.arch;
  want.kernels_hash = kernel_sources_hash(cfg.arch);
  want.commit = project_commit();
  want.host = host_name();
  want.device = dev;
  want.ceilings = info.json->value("ceilings", nlohmann::json());
  const GraphSources sources = graph_sources(cfg);
  const RunInfo run = open_or_continue(store, want, continue_elsewhere, sources);
  std::printf("run %lld on %s (%s), config %s%s\n", static_cast<long long>(run.id), run.gpu_name.c_str(),
              run.gpu_uuid.c_str(), run.config_hash.c_str(),
              run.continued_from > 0 ? " (continuing)" : store.trials(run.id).empty() ? "" : " (resuming)");
  {
    // A resumed run measures again a graph whose source changed since it measured it (a file
    // replaced under the same path, a changed generator): its trials would be of another graph.
    std::vector<std::string> unknown;
    for (const auto& g : changed_graphs(store, run.id, sources, &unknown)) {
      store.forget_graph(run.id, g);
      std::printf("%s: its source (file bytes or generator) changed since run %lld measured it; what "
                  "the run had of it is dropped and it is measured again\n",
                  g.c_str(), static_cast<long long>(run.id));
    }
    if (!unknown.empty())
      std::printf("note: run %lld cannot tell whether %zu graph(s) changed since it measured them (no source "
                  "stored: measured before sources were kept; or the file cannot be read now); what it has "
                  "of them is kept\n",
                  static_cast<long long>(run.id), unknown.size());
  }
  if (reuse) reuse_finished(store, cfg, run, sources);

  // Problems finished before a stop (here, or on the GPU a continued run began on) are taken
  // from the store whole: their variants are not compiled for them and no worker builds their
  // graph again.
  std::map<std::string, std::string> finished_on;  // problem key -> the GPU that finished it
  const auto load_finished = [&] {
    finished_on.clear();
    for (const auto& f : store.finished_problems(run.id)) finished_on[problem_key(f.graph, f.feat, f.heads)] = f.gpu_uuid;
  };
  load_finished();
  const auto is_finished = [&](const Problem& pr) { return finished_on.count(pr.key()) > 0; };
  {
    // A graph file the unfinished problems need must be there now, before anything is compiled
    // or measured (a finished problem's graph may be gone: its results are in the store).
    std::set<std::string> needed_graphs;
    for (const auto& pr : problems(cfg))
      if (!is_finished(pr)) needed_graphs.insert(pr.graph_name);
    Config needed = cfg;
    std::erase_if(needed.graphs, [&](const GraphEntry& g) { return !needed_graphs.count(g.name); });
    check_config_graphs(needed);
  }

  // Problems, candidates and pruning.
  std::vector<ProblemJob> jobs;
  std::set<std::string> needed;
  for (const auto& pr : problems(cfg)) {
    ProblemJob job;
    job.problem = pr;
    // Constraint pruning is a property of the config (`tuner list --pruned` shows it); only
    // pruning by the compiled kernels' resources is stored per trial below.
    const auto cands = enumerate(cfg, pr);
    job.fused = survivors(cands);
    // The column-blocked sweeps are measured once, fully, beside the baselines: never a rule's
    // kernel, they must not take the family's screening, counter or interleaved-leader places.
    std::vector<VariantParams> sweeps;
    std::erase_if(job.fused, [&](const VariantParams& v) {
      if (v.family != Family::colblock) return false;
      sweeps.push_back(v);
      return true;
    });
    job.fused = apply_strategy(cfg, job.fused, pr);
    job.baselines = baseline_variants(cfg, pr);  // test-only variants come with enumerate()
    job.baselines.insert(job.baselines.end(), sweeps.begin(), sweeps.end());
    if (!is_finished(pr)) {
      for (const auto& v : job.fused) needed.insert(v.id());
      for (const auto& v : job.baselines) needed.insert(v.id());
    }
    jobs.push_back(std::move(job));
  }
  std::vector<VariantParams> to_compile;
  for (const auto& id : needed) to_compile.push_back(VariantParams::parse(id));
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Each problem's estimated seconds per trial, once (a file graph's header is read for it).
  std::vector<Problem> job_problems;
  std::vector<double> per_trial;
  for (const auto& job : jobs) {
    job_problems.push_back(job.problem);
    per_trial.push_back(estimated_trial_seconds(job.problem));
  }
  {
    // Before compiling, so that a run too long for its time slot can be stopped at once: the
    // counts before resource pruning (an upper bound), compiling without the cache.
    std::vector<size_t> trials;
    for (const auto& job : jobs)
      trials.push_back(is_finished(job.problem) ? 0 : planned_trials(cfg, job.fused.size()) + job.baselines.size());
    print_work_estimate(job_problems, per_trial, trials, std::max(1, ndev),
                        estimated_compile_seconds(distinct_kernels(to_compile), threads));
  }
  std::printf("compiling %zu variants (%zu kernels) on %d threads...\n", to_compile.size(),
              distinct_kernels(to_compile), threads);
  std::fflush(stdout);  // the estimate is for deciding now, also when the output goes to a file
  NvrtcCompiler compiler(cfg.arch, cfg.output + "/cache", test_knob_defines(cfg.test_only.slow_percent));
  std::map<std::string, CompileOutcome> compiled;
  int failed = 0;
  for (auto& o : compile_all(compiler, to_compile, threads)) {
    failed += !o.ok;
    compiled[o.params.id()] = std::move(o);
  }
  std::printf("compiled: %zu ok, %d failed\n", to_compile.size() - failed, failed);

  // Resource pruning with the compiler's register and shared-memory report.
  DeviceLimits limits;
  limits.max_threads_per_block = dev.value("max_threads_per_block", 1024);
  limits.smem_optin = dev.value("smem_per_block_optin", size_t{232448});
  size_t total = 0;
  std::vector<size_t> job_trials;
  for (auto& job : jobs) {
    // A finished problem's variants were not compiled: its count stays the one before
    // pruning (for the progress bar, not the trials stored).
    if (!is_finished(job.problem)) {
      std::vector<VariantParams> keep;
      for (const auto& p : job.fused) {
        const auto& o = compiled[p.id()];
        const std::string why = o.ok ? prune_by_resources(p, o.kernel.registers, o.kernel.static_smem, limits) : "";
        if (why.empty()) keep.push_back(p);
        else job.pruned.emplace_back(p, why);
      }
      job.fused = keep;
    }
    job_trials.push_back(planned_trials(cfg, job.fused.size()) + job.baselines.size());
    total += job_trials.back();
  }

  Progress progress;
  progress.total = total;
  Runner runner(cfg, store, run, compiled);
  const int workers = std::max(1, ndev);
  // Each problem is measured wholly on one GPU. Problems go to whichever worker is free, longest
  // first (estimated), except one that a stopped run had started: it goes back to the GPU that
  // measured it.
  std::vector<std::unique_ptr<WorkerProcess>> procs;
  std::vector<std::vector<size_t>> pinned(workers);
  std::vector<size_t> shared_jobs;
  for (int d = 0; d < workers; ++d) {
    procs.push_back(std::make_unique<WorkerProcess>(d));
    procs.back()->gpu_uuid();  // before any problem is prepared on it
  }
  // "[i/n] graph F=.. H=..": how each problem's lines begin.
  const auto head = [&](size_t i) {
    return "[" + std::to_string(i + 1) + "/" + std::to_string(jobs.size()) + "] " + label(jobs[i].problem);
  };
  const std::vector<size_t> order = longest_first(per_trial, job_trials);
  for (const size_t i : order) {
    const Problem& pr = jobs[i].problem;
    if (is_finished(pr)) {
      const size_t stored = runner.stored_trials(pr);
      runner.resumed += static_cast<int>(stored);
      progress.line(head(i) + ": finished before, on GPU " + finished_on[pr.key()] + "; its " + std::to_string(stored) +
                    " trials are taken from the store");
      progress.tick(job_trials[i]);
      continue;
    }
    const std::string gpu = runner.gpu_of(pr);
    int owner = -1;
    for (int d = 0; d < workers && !gpu.empty() && owner < 0; ++d)
      if (procs[d]->known_gpu_uuid() == gpu) owner = d;
    if (owner >= 0) {
      pinned[owner].push_back(i);
    } else {
      if (!gpu.empty())
        progress.line("  " + jobs[i].problem.graph_name + ": its GPU " + gpu +
                      " (before the stop) is not here; another GPU measures it again");
      shared_jobs.push_back(i);
    }
  }
  // A problem that cannot be prepared on one GPU goes to the others; a GPU that fails three
  // in a row, one of which another GPU prepared, takes no more (unless it is the last one).
  JobQueue queue(pinned, shared_jobs);
  std::vector<std::thread> pool;
  std::mutex err_mu;
  std::vector<std::string> errors;
  const auto measure_on = [&](int d) {
    try {
      WorkerProcess& w = *procs[d];
      while (const std::optional<size_t> job = queue.take(d)) {
        const size_t i = *job;
        const auto& pr = jobs[i].problem;
        progress.line(head(i) + " on GPU " + std::to_string(d) + ": " +
                      std::to_string(jobs[i].fused.size()) + " variants");
        nlohmann::json features;
        const auto t_prepare = std::chrono::steady_clock::now();
        const std::string failed = runner.prepare(w, runner.base_request(pr), &features);
        const double prepare_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t_prepare).count();
        if (!failed.empty()) {
          const bool dropped = queue.failed(d);
          progress.line("  cannot prepare " + pr.graph_name + " on GPU " + std::to_string(d) +
                        ": " + failed +
                        (dropped ? " (no other GPU left to try it: it stays unfinished)"
                                 : " (left to the other GPUs)"));
          if (queue.retired(d))
            progress.line("  GPU " + std::to_string(d) +
                          " takes no more problems: its last preparations all "
                          "failed, and another GPU prepared one of those problems");
          continue;
        }
        queue.prepared(d);
        // A problem is measured wholly on one GPU: what a stopped run measured of it on
        // another (its GPU is not here, or could not prepare it) is measured again here.
        const std::string before = runner.gpu_of(pr);
        if (!before.empty() && before != w.known_gpu_uuid()) {
          const size_t n = runner.stored_trials(pr);
          runner.forget_trials(pr);
          progress.line("  " + std::to_string(n) + " trials of it measured on GPU " + before +
                        " are dropped: it is measured again here");
        }
        if (!features.is_null()) {
          // What the run measured this graph from (a later --continue or --reuse compares it).
          const auto src = sources.find(pr.graph_name);
          if (src != sources.end() && !src->second.empty()) features["source_hash"] = src->second;
          store.put_graph(run.id, pr.graph_name, pr.spec, features);
        }
        runner.run_problem(w, jobs[i], progress, prepare_s);
      }
    } catch (const std::exception& e) {
      // What it held unprepared and its pinned problems go to the other GPUs; a problem it was
      // measuring stays unfinished (its trials may be what failed).
      queue.quit(d);
      std::lock_guard<std::mutex> lock(err_mu);
      errors.push_back("GPU " + std::to_string(d) + ": " + e.what());
    }
  };
  for (int d = 0; d < workers; ++d) {
    try {
      pool.emplace_back(measure_on, d);
    } catch (const std::system_error& e) {
      // No thread for GPUs d and later (the system's limit): their problems go to the GPUs that
      // have one, or stay unfinished; the run goes on (an exception past the joinable threads
      // would end the process through std::terminate).
      for (int k = d; k < workers; ++k) {
        queue.quit(k);
        std::lock_guard<std::mutex> lock(err_mu);
        errors.push_back("GPU " + std::to_string(k) +
                         ": no thread could be started for its worker (" + e.what() + ")");
      }
      break;
    }
  }
  for (auto& t : pool) t.join();
  for (const auto& e : errors) std::fprintf(stderr, "worker error: %s\n", e.c_str());
  for (const size_t i : queue.dropped())
    std::fprintf(
        stderr,
        "%s: not measured: every GPU still measuring failed to prepare it, or none is left "
        "(see above); it stays unfinished\n",
        label(jobs[i].problem).c_str());
  // The run is finished when every problem is; otherwise it stays open to be resumed (or
  // continued elsewhere), and its outputs below are from the problems it has.
  load_finished();
  std::string unfinished;
  size_t n_unfinished = 0;
  for (const auto& job : jobs)
    if (!is_finished(job.problem)) {
      ++n_unfinished;
      unfinished += (unfinished.empty() ? "" : ", ") + label(job.problem);
    }
  if (n_unfinished == 0) store.finish_run(run.id);
  std::printf("%d trials measured now, %d taken from the store (finished before a stop)\n",
              runner.measured.load(), runner.resumed.load());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (n_unfinished == 0) {
    std::printf("run %lld finished in %.1f s; results in %s\n", static_cast<long long>(run.id), wall,
                store.path().c_str());
  } else {
    std::fprintf(stderr,
                 "run %lld left unfinished after %.1f s: %zu of %zu problems are not finished (%s); run the "
                 "same command again to measure them (the finished ones are kept); results so far in %s\n",
                 static_cast<long long>(run.id), wall, n_unfinished, jobs.size(), unfinished.c_str(),
                 store.path().c_str());
  }
  finish_outputs(cfg, store, run.id);
  return errors.empty() && n_unfinished == 0 ? 0 : 1;
}

}  // namespace csrgat::tuner
