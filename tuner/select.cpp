#include "tuner/select.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "tuner/colblock.h"
#include "variants/launch.h"

namespace csrgat::tuner {
namespace {

struct ProblemKey {
  std::string graph;
  int feat = 0, heads = 1;
  ValueType value = ValueType::f32;
  IndexType index = IndexType::i32;
  auto tie() const { return std::tie(graph, feat, heads, value, index); }
  bool operator<(const ProblemKey& o) const { return tie() < o.tie(); }
};

// A variant's best evidence on one problem.
struct Measure {
  const TrialRecord* t = nullptr;
  VariantParams p;
};

struct ProblemData {
  std::string spec;
  std::map<std::string, Measure> fused;     // by variant id
  std::map<std::string, Measure> baseline;  // by family name
  std::map<std::string, Measure> colblock;  // column-blocked sweeps, by variant id
  std::set<std::string> disqualified;       // variants with a wrong or crashed trial
};

struct Analysis {
  RunInfo run;
  double noise_target = 0;          // the run's timing.max_rel_noise (0: none stored)
  std::vector<TrialRecord> trials;  // owns what Measure points at
  std::map<ProblemKey, ProblemData> problems;
};

bool usable_time(double us) {
  return std::isfinite(us) && us > 0;
}

// Higher stage is better evidence; within a stage a trial timed at full clocks beats one NVML
// saw throttled, else the first seen stays (trials come sorted).
void keep_best(std::map<std::string, Measure>& m, const std::string& key, const TrialRecord& t,
               const VariantParams& p) {
  auto it = m.find(key);
  if (it == m.end() || t.stage > it->second.t->stage ||
      (t.stage == it->second.t->stage && it->second.t->throttled && !t.throttled))
    m[key] = Measure{&t, p};
}

// The run's noise target (its config's timing.max_rel_noise; 0, none, in a store without it).
double noise_target(const RunInfo& run) {
  const auto& c = run.config;
  if (!c.is_object() || !c.contains("timing") || !c["timing"].is_object()) return 0;
  const auto& v = c["timing"].value("max_rel_noise", nlohmann::json());
  return v.is_number() ? v.get<double>() : 0;
}

}  // namespace

bool rules_out(Family family, const std::string& status) {
  if (family != Family::fused && family != Family::colblock) return false;
  return status == "wrong" || status == "crashed" || status == "timeout" ||
         (family == Family::colblock && status == "launch_failed");
}

namespace {

Analysis analyse(const Store& store, int64_t run_id) {
  Analysis a;
  auto run = store.run(run_id);
  if (!run)
    throw std::runtime_error("results store '" + store.path() + "' has no run " +
                             std::to_string(run_id));
  a.run = *run;
  a.noise_target = noise_target(a.run);
  a.trials = store.trials(run_id);
  for (const TrialRecord& t : a.trials) {
    VariantParams p;
    try {
      p = VariantParams::parse(t.variant);
    } catch (const std::logic_error&) {  // invalid_argument, or out_of_range from a number
      continue;  // an id from another version of the tuner: not ours to dispatch
    }
    if (p.fault != 0 || p.delay_ns != 0) continue;
    ProblemKey key{t.graph, t.feat, t.heads, p.value, p.index};
    if (rules_out(p.family, t.status)) {
      a.problems[key].disqualified.insert(t.variant);
      continue;
    }
    if (t.status != "ok" || !usable_time(t.median_us)) continue;
    ProblemData& d = a.problems[key];
    if (d.spec.empty()) d.spec = t.spec;
    if (p.family == Family::fused)
      keep_best(d.fused, t.variant, t, p);
    else if (p.family == Family::colblock)
      keep_best(d.colblock, t.variant, t, p);
    else
      keep_best(d.baseline, to_string(p.family), t, p);
  }
  for (auto& [key, d] : a.problems)
    for (const auto& v : d.disqualified) {
      d.fused.erase(v);
      d.colblock.erase(v);
    }
  std::erase_if(a.problems, [](const auto& kv) { return kv.second.fused.empty(); });
  return a;
}

bool within_noise(const TrialRecord& a, const TrialRecord& b) {
  const double na = a.median_us * a.rel_noise, nb = b.median_us * b.rel_noise;
  return std::abs(a.median_us - b.median_us) <= 2 * std::sqrt(na * na + nb * nb);
}

// Candidates fastest first by median (then id): the ranking runners-up are read from.
std::vector<const Measure*> ranked(const ProblemData& d) {
  std::vector<const Measure*> out;
  for (const auto& [id, m] : d.fused) out.push_back(&m);
  std::stable_sort(out.begin(), out.end(), [](const Measure* x, const Measure* y) {
    return x->t->median_us < y->t->median_us;
  });  // map order already sorts by id
  return out;
}

const Measure* pick_winner(const std::vector<const Measure*>& r) {
  const Measure* fastest = r.front();
  const Measure* best = fastest;
  for (const Measure* m : r) {
    if (m == fastest || !within_noise(*m->t, *fastest->t)) continue;
    // Inside the noise: full clocks first (a throttled trial's time is not the kernel's
    // alone), then the later stage, the lower q3, the lower median, the id.
    const auto key = [](const Measure* x) {
      return std::make_tuple(x->t->throttled, -x->t->stage, x->t->q3_us, x->t->median_us,
                             x->t->variant);
    };
    if (key(m) < key(best)) best = m;
  }
  return best;
}

Winner make_winner(const Store& store, int64_t run_id, const ProblemKey& key,
                   const ProblemData& d) {
  const auto r = ranked(d);
  const Measure* w = pick_winner(r);
  Winner out;
  out.graph = key.graph;
  out.spec = d.spec;
  out.feat = key.feat;
  out.heads = key.heads;
  out.value = key.value;
  out.index = key.index;
  out.variant = w->t->variant;
  out.stage = w->t->stage;
  out.median_us = w->t->median_us;
  out.q1_us = w->t->q1_us;
  out.q3_us = w->t->q3_us;
  out.rel_noise = w->t->rel_noise;
  out.samples = w->t->samples;
  out.timer = w->t->timer;
  out.throttled = w->t->throttled;
  for (const Measure* m : r) {
    if (m == w) continue;
    if (out.runners_up.size() == 4) break;
    out.runners_up.emplace_back(m->t->variant, m->t->median_us);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto base = [&](Family f) {
    auto it = d.baseline.find(to_string(f));
    return it == d.baseline.end() ? nan : it->second.t->median_us;
  };
  out.seed_us = base(Family::seed);
  out.cusparse_us = base(Family::cusparse);
  out.features = store.graph_features(run_id, key.graph);
  return out;
}

template <class T>
int index_of(const std::vector<T>& edges, T x) {
  int i = 0;
  while (i + 1 < static_cast<int>(edges.size()) && x >= edges[i + 1]) ++i;
  return i;
}

// Lower edges of each dimension; a bucket runs to the next edge (exclusive) or the open end.
const std::vector<int> kFeatLo{1, 17, 49, 97, 193};
const std::vector<int> kHeadsLo{1, 2};
const std::vector<double> kMeanLo{0, 4, 12, 32};
const std::vector<int64_t> kMaxLo{0, 1024, 16384};
const std::vector<int64_t> kNodesLo{0, 50000, 500000};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string short_date(const std::string& iso) {
  return iso.substr(0, 10);
}

std::string problems_text(size_t n) {
  return std::to_string(n) + (n == 1 ? " problem" : " problems");
}

struct Shape {
  bool known = false;
  double mean_degree = 0;
  int64_t max_degree = 0, nodes = 0, edges = 0;
};

Shape shape_of(const nlohmann::json& f) {
  Shape s;
  if (!f.is_object() || !f.contains("num_nodes") || !f.contains("mean_degree") ||
      !f.contains("max_degree"))
    return s;
  try {
    s.nodes = f["num_nodes"].get<int64_t>();
    s.mean_degree = f["mean_degree"].get<double>();
    s.max_degree = f["max_degree"].get<int64_t>();
    s.edges = f.value("num_edges", static_cast<int64_t>(std::llround(s.mean_degree * s.nodes)));
  } catch (const nlohmann::json::exception&) {
    return Shape{};  // features of another shape: the problem feeds only the catch-all
  }
  s.known = true;
  return s;
}

struct Tuned {
  ProblemKey key;
  const ProblemData* data;
  Winner winner;
  Shape shape;
};

struct Score {
  std::string variant;
  int covered = 0;
  int wins = 0;                 // problems of the set whose winner (pick_winner) it is
  double clamped = 1, raw = 1;  // geometric means of max(ratio, 1) and of ratio
};

// Each variant's geometric-mean slowdown over the problems where it was measured.
std::vector<Score> score(const std::vector<const Tuned*>& ps) {
  std::map<std::string, std::pair<double, double>> logs;  // sum log clamped, sum log raw
  std::map<std::string, int> count, wins;
  for (const Tuned* p : ps) {
    ++wins[p->winner.variant];
    for (const auto& [id, m] : p->data->fused) {
      const double ratio = m.t->median_us / p->winner.median_us;
      logs[id].first += std::log(std::max(ratio, 1.0));
      logs[id].second += std::log(ratio);
      ++count[id];
    }
  }
  std::vector<Score> out;
  for (const auto& [id, l] : logs) {
    const int n = count[id];
    const auto w = wins.find(id);
    out.push_back(
        {id, n, w == wins.end() ? 0 : w->second, std::exp(l.first / n), std::exp(l.second / n)});
  }
  return out;
}

// Equal clamped slowdowns (a variant at least as fast as a problem's winner clamps to 1 there)
// go to the variant that won more of the problems: pick_winner chose each winner over a faster
// median only inside the noise, by stage and q3, and the raw median must not undo that (a
// 5-sample screening time 1% below a stage-2 final would otherwise take the rule).
bool better(const Score& a, const Score& b) {
  return std::make_tuple(a.clamped, -a.covered, -a.wins, a.raw, a.variant) <
         std::make_tuple(b.clamped, -b.covered, -b.wins, b.raw, b.variant);
}

Evidence evidence_of(const Tuned* p, const TrialRecord& t, double against, double target) {
  return {p->key.graph,
          p->key.feat,
          p->key.heads,
          t.stage,
          t.median_us,
          t.q1_us,
          t.q3_us,
          t.rel_noise,
          against,
          t.throttled,
          target > 0 && t.rel_noise > target};
}

RuleChoice make_rule(const Bucket& bucket, const std::string& variant,
                     const std::vector<const Tuned*>& ps, const std::string& how,
                     const Analysis& a) {
  const RunInfo& run = a.run;
  RuleChoice r;
  r.bucket = bucket;
  r.variant = variant;
  r.split = VariantParams::parse(variant).split;
  std::set<std::string> graphs;
  double log_sum = 0;
  for (const Tuned* p : ps) {
    auto it = p->data->fused.find(variant);
    if (it == p->data->fused.end()) continue;
    const TrialRecord& t = *it->second.t;
    r.evidence.push_back(evidence_of(p, t, p->winner.median_us, a.noise_target));
    graphs.insert(p->key.graph);
    log_sum += std::log(std::max(t.median_us / p->winner.median_us, 1.0));
  }
  r.from_graphs.assign(graphs.begin(), graphs.end());
  r.geomean_slowdown = r.evidence.empty() ? 1 : std::exp(log_sum / r.evidence.size());
  r.provenance = how + "; geomean slowdown " + fmt("%.3f", r.geomean_slowdown) + " over " +
                 std::to_string(r.evidence.size()) + " of " + problems_text(ps.size()) + "; " +
                 (run.gpu_name.empty() ? "unknown GPU" : run.gpu_name) + ", " +
                 short_date(run.started) + ", run " + std::to_string(run.id);
  return r;
}

// Whether the library would run sweep c on problem p (csrgat/colblock.h's problem_unsupported():
// F = 128, one head, f32 or bf16, a graph its plan takes; and int32 indices).
bool sweep_takes(const VariantParams& c, ValueType value, IndexType index, int feat, int heads,
                 const Shape& s) {
  return index == IndexType::i32 && s.known &&
         colblock::problem_unsupported(s.nodes, s.edges, heads, feat, static_cast<int>(value),
                                       geometry_of(c))
             .empty();
}
bool sweep_takes(const VariantParams& c, const Tuned* p) {
  return sweep_takes(c, p->key.value, p->key.index, p->key.feat, p->key.heads, p->shape);
}

// The column-blocked sweep for a bucket rule (RuleChoice::colblock), if one qualifies: measured
// (correct) on every problem of the bucket the library would run it on, and faster there than
// the rule's kernel.
void attach_colblock(RuleChoice& r, const std::vector<const Tuned*>& ps, double target) {
  std::set<std::string> ids, wrong;
  for (const Tuned* p : ps) {
    for (const auto& [id, m] : p->data->colblock) ids.insert(id);
    for (const auto& id : p->data->disqualified)
      if (id.rfind("colblock.", 0) == 0) wrong.insert(id);
  }
  for (const std::string& id : ids) {
    if (wrong.count(id)) continue;
    const VariantParams cp = VariantParams::parse(id);
    double log_sum = 0;
    bool slower = false;
    std::vector<Evidence> ev;
    for (const Tuned* p : ps) {
      if (!sweep_takes(cp, p)) continue;  // the rule's kernel runs there: a ratio of 1
      const auto c = p->data->colblock.find(id);
      const auto v = p->data->fused.find(r.variant);
      if (c == p->data->colblock.end() || v == p->data->fused.end()) {
        slower = true;  // not measured where it would run (or no time of the rule's kernel)
        break;
      }
      const TrialRecord& t = *c->second.t;
      const double ratio = t.median_us / v->second.t->median_us;
      slower = slower || ratio >= 1;
      log_sum += std::log(ratio);
      ev.push_back(evidence_of(p, t, v->second.t->median_us, target));
    }
    const double g = std::exp(log_sum / static_cast<double>(ps.size()));
    if (slower || ev.empty() || !(g < r.colblock_ratio)) continue;
    r.colblock = id;
    r.colblock_ratio = g;
    r.colblock_evidence = std::move(ev);
  }
}

double work(const Tuned* p) {
  return static_cast<double>(p->shape.edges) * p->key.feat * p->key.heads;
}

// The variant measured on every problem of ps with the best score, or null.
const Score* best_covering(const std::vector<Score>& scores, size_t n) {
  const Score* best = nullptr;
  for (const Score& s : scores)
    if (s.covered == static_cast<int>(n) && (!best || better(s, *best))) best = &s;
  return best;
}

// The cost of serving n problems with one rule whose variant is best: the sum over them of
// log(slowdown) (a problem set no variant covers costs as if each lost 2x).
double rule_cost(const Score* best, size_t n) {
  return (best ? std::log(best->clamped) : std::log(2.0)) * static_cast<double>(n);
}
double rule_cost(const std::vector<const Tuned*>& ps) {
  const auto scores = score(ps);
  return rule_cost(best_covering(scores, ps.size()), ps.size());
}

// A problem's graph along one refinement dimension: 0 mean degree, 1 max degree, 2 nodes.
double shape_value(const Tuned* t, int dim) {
  return dim == 0 ? t->shape.mean_degree
                  : static_cast<double>(dim == 1 ? t->shape.max_degree : t->shape.nodes);
}

double worst_slowdown(const std::string& variant, const std::vector<const Tuned*>& ps) {
  double worst = 1;
  for (const Tuned* p : ps) {
    auto it = p->data->fused.find(variant);
    if (it != p->data->fused.end())
      worst = std::max(worst, it->second.t->median_us / p->winner.median_us);
  }
  return worst;
}

// Splits a bucket whose best common variant is more than kSplitTolerance slower than some
// problem's own winner: along mean degree or nodes (max degree only when neither helps), at
// the geometric midpoint of two neighbouring tuned graphs, taking the cut that lowers
// rule_cost most. Repeats on each half. Deterministic for a given run, so a run's header means
// the same on every machine.

void refine(const Bucket& bucket, const std::vector<const Tuned*>& ps,
            std::vector<std::pair<Bucket, std::vector<const Tuned*>>>& out) {
  const auto scores = score(ps);
  const Score* best = best_covering(scores, ps.size());
  if (ps.size() < 2 || (best && worst_slowdown(best->variant, ps) <= kSplitTolerance)) {
    out.push_back({bucket, ps});
    return;
  }
  struct Cut {
    double cost;
    int dim;  // as shape_value's
    double at;
    std::vector<const Tuned*> below, above;
  };
  std::optional<Cut> cut;
  const double whole = rule_cost(best, ps.size());
  // Mean degree and nodes first; max degree only when neither helps, because the library
  // skips max degree for a caller without a csrgat::Shape (that caller then takes the first
  // of two rules cut on max degree).
  for (int dim : {0, 2, 1}) {
    if (dim == 1 && cut) break;
    std::set<double> values;
    for (const Tuned* t : ps) values.insert(shape_value(t, dim));
    for (auto it = values.begin(); std::next(it) != values.end(); ++it) {
      const double lo = *it, hi = *std::next(it);
      // The geometric midpoint; integers round up (lo < at <= hi, exact for [min, max));
      // a mean degree stays strictly inside the gap, away from both graphs' stored values.
      double at = std::sqrt(std::max(lo, 0.5) * hi);
      if (dim != 0) {
        at = std::max(std::ceil(at), lo + 1);
        if (!(at > lo && at <= hi)) at = hi;
      } else if (!(at > lo && at < hi)) {
        at = 0.5 * (lo + hi);
      }
      std::vector<const Tuned*> below, above;
      for (const Tuned* t : ps) (shape_value(t, dim) < at ? below : above).push_back(t);
      const double cost = rule_cost(below) + rule_cost(above);
      if (cost < whole - 1e-9 && (!cut || cost < cut->cost - 1e-12))
        cut = Cut{cost, dim, at, std::move(below), std::move(above)};
    }
  }
  if (!cut) {
    out.push_back({bucket, ps});
    return;
  }
  Bucket lo = bucket, hi = bucket;
  if (cut->dim == 0) {
    lo.mean_degree_max = hi.mean_degree_min = cut->at;
  } else if (cut->dim == 1) {
    lo.max_degree_max = hi.max_degree_min = static_cast<int64_t>(cut->at);
  } else {
    lo.nodes_max = hi.nodes_min = static_cast<int64_t>(cut->at);
  }
  refine(lo, cut->below, out);
  refine(hi, cut->above, out);
}

}  // namespace

std::vector<Winner> select_winners(const Store& store, int64_t run_id) {
  const Analysis a = analyse(store, run_id);
  std::vector<Winner> out;
  for (const auto& [key, d] : a.problems) out.push_back(make_winner(store, run_id, key, d));
  return out;
}

namespace {
const RuleChoice* first_of(const std::vector<RuleChoice>& rules, ValueType value, IndexType index,
                           int feat, const std::function<bool(const Bucket&)>& holds) {
  for (const RuleChoice& r : rules) {
    if (r.bucket.value != static_cast<int>(value) || r.bucket.index != static_cast<int>(index) ||
        !holds(r.bucket))
      continue;
    const VariantParams p = VariantParams::parse(r.variant);
    if (slices_fit(p.slices, p.vec, feat)) return &r;
  }
  return nullptr;
}
}  // namespace

const RuleChoice* first_match(const std::vector<RuleChoice>& rules, ValueType value,
                              IndexType index, int feat, int heads, double mean_degree,
                              int64_t max_degree, int64_t nodes) {
  return first_of(rules, value, index, feat, [&](const Bucket& b) {
    return b.contains(feat, heads, mean_degree, max_degree, nodes);
  });
}

const RuleChoice* rule_for(const std::vector<RuleChoice>& rules, ValueType value, IndexType index,
                           int feat, int heads, const nlohmann::json& features) {
  const Shape s = shape_of(features);
  if (s.known)
    return first_match(rules, value, index, feat, heads, s.mean_degree, s.max_degree, s.nodes);
  return first_of(rules, value, index, feat, [](const Bucket& b) { return b.is_catch_all(); });
}

bool sweep_runs(const RuleChoice& r, ValueType value, IndexType index, int feat, int heads,
                const nlohmann::json& features) {
  return !r.colblock.empty() && sweep_takes(VariantParams::parse(r.colblock), value, index, feat,
                                            heads, shape_of(features));
}

bool Bucket::contains(int feat, int heads, double mean_degree, int64_t max_degree,
                      int64_t nodes) const {
  return feat >= feat_min && feat <= feat_max && heads >= heads_min && heads <= heads_max &&
         mean_degree >= mean_degree_min && mean_degree < mean_degree_max &&
         max_degree >= max_degree_min && max_degree < max_degree_max && nodes >= nodes_min &&
         nodes < nodes_max;
}

bool Bucket::is_catch_all() const {
  Bucket all;
  all.value = value;
  all.index = index;
  return *this == all;
}

std::string Bucket::describe() const {
  const auto irange = [](int lo, int hi) {
    if (lo == hi) return std::to_string(lo);
    return std::to_string(lo) + "-" + (hi == kOpenInt ? std::string("inf") : std::to_string(hi));
  };
  const auto drange = [](double lo, double hi) {
    return "[" + fmt("%g", lo) + ", " + (hi >= kOpenDegree ? std::string("inf") : fmt("%g", hi)) +
           ")";
  };
  const auto lrange = [](int64_t lo, int64_t hi) {
    return "[" + std::to_string(lo) + ", " +
           (hi == INT64_MAX ? std::string("inf") : std::to_string(hi)) + ")";
  };
  return "F " + irange(feat_min, feat_max) + ", H " + irange(heads_min, heads_max) +
         ", mean degree " + drange(mean_degree_min, mean_degree_max) + ", max degree " +
         lrange(max_degree_min, max_degree_max) + ", nodes " + lrange(nodes_min, nodes_max);
}

Bucket bucket_of(ValueType value, IndexType index, int feat, int heads, double mean_degree,
                 int64_t max_degree, int64_t nodes) {
  Bucket b = catch_all(value, index);
  const auto hi = [](const auto& edges, int i, auto open) {
    return i + 1 < static_cast<int>(edges.size()) ? edges[i + 1] : open;
  };
  // F and H ranges are inclusive: a bucket ends one below the next lower edge.
  const int fi = index_of(kFeatLo, std::max(feat, 1));
  b.feat_min = kFeatLo[fi];
  b.feat_max = hi(kFeatLo, fi, kOpenInt + 1) - 1;
  const int hx = index_of(kHeadsLo, std::max(heads, 1));
  b.heads_min = kHeadsLo[hx];
  b.heads_max = hi(kHeadsLo, hx, kOpenInt + 1) - 1;
  const int mi = index_of(kMeanLo, std::max(mean_degree, 0.0));
  b.mean_degree_min = kMeanLo[mi];
  b.mean_degree_max = hi(kMeanLo, mi, kOpenDegree);
  const int xi = index_of(kMaxLo, std::max<int64_t>(max_degree, 0));
  b.max_degree_min = kMaxLo[xi];
  b.max_degree_max = hi(kMaxLo, xi, INT64_MAX);
  const int ni = index_of(kNodesLo, std::max<int64_t>(nodes, 0));
  b.nodes_min = kNodesLo[ni];
  b.nodes_max = hi(kNodesLo, ni, INT64_MAX);
  return b;
}

Bucket catch_all(ValueType value, IndexType index) {
  Bucket b;
  b.value = static_cast<int>(value);
  b.index = static_cast<int>(index);
  return b;
}

std::vector<std::string> bucket_edges_text() {
  return {"F (inclusive):        [1,16] [17,48] [49,96] [97,192] [193,2^30]",
          "H (inclusive):        [1,1] [2,2^30]",
          "mean degree:          [0,4) [4,12) [12,32) [32,inf)",
          "max degree:           [0,1024) [1024,16384) [16384,inf)",
          "nodes:                [0,50000) [50000,500000) [500000,inf)"};
}

namespace {
// The problems of an analysed run with their winners and shapes, in the analysis' order.
std::vector<Tuned> tuned_of(const Store& store, int64_t run_id, const Analysis& a) {
  std::vector<Tuned> tuned;
  for (const auto& [key, d] : a.problems) {
    Winner w = make_winner(store, run_id, key, d);
    const Shape s = shape_of(w.features);
    tuned.push_back({key, &d, std::move(w), s});
  }
  return tuned;
}

std::vector<RuleChoice> rules_of(const Analysis& a, const std::vector<Tuned>& tuned) {
  const auto bucket_key = [](const Bucket& b) {
    return std::make_tuple(b.value, b.index, b.feat_min, b.heads_min, b.mean_degree_min,
                           b.max_degree_min, b.nodes_min);
  };
  std::map<decltype(bucket_key(Bucket{})), std::pair<Bucket, std::vector<const Tuned*>>> buckets;
  std::map<std::pair<int, int>, std::vector<const Tuned*>> by_type;
  for (const Tuned& t : tuned) {
    by_type[{static_cast<int>(t.key.value), static_cast<int>(t.key.index)}].push_back(&t);
    if (!t.shape.known) continue;
    const Bucket b = bucket_of(t.key.value, t.key.index, t.key.feat, t.key.heads,
                               t.shape.mean_degree, t.shape.max_degree, t.shape.nodes);
    auto& slot = buckets[bucket_key(b)];
    slot.first = b;
    slot.second.push_back(&t);
  }

  std::vector<std::pair<Bucket, std::vector<const Tuned*>>> refined;
  for (const auto& [k, entry] : buckets) refine(entry.first, entry.second, refined);

  std::vector<RuleChoice> rules;
  for (const auto& [bucket, ps] : refined) {
    const auto scores = score(ps);
    if (const Score* best = best_covering(scores, ps.size())) {
      rules.push_back(
          make_rule(bucket, best->variant, ps, "best on every problem of the bucket", a));
      attach_colblock(rules.back(), ps, a.noise_target);
      continue;
    }
    const Tuned* largest =
        *std::min_element(ps.begin(), ps.end(), [](const Tuned* x, const Tuned* y) {
          return std::make_tuple(-work(x), x->key.graph, x->key.feat, x->key.heads) <
                 std::make_tuple(-work(y), y->key.graph, y->key.feat, y->key.heads);
        });
    rules.push_back(make_rule(bucket, largest->winner.variant, ps,
                              "no variant measured on all " + problems_text(ps.size()) +
                                  ": winner of the largest (" + largest->key.graph + " F" +
                                  std::to_string(largest->key.feat) + " H" +
                                  std::to_string(largest->key.heads) + ")",
                              a));
    attach_colblock(rules.back(), ps, a.noise_target);
  }

  for (const auto& [type, ps] : by_type) {
    const Bucket bucket =
        catch_all(static_cast<ValueType>(type.first), static_cast<IndexType>(type.second));
    const Score* best = nullptr;
    const auto scores = score(ps);
    const int n = static_cast<int>(ps.size());
    for (const Score& s : scores)
      if (2 * s.covered >= n && (!best || better(s, *best))) best = &s;
    if (best) {
      rules.push_back(make_rule(bucket, best->variant, ps,
                                "catch-all: best measured on at least half the problems", a));
      continue;
    }
    std::map<std::string, int> wins;
    for (const Tuned* p : ps) ++wins[p->winner.variant];
    const auto most = std::max_element(wins.begin(), wins.end(), [](const auto& x, const auto& y) {
      return x.second < y.second;  // first (lowest id) of the most frequent on ties
    });
    rules.push_back(make_rule(bucket, most->first, ps,
                              "catch-all: most frequent winner (" + std::to_string(most->second) +
                                  " of " + problems_text(n) + ")",
                              a));
  }
  return rules;
}
}  // namespace

std::vector<RuleChoice> select_rules(const Store& store, int64_t run_id) {
  const Analysis a = analyse(store, run_id);
  return rules_of(a, tuned_of(store, run_id, a));
}

Selection select_winners_and_rules(const Store& store, int64_t run_id) {
  const Analysis a = analyse(store, run_id);
  const std::vector<Tuned> tuned = tuned_of(store, run_id, a);
  Selection out;
  out.rules = rules_of(a, tuned);
  for (const Tuned& t : tuned) out.winners.push_back(t.winner);
  return out;
}

}  // namespace csrgat::tuner
