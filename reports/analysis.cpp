#include "reports/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "tuner/worker.h"

namespace csrgat::reports {
namespace {

double num(const nlohmann::json& j, const char* key, double fallback = 0) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
  return j[key].get<double>();
}

bool usable(double v) {
  return std::isfinite(v) && v > 0;
}

// The value and index types of a variant id (its last two parts), also when parse() rejects it.
std::pair<ValueType, IndexType> types_of(const std::string& variant,
                                         const std::optional<VariantParams>& p) {
  if (p) return {p->value, p->index};
  ValueType v = ValueType::f32;
  IndexType i = IndexType::i32;
  if (variant.find(".bf16") != std::string::npos)
    v = ValueType::bf16;
  else if (variant.find(".f16") != std::string::npos)
    v = ValueType::f16;
  if (variant.find(".i64") != std::string::npos) i = IndexType::i64;
  return {v, i};
}

}  // namespace

bool ProblemKey::operator<(const ProblemKey& o) const {
  return std::tie(graph, feat, heads, value, index) <
         std::tie(o.graph, o.feat, o.heads, o.value, o.index);
}
bool ProblemKey::operator==(const ProblemKey& o) const {
  return std::tie(graph, feat, heads, value, index) ==
         std::tie(o.graph, o.feat, o.heads, o.value, o.index);
}
std::string ProblemKey::label() const {
  return graph + " F=" + std::to_string(feat) + " H=" + std::to_string(heads) + " " +
         to_string(value) + "/" + to_string(index);
}

std::string family_of(const std::string& variant) {
  const std::string head = variant.substr(0, variant.find('.'));
  if (head == "seed" || head == "cusparse" || head == "colblock") return head;
  return "csrgat";
}

Roofs roofs_of(const tuner::RunInfo& run) {
  Roofs r;
  r.dram_gbs = num(run.ceilings, "dram_copy_gbs");
  r.dram_read_gbs = num(run.ceilings, "dram_read_gbs");
  r.l2_gbs = num(run.ceilings, "l2_copy_gbs");
  r.l2_gather_gbs = num(run.ceilings, "l2_gather_gbs");
  r.fp32_gflops = num(run.ceilings, "fp32_gflops");
  r.launch_us_plain = num(run.ceilings, "launch_us_plain");
  r.launch_us_graph = num(run.ceilings, "launch_us_graph");
  r.l2_bytes = num(run.device, "l2_bytes");
  // The ceilings record the device they were measured on; older runs may lack device_json.
  if (r.l2_bytes <= 0 && run.ceilings.is_object() && run.ceilings.contains("method") &&
      run.ceilings["method"].is_object())
    r.l2_bytes = num(run.ceilings["method"].value("device", nlohmann::json()), "l2_bytes");
  return r;
}

Model byte_model(int64_t nodes, int64_t edges, int feat, int heads, int index_bytes,
                 int value_bytes, const Roofs& roofs) {
  Model m;
  if (nodes <= 0 || edges < 0) return m;
  m.known = true;
  m.nodes = nodes;
  m.edges = edges;
  const double n = static_cast<double>(nodes), e = static_cast<double>(edges);
  const double h = heads, f = feat, ib = index_bytes, vb = value_bytes;
  const double structure = (n + 1) * ib + e * ib + e * h * 4;  // row_ptr, col, scores
  const double out = n * h * f * 4;
  m.values_bytes = n * h * f * vb;
  m.compulsory_bytes = structure + m.values_bytes + out;
  m.gather_bytes = structure + e * h * f * vb + out;
  // Without a known L2 size there is no telling; assume the values stay resident.
  m.values_fit_l2 = roofs.l2_bytes <= 0 || m.values_bytes <= roofs.l2_bytes;
  // Beyond L2, random source rows hit L2 about as often as the share of the values it holds
  // (steady state of uniform random reuse); the values are still read at least once.
  m.l2_hit = m.values_fit_l2 ? 1.0 : roofs.l2_bytes / m.values_bytes;
  const double gathered = e * h * f * vb;
  m.traffic_bytes = m.values_fit_l2
                        ? m.compulsory_bytes
                        : structure + out + std::max(m.values_bytes, gathered * (1 - m.l2_hit));
  m.flops = e * h * (2 * f + kSoftmaxFlops);
  if (roofs.dram_gbs > 0) {
    m.floor_us = m.compulsory_bytes / (roofs.dram_roof_gbs() * 1e3);
    if (!m.values_fit_l2) m.gather_estimate_us = m.traffic_bytes / (roofs.dram_roof_gbs() * 1e3);
  }
  // Values in L2: every gather is an L2 access, at best at the measured random-row rate.
  if (m.values_fit_l2 && roofs.l2_gather_gbs > 0)
    m.l2_floor_us = m.gather_bytes / (roofs.l2_gather_gbs * 1e3);
  return m;
}

std::string model_text() {
  return "Byte model (N nodes, E edges, F features, H heads; index_bytes 4 for i32 and 8 for i64; "
         "value_bytes 4 for f32 and 2 for bf16/f16). Compulsory bytes, every array once: "
         "row_ptr (N+1)*index_bytes + col E*index_bytes + scores E*H*4 + values N*H*F*value_bytes "
         "+ out N*H*F*4. When the value matrix does not fit in L2 (N*H*F*value_bytes > the "
         "device's L2 size), each edge reads its source row, from L2 with probability about "
         "hit = L2 size / values bytes (uniformly random sources; skewed graphs hit more) and "
         "otherwise from DRAM: traffic = (N+1)*index_bytes + E*index_bytes + E*H*4 + N*H*F*4 + "
         "max(N*H*F*value_bytes, E*H*F*value_bytes*(1 - hit)); the gather bytes through L2 are "
         "(N+1)*index_bytes + E*index_bytes + E*H*4 + E*H*F*value_bytes + N*H*F*4. The floor "
         "time, a lower bound, is compulsory bytes / the measured DRAM roof; beyond L2 "
         "the gather estimate is the traffic / the same ceiling, an estimate that skewed graphs "
         "and feature-sliced kernels can beat. Each winner's time is reported against both. FLOP "
         "model: per edge "
         "and head F multiply-adds (2F flops) plus " +
         std::to_string(kSoftmaxFlops) +
         " for the softmax (max, subtract and exponent, sum, scale): E*H*(2F+" +
         std::to_string(kSoftmaxFlops) +
         "). Where hardware counters are missing, DRAM bytes "
         "are the model's traffic (beyond L2 as above, else compulsory), L2 bytes the gather "
         "bytes (every load passes through L2), and flops the FLOP model; such numbers are "
         "marked \"(model)\", and a model's percentage of the roof above 100 says its traffic "
         "was too high for that graph. The DRAM roof is the read ceiling (a float4 stream read "
         "alone, cold) where the run measured it above the copy's: this operation's DRAM bytes "
         "are 90% reads or more. Runs recorded before it (before the forty-seventh session) have "
         "only the copy "
         "ceiling, which writes as much as it reads, and a kernel that mostly reads can pass "
         "that roof by a few percent on its counters.";
}

Counters counters_of(const nlohmann::json& j) {
  Counters c;
  if (j.is_null()) {
    c.why = "not collected";
    return c;
  }
  if (!j.is_object()) {
    c.why = "malformed counters";
    return c;
  }
  if (j.contains("unavailable")) {
    c.why = j["unavailable"].is_string() ? j["unavailable"].get<std::string>() : "unavailable";
    return c;
  }
  if (j.contains("ok") && !j.value("ok", false)) {
    c.why = j.value("reason", std::string("counters unavailable"));
    if (c.why.empty()) c.why = "counters unavailable";
    return c;
  }
  const nlohmann::json& v = j.contains("values") && j["values"].is_object() ? j["values"] : j;
  const double nan = std::nan("");
  const double rd = num(v, "dram__bytes_read.sum", nan), wr = num(v, "dram__bytes_write.sum", nan);
  if (std::isfinite(rd) && std::isfinite(wr)) {
    c.dram_bytes = rd + wr;
    c.has_dram = true;
  }
  const double l2 = num(v, "lts__t_bytes.sum", nan);
  if (std::isfinite(l2)) {
    c.l2_bytes = l2;
    c.has_l2 = true;
  }
  auto inst = [&](const char* op) {
    const double a = num(
        v, (std::string("sm__sass_thread_inst_executed_op_") + op + "_pred_on.sum").c_str(), nan);
    return std::isfinite(a)
               ? a
               : num(v,
                     (std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum")
                         .c_str(),
                     nan);
  };
  const double flops = 2 * inst("ffma") + inst("fadd") + inst("fmul");
  if (std::isfinite(flops) && flops > 0) {
    c.flops = flops;
    c.has_flops = true;
  }
  c.available = c.has_dram || c.has_l2 || c.has_flops;
  if (!c.available) c.why = "no DRAM, L2 or FP32 metric in the counters";
  return c;
}

Achieved achieved(double time_us, const Counters& c, const Model& m, const Roofs& r) {
  Achieved a;
  a.time_us = time_us;
  a.dram_model = !c.has_dram;
  a.l2_model = !c.has_l2;
  a.flops_model = !c.has_flops;
  a.dram_bytes = c.has_dram ? c.dram_bytes : m.traffic_bytes;
  a.l2_bytes = c.has_l2 ? c.l2_bytes : m.gather_bytes;
  a.flops = c.has_flops ? c.flops : m.flops;
  a.known = usable(time_us) && usable(a.dram_bytes) && usable(a.flops);
  if (!usable(time_us)) return a;
  // Zero bytes or flops here mean "unknown" (a model without the graph's size), not zero.
  if (usable(a.dram_bytes)) a.dram_gbs = a.dram_bytes / time_us * 1e-3;  // bytes/us * 1e-3 = GB/s
  if (usable(a.l2_bytes)) a.l2_gbs = a.l2_bytes / time_us * 1e-3;
  if (usable(a.flops)) a.gflops = a.flops / time_us * 1e-3;
  if (usable(a.dram_bytes) && usable(a.flops)) a.ai = a.flops / a.dram_bytes;
  if (r.known() && usable(a.ai)) {
    a.roof_gflops = std::min(r.dram_roof_gbs() * a.ai, r.fp32_gflops);
    a.pct_roof = 100.0 * a.gflops / a.roof_gflops;
  }
  return a;
}

const VariantResult* ProblemResults::find(const std::string& variant) const {
  for (const auto& v : variants)
    if (v.variant == variant) return &v;
  return nullptr;
}

const std::string* ProblemResults::ruled_out(const std::string& variant) const {
  const auto it = disqualified.find(variant);
  return it == disqualified.end() ? nullptr : &it->second;
}

const VariantResult* ProblemResults::baseline(const std::string& family) const {
  for (const auto& v : variants)  // fastest first
    if (v.family == family) return &v;
  return nullptr;
}

std::vector<std::pair<double, std::string>> trial_phases(const tuner::TrialRecord& t) {
  return tuner::phases_longest_first(t.raw.is_object() ? t.raw.value("phase_s", nlohmann::json())
                                                       : nlohmann::json());
}

double phase_total_s(const tuner::TrialRecord& t) {
  double total = 0;
  for (const auto& ph : trial_phases(t)) total += ph.first;
  return total;
}

std::string problem_label(const std::string& graph, int feat, int heads) {
  return graph + " F=" + std::to_string(feat) + " H=" + std::to_string(heads);
}
std::string problem_label(const tuner::TrialRecord& t) {
  return problem_label(t.graph, t.feat, t.heads);
}

namespace {

// "2026-12-01T16:02:18Z" -> seconds since the epoch; nullopt when it is not that form.
std::optional<double> epoch_seconds(const std::string& iso) {
  std::tm tm{};
  std::istringstream in(iso);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  if (in.fail()) return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

void add_times(RunData& d, const std::vector<tuner::TrialRecord>& trials) {
  std::map<std::string, ProblemTime> by;
  std::vector<std::pair<double, const tuner::TrialRecord*>> timed;  // (phase total, trial)
  for (const auto& t : trials) {
    // Pruned and compile-failed trials are recorded by the run, never sent to a worker; test-only
    // variants (fault, delay) are left out as everywhere in the report.
    if (t.status == "pruned" || t.status == "compile_failed") continue;
    try {
      const VariantParams p = VariantParams::parse(t.variant);
      if (p.fault != 0 || p.delay_ns != 0) continue;
    } catch (const std::exception&) {
    }
    const std::string key = problem_label(t);
    ProblemTime& p = by[key];
    p.problem = key;
    ++p.trials;
    if (p.first_created.empty() || t.created < p.first_created) p.first_created = t.created;
    if (t.created > p.last_created) p.last_created = t.created;
    // Collections that recorded their steps (failed ones too: their time was spent).
    if (t.counters.is_object() && t.counters.contains("wall_s") &&
        t.counters["wall_s"].is_object() && !t.counters["wall_s"].empty()) {
      ++d.counter_collections;
      for (const auto& [step, sec] : t.counters["wall_s"].items())
        if (sec.is_number()) d.counter_steps_s[step] += sec.get<double>();
    }
    const auto phases = trial_phases(t);
    if (phases.empty()) continue;
    ++p.timed;
    double total = 0;
    for (const auto& [sec, name] : phases) {
      p.phase_s[name] += sec;
      total += sec;
    }
    timed.emplace_back(total, &t);
  }
  for (auto& [key, p] : by) {
    const auto first = epoch_seconds(p.first_created), last = epoch_seconds(p.last_created);
    if (first && last) p.span_s = *last - *first;
    d.times.push_back(std::move(p));
  }
  std::sort(d.times.begin(), d.times.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first_created, a.problem) < std::tie(b.first_created, b.problem);
  });
  // Only the ten slowest are copied (a trial's raw holds its samples).
  const size_t n = std::min<size_t>(10, timed.size());
  std::partial_sort(timed.begin(), timed.begin() + static_cast<std::ptrdiff_t>(n), timed.end(),
                    [](const auto& a, const auto& b) {  // ties: the store's order
                      return a.first != b.first ? a.first > b.first : a.second < b.second;
                    });
  for (size_t i = 0; i < n; ++i) d.slowest.push_back(*timed[i].second);
}

// The header's dispatch on problem p under `rules` (Dispatch).
Dispatch dispatch_of(const std::vector<tuner::RuleChoice>& rules, const ProblemResults& p) {
  Dispatch d;
  d.shape_unknown = !p.features.is_object();
  const tuner::RuleChoice* r =
      tuner::rule_for(rules, p.key.value, p.key.index, p.key.feat, p.key.heads, p.features);
  if (!r) {
    d.fallback = std::any_of(rules.begin(), rules.end(), [&p](const tuner::RuleChoice& x) {
      return x.bucket.value == static_cast<int>(p.key.value) &&
             x.bucket.index == static_cast<int>(p.key.index);
    });
    return d;
  }
  d.bucket = r->bucket.describe();
  d.sweep = tuner::sweep_runs(*r, p.key.value, p.key.index, p.key.feat, p.key.heads, p.features);
  d.kernel = d.sweep ? r->colblock : r->variant;
  if (const std::string* why = p.ruled_out(d.kernel)) {
    d.failed = *why;
    return d;  // its ok trials there say nothing
  }
  for (const auto& e : d.sweep ? r->colblock_evidence : r->evidence)
    if (e.graph == p.key.graph && e.feat == p.key.feat && e.heads == p.key.heads) {
      d.median_us = e.median_us;
      d.rel_noise = e.rel_noise;
      d.stage = e.stage;
      break;
    }
  return d;
}

// A run config's timing keys that decide what was measured.
struct TimingSetting {
  std::string cache = "cold";
  bool graph_replay = false, overlap_previous = false;
};
TimingSetting timing_setting(const nlohmann::json& config) {
  TimingSetting s;
  if (!config.is_object() || !config.contains("timing") || !config["timing"].is_object()) return s;
  const nlohmann::json& t = config["timing"];
  const auto flag = [&t](const char* key) {
    return t.contains(key) && t[key].is_boolean() && t[key].get<bool>();
  };
  if (t.contains("cache") && t["cache"].is_string()) s.cache = t["cache"].get<std::string>();
  s.graph_replay = flag("graph_replay");
  s.overlap_previous = flag("overlap_previous");
  return s;
}
}  // namespace

std::string timing_kind(const nlohmann::json& config) {
  const TimingSetting s = timing_setting(config);
  return "L2 " + s.cache + (s.graph_replay ? ", graph replays" : ", single launches") +
         (s.overlap_previous ? ", overlapped" : "");
}

bool timed_cold_single(const nlohmann::json& config) {
  const TimingSetting s = timing_setting(config);
  return s.cache == "cold" && !s.graph_replay;
}

std::string failure_words(const std::string& status) {
  if (status == "timeout") return "hung (timeout)";
  if (status == "launch_failed") return "not launched (launch_failed)";
  return status;
}

nlohmann::json dispatch_json(const Dispatch& d) {
  const auto known = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
  };
  return {{"kernel", d.kernel},
          {"fallback", d.fallback},
          {"sweep", d.sweep},
          {"shape_unknown", d.shape_unknown},
          {"failed", d.ruled_out() ? nlohmann::json(d.failed) : nlohmann::json()},
          {"bucket", d.bucket},
          {"stage", d.stage >= 0 ? nlohmann::json(d.stage) : nlohmann::json()},
          {"median_us", d.timed() ? nlohmann::json(d.median_us) : nlohmann::json()},
          {"rel_noise", known(d.rel_noise)}};
}

RunData load_run(const tuner::Store& store, int64_t run_id) {
  auto run = store.run(run_id);
  if (!run)
    throw std::runtime_error("results store '" + store.path() + "' has no run " +
                             std::to_string(run_id));
  RunData d;
  d.run = *run;
  d.roofs = roofs_of(d.run);
  const std::vector<tuner::TrialRecord> trials = store.trials(run_id);

  struct Acc {
    std::string spec;
    std::map<std::string, VariantResult> by_variant;
    std::map<std::string, std::vector<const tuner::TrialRecord*>> all;  // every ok trial
    std::map<std::string, std::string> disqualified;  // variant -> the status that ruled it out
  };
  std::map<ProblemKey, Acc> acc;
  std::set<std::string> graphs;
  for (const auto& t : trials) {
    ++d.status_counts[t.status];
    graphs.insert(t.graph);
    if (t.raw.is_object() && t.raw.contains("gpu_uuid") && t.raw["gpu_uuid"].is_string())
      d.gpus[t.raw["gpu_uuid"].get<std::string>()].insert(problem_label(t));
    std::optional<VariantParams> p;
    try {
      p = VariantParams::parse(t.variant);
    } catch (const std::exception&) {
    }
    if (p && (p->fault != 0 || p->delay_ns != 0)) continue;  // test-only variants never report
    if (t.status != "ok" && t.status != "pruned" && t.status != "unsupported")
      d.failures.push_back(t);
    const auto [value, index] = types_of(t.variant, p);
    const ProblemKey key{t.graph, t.feat, t.heads, value, index};
    Acc& a = acc[key];
    if (a.spec.empty()) a.spec = t.spec;
    const std::string fam = family_of(t.variant);
    if (p && tuner::rules_out(p->family, t.status)) a.disqualified.emplace(t.variant, t.status);
    if (t.status != "ok" || !usable(t.median_us)) continue;
    a.all[t.variant].push_back(&t);
    auto it = a.by_variant.find(t.variant);
    if (it == a.by_variant.end() || t.stage > it->second.best.stage) {
      VariantResult v;
      v.variant = t.variant;
      v.family = fam;
      v.params = p;
      v.best = t;
      a.by_variant[t.variant] = std::move(v);
    }
  }
  d.graphs.assign(graphs.begin(), graphs.end());
  add_times(d, trials);
  for (const auto& f : store.finished_problems(run_id)) {
    if (f.prepare_s < 0) continue;
    const std::string label = problem_label(f.graph, f.feat, f.heads);
    for (auto& t : d.times)
      if (t.problem == label) t.build_s = f.prepare_s;
  }

  tuner::Selection chosen = tuner::select_winners_and_rules(store, run_id);
  const std::vector<tuner::RuleChoice>& rules = chosen.rules;
  std::map<ProblemKey, tuner::Winner> winners;
  for (auto& w : chosen.winners)
    winners[ProblemKey{w.graph, w.feat, w.heads, w.value, w.index}] = std::move(w);

  // A problem with only failures is still listed, so every graph of the run shows up.
  for (auto& [key, a] : acc) {
    ProblemResults pr;
    pr.key = key;
    pr.spec = a.spec;
    pr.features = store.graph_features(run_id, key.graph);
    const int64_t nodes = pr.features.is_object() ? pr.features.value("num_nodes", int64_t{0}) : 0;
    const int64_t edges =
        pr.features.is_object() ? pr.features.value("num_edges", int64_t{-1}) : -1;
    pr.model = byte_model(nodes, edges, key.feat, key.heads, index_bytes(key.index),
                          value_bytes(key.value), d.roofs);
    pr.disqualified = a.disqualified;
    for (auto& [id, v] : a.by_variant) {
      if (a.disqualified.count(id)) continue;
      // Counters come with stage-1 trials; the interleaved final stage times without them.
      std::vector<const tuner::TrialRecord*> ts = a.all[id];
      std::sort(ts.begin(), ts.end(), [](auto* x, auto* y) { return x->stage > y->stage; });
      v.counters = counters_of(v.best.counters);
      for (const auto* t : ts) {
        Counters c = counters_of(t->counters);
        if (c.available) {
          v.counters = c;
          break;
        }
        if (!v.counters.available && t->counters.is_object())
          v.counters = c;  // keep the best reason
      }
      v.perf = achieved(v.best.median_us, v.counters, pr.model, d.roofs);
      pr.variants.push_back(std::move(v));
    }
    std::stable_sort(pr.variants.begin(), pr.variants.end(),
                     [](const VariantResult& x, const VariantResult& y) {
                       return x.best.median_us < y.best.median_us;
                     });
    if (auto it = winners.find(key); it != winners.end()) pr.winner = it->second;
    pr.dispatch = dispatch_of(rules, pr);
    d.problems.push_back(std::move(pr));
  }
  return d;
}

std::string fmt(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_us(double us) {
  return fmt(us, 2);
}

std::string format_pct(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return fmt(fraction * 100, 2) + "%";
}

std::string format_speedup(double ratio) {
  if (!std::isfinite(ratio) || ratio <= 0) return "n/a";
  return fmt(ratio, 2) + "x";
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return "n/a";
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (std::abs(bytes) >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  return fmt(bytes, u == 0 ? 0 : 1) + " " + units[u];
}

}  // namespace csrgat::reports
