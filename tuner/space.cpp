#include "tuner/space.h"

#include "graphs/generate.h"
#include "graphs/hash.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace csrgat::tuner {

std::string problem_key(const std::string& graph, int feat, int heads) {
  return graph + ".f" + std::to_string(feat) + ".h" + std::to_string(heads);
}

std::string Problem::key() const { return problem_key(graph_name, feat, heads); }

std::vector<Problem> problems(const Config& c) {
  std::vector<Problem> out;
  for (size_t g = 0; g < c.graphs.size(); ++g) {
    const GraphEntry& e = c.graphs[g];
    for (int f : e.feat) {
      for (int h : e.heads) {
        Problem p;
        p.graph_name = e.name;
        p.spec = e.spec;
        p.feat = f;
        p.heads = h;
        p.value = e.value.empty() ? space_of(c, e).value : e.value;
        p.graph_index = static_cast<int>(g);
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

namespace {

// Values in kConstraintVariables' order.
std::vector<double> variables(const VariantParams& v, const Problem& p) {
  return {static_cast<double>(v.tpr),
          static_cast<double>(v.fl),
          static_cast<double>(v.rpb),
          static_cast<double>(v.vec),
          static_cast<double>(v.tiles),
          static_cast<double>(v.epl),
          static_cast<double>(v.ilp),
          static_cast<double>(v.minb),
          static_cast<double>(v.smem),
          v.softmax == Softmax::online ? 1.0 : 0.0,
          static_cast<double>(v.split),
          static_cast<double>(p.feat),
          static_cast<double>(p.heads),
          static_cast<double>(value_bytes(v.value)),
          static_cast<double>(index_bytes(v.index)),
          static_cast<double>(v.lpt),
          static_cast<double>(v.prefetch),
          static_cast<double>(v.bm),
          static_cast<double>(v.slices)};
}

// The problem's graph entry, or nullptr for a problem built without a config graph.
const GraphEntry* graph_of(const Config& c, const Problem& p) {
  return p.graph_index >= 0 && static_cast<size_t>(p.graph_index) < c.graphs.size() ? &c.graphs[p.graph_index]
                                                                                     : nullptr;
}

// The graph's problems' constraints: the graph's own, else the config's.
struct GraphConstraints {
  const std::vector<Constraint>& list;
  std::string path;  // "graphs[i].constraints", "constraints", or "space" when no list was written
  Location at;       // of the list, else of the space
};

GraphConstraints constraints_for(const Config& c, const Problem& p) {
  const GraphEntry* g = graph_of(c, p);
  if (g && g->constraints)
    return {*g->constraints, "graphs[" + std::to_string(p.graph_index) + "].constraints", g->constraints_at};
  if (c.constraints_at.line > 0) return {c.constraints, "constraints", c.constraints_at};
  return {c.constraints, c.constraints.empty() ? "space" : "constraints", c.space_at};
}

const SpaceSpec& space_for(const Config& c, const Problem& p) {
  const GraphEntry* g = graph_of(c, p);
  return g ? space_of(c, *g) : c.space;
}

// At most this many combinations of a space's keys per problem (the largest space in configs/,
// the small graphs' of h200.yaml, has 884736).
constexpr size_t kMaxCombinations = size_t{1} << 22;

std::string fmt_count(double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, n < 1e15 ? "%.0f" : "%.3g", n);
  return buf;
}

}  // namespace

std::vector<Candidate> enumerate(const Config& c, const Problem& p) {
  const SpaceSpec& s = space_for(c, p);
  const GraphConstraints ks = constraints_for(c, p);
  const std::vector<ValueType>& values = p.value.empty() ? s.value : p.value;
  // Bound once: the product can reach tens of thousands of combinations per problem.
  std::vector<Expr> bound;
  std::vector<std::string> reasons;
  for (size_t i = 0; i < ks.list.size(); ++i) {
    const Constraint& k = ks.list[i];
    try {
      bound.push_back(k.expr.bind(kConstraintVariables));
    } catch (const ExprError& e) {
      throw ConfigError(file_of(c, ks.path), ks.path + "[" + std::to_string(i) + "]", k.at.line,
                        k.at.column, e.what());
    }
    reasons.push_back("constraint '" + k.text + "' false");
  }
  std::vector<Candidate> out;
  std::set<std::string> seen;
  auto add = [&](const VariantParams& v, bool constrained) {
    Candidate cand{v, ""};
    if (constrained && !bound.empty()) {
      const std::vector<double> vars = variables(v, p);
      for (size_t i = 0; i < bound.size() && cand.pruned.empty(); ++i) {
        const Constraint& k = ks.list[i];
        double value = 0;
        try {
          value = bound[i].eval(vars.data());
        } catch (const ExprError& e) {
          throw ConfigError(file_of(c, ks.path), ks.path + "[" + std::to_string(i) + "]", k.at.line,
                            k.at.column,
                            "cannot evaluate for " + v.id() + " on " + p.key() + ": " + e.what());
        }
        // NaN (1e999 - 1e999) is neither true nor false: named, as a division by zero is.
        if (std::isnan(value))
          throw ConfigError(
              file_of(c, ks.path), ks.path + "[" + std::to_string(i) + "]", k.at.line, k.at.column,
              "evaluates to NaN for " + v.id() + " on " + p.key() + ": neither true nor false");
        if (value == 0.0) cand.pruned = reasons[i];
      }
    }
    if (cand.pruned.empty()) cand.pruned = v.invalid_reason();
    if (cand.pruned.empty() && !seen.insert(v.id()).second) cand.pruned = "duplicate of " + v.id();
    out.push_back(std::move(cand));
  };
  // The cross product as an odometer, the first key outermost (the order nested loops over tpr,
  // fl, ..., value give), one combination at a time: a product can reach hundreds of thousands.
  const std::array<size_t, 17> sizes{s.tpr.size(),   s.fl.size(),    s.rpb.size(),   s.vec.size(),
                                     s.tiles.size(), s.epl.size(),   s.ilp.size(),   s.minb.size(),
                                     s.smem.size(),  s.softmax.size(), s.split.size(), s.lpt.size(),
                                     s.prefetch.size(), s.bm.size(), s.slices.size(),
                                     s.index.size(), values.size()};
  const bool empty = std::find(sizes.begin(), sizes.end(), size_t{0}) != sizes.end();
  // Every combination is kept (a pruned one with its reason, for `tuner list`): ~300 bytes
  // each, so a product past kMaxCombinations would take gigabytes before anything ran.
  double product = 1;
  for (const size_t n : sizes) product *= static_cast<double>(n);
  if (product > static_cast<double>(kMaxCombinations)) {
    const GraphEntry* g = graph_of(c, p);
    const bool own = g && g->space;
    throw ConfigError(file_of(c, own ? "graphs" : "space"),
                      own ? "graphs[" + std::to_string(p.graph_index) + "].space" : "space",
                      own ? g->at.line : c.space_at.line, own ? g->at.column : c.space_at.column,
                      "the space has " + fmt_count(product) + " combinations of its keys for " +
                          p.key() + ", over the " + std::to_string(kMaxCombinations) +
                          " a problem may enumerate: give its keys fewer values");
  }
  for (std::array<size_t, 17> i{}; !empty;) {
    VariantParams v;
    v.family = Family::fused;
    v.tpr = s.tpr[i[0]];
    v.fl = s.fl[i[1]];
    v.rpb = s.rpb[i[2]];
    v.vec = s.vec[i[3]];
    v.tiles = s.tiles[i[4]];
    v.epl = s.epl[i[5]];
    v.ilp = s.ilp[i[6]];
    v.minb = s.minb[i[7]];
    v.smem = s.smem[i[8]];
    v.softmax = s.softmax[i[9]];
    v.split = s.split[i[10]];
    v.lpt = s.lpt[i[11]];
    v.prefetch = s.prefetch[i[12]];
    v.bm = s.bm[i[13]];
    v.slices = s.slices[i[14]];
    v.index = s.index[i[15]];
    v.value = values[i[16]];
    add(v, true);
    size_t k = sizes.size();
    while (k > 0 && ++i[k - 1] == sizes[k - 1]) i[--k] = 0;
    if (k == 0) break;
  }
  // The column-blocked sweeps: outside the product and the constraints (which read the family's
  // parameters), one a geometry and value type, int32 and f32 or bf16, F = 128 and one head (the
  // rest is the graph's to say, when the trial plans it: csrgat/colblock.h's unsupported()).
  for (const std::string& g : s.colblock)
    for (const ValueType value : values) {
      VariantParams v = VariantParams::parse("colblock." + g + ".i32.f32");
      v.value = value;
      Candidate cand{v, ""};
      if (std::find(s.index.begin(), s.index.end(), IndexType::i32) == s.index.end())
        cand.pruned = "colblock: int32 structure only, and the space has no i32";
      else if (p.feat != 128)
        cand.pruned = "colblock: F = 128 only";
      else if (p.heads != 1)
        cand.pruned = "colblock: one head only";
      else if (const std::string why = v.invalid_reason(); !why.empty())
        cand.pruned = why;
      else if (!seen.insert(v.id()).second)
        cand.pruned = "duplicate of " + v.id();
      out.push_back(std::move(cand));
    }
  for (const auto& v : c.test_only.fault_variants) add(v, false);
  for (const auto& v : c.test_only.delay_variants) add(v, false);
  return out;
}

std::vector<VariantParams> survivors(const std::vector<Candidate>& candidates) {
  std::vector<VariantParams> out;
  for (const auto& k : candidates)
    if (k.pruned.empty()) out.push_back(k.params);
  return out;
}

std::map<std::string, int> prune_summary(const std::vector<Candidate>& candidates) {
  std::map<std::string, int> out;
  for (const auto& k : candidates)
    if (!k.pruned.empty()) ++out[k.pruned];
  return out;
}

void check_space(const Config& c) {
  for (const Problem& p : problems(c)) check_problem_space(c, p, enumerate(c, p));
}

void check_problem_space(const Config& c, const Problem& p, const std::vector<Candidate>& cands) {
  bool any = false;
  for (const auto& k : cands) {
    // A test-only variant alone does not make a real space.
    if (k.pruned.empty() && k.params.fault == 0 && k.params.delay_ns == 0) any = true;
  }
  if (any) return;
  std::vector<std::pair<std::string, int>> reasons;
  for (const auto& kv : prune_summary(cands)) reasons.push_back(kv);
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::ostringstream os;
  const GraphEntry& g = c.graphs[p.graph_index];
  const GraphConstraints ks = constraints_for(c, p);
  // The graph's line is in the file its list came from (a base's), which the error may not name.
  const std::string graphs_file = file_of(c, "graphs");
  const std::string in_file = graphs_file != file_of(c, ks.path) ? " of " + graphs_file : "";
  os << "no variant satisfies the constraints for graph '" << p.graph_name << "' (graphs["
     << p.graph_index << "], line " << g.at.line << in_file << ") with feat=" << p.feat
     << ", heads=" << p.heads << ": all " << cands.size() << " combinations are dropped (";
  for (size_t i = 0; i < reasons.size() && i < 3; ++i)
    os << (i ? "; " : "") << reasons[i].second << " by " << reasons[i].first;
  if (reasons.size() > 3) os << "; " << reasons.size() - 3 << " more reasons";
  os << ")";
  throw ConfigError(file_of(c, ks.path), ks.path, ks.at.line, ks.at.column, os.str());
}

std::vector<VariantParams> baseline_variants(const Config& c, const Problem& p) {
  std::vector<VariantParams> out;
  const SpaceSpec& s = space_for(c, p);
  const std::vector<ValueType>& values = p.value.empty() ? s.value : p.value;
  for (Family f : c.baselines)
    for (IndexType index : s.index)
      for (ValueType value : values) {
        VariantParams v;
        v.family = f;
        v.index = index;
        v.value = value;
        if (v.invalid_reason().empty()) out.push_back(v);
      }
  return out;
}

std::vector<VariantParams> unique_variants(const Config& c) {
  std::vector<VariantParams> fused, base;
  std::set<std::string> seen;
  auto add = [&](std::vector<VariantParams>& to, const VariantParams& v) {
    if (seen.insert(v.id()).second) to.push_back(v);
  };
  const auto probs = problems(c);
  for (const Problem& p : probs) {
    for (const auto& k : enumerate(c, p))
      if (k.pruned.empty() && k.params.fault == 0 && k.params.delay_ns == 0) add(fused, k.params);
    for (const auto& v : baseline_variants(c, p)) add(base, v);
  }
  fused.insert(fused.end(), base.begin(), base.end());
  for (const auto& v : c.test_only.fault_variants) add(fused, v);
  for (const auto& v : c.test_only.delay_variants) add(fused, v);
  return fused;
}

std::string prune_by_resources(const VariantParams& p, int registers, int static_smem,
                               const DeviceLimits& limits) {
  if (p.family != Family::fused) return "";
  const int threads = p.block_threads();
  std::ostringstream os;
  if (threads > limits.max_threads_per_block) {
    os << "a block of " << threads << " threads exceeds the device's "
       << limits.max_threads_per_block << " threads per block";
    return os.str();
  }
  if (registers >= 0) {
    if (registers > limits.max_regs_per_thread) {
      os << registers << " registers per thread exceed the device's " << limits.max_regs_per_thread;
      return os.str();
    }
    // Registers are allocated per warp in units of 256, so the real need rounds up.
    const long long warps = (threads + 31) / 32;
    const long long per_warp = (static_cast<long long>(registers) * 32 + 255) / 256 * 256;
    const long long need = warps * per_warp;
    if (need > limits.regs_per_sm) {
      os << "a block of " << threads << " threads at " << registers << " registers each needs "
         << need << " registers, more than the " << limits.regs_per_sm
         << " of an SM: it cannot launch";
      return os.str();
    }
  }
  if (static_smem > 0 && static_cast<size_t>(static_smem) > limits.smem_per_block) {
    os << static_smem << " bytes of static shared memory exceed the device's "
       << limits.smem_per_block << " per block";
    return os.str();
  }
  return "";
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<VariantParams> apply_strategy(const Config& c, std::vector<VariantParams> survivors,
                                          const Problem& p) {
  if (c.strategy.kind != StrategyKind::random) return survivors;
  const size_t n = survivors.size();
  const size_t k = static_cast<size_t>(std::max(0, c.strategy.budget));
  if (k >= n) return survivors;
  // Mix the problem into the seed so that problems get different samples; FNV-1a is portable.
  Fnv1a h;
  h.add(p.key());
  uint64_t state = c.strategy.seed ^ h.h;
  std::vector<size_t> idx(n);
  for (size_t i = 0; i < n; ++i) idx[i] = i;
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + static_cast<size_t>(splitmix64(state) % (n - i));
    std::swap(idx[i], idx[j]);
  }
  idx.resize(k);
  std::sort(idx.begin(), idx.end());
  std::vector<VariantParams> out;
  out.reserve(k);
  for (size_t i : idx) out.push_back(std::move(survivors[i]));
  return out;
}

std::vector<size_t> screening_order(size_t n, size_t probes) {
  std::vector<size_t> order;
  order.reserve(n);
  std::vector<bool> taken(n, false);
  const size_t k = std::min(probes, n);
  for (size_t j = 0; j < k; ++j) {  // i = j n / k: strictly increasing, spread over [0, n)
    const size_t i = j * n / k;
    order.push_back(i);
    taken[i] = true;
  }
  for (size_t i = 0; i < n; ++i)
    if (!taken[i]) order.push_back(i);
  return order;
}

std::pair<int, int> type_of(const VariantParams& p) {
  return {static_cast<int>(p.value), static_cast<int>(p.index)};
}

double ScreeningCutoff::cutoff_us(const VariantParams& p) const {
  const auto it = best_.find(type_of(p));
  return factor_ > 0 && it != best_.end() ? factor_ * it->second : 0.0;
}

void ScreeningCutoff::record(const VariantParams& p, double median_us) {
  if (p.fault || p.delay_ns || !(median_us > 0)) return;
  const auto [it, fresh] = best_.try_emplace(type_of(p), median_us);
  if (!fresh) it->second = std::min(it->second, median_us);
}

double HalvingPlan::cost() const {
  double s = 0;
  for (size_t r = 0; r < keep_counts.size(); ++r) s += keep_counts[r] * time_budget_scale[r];
  return s;
}

HalvingPlan halving_plan(int n, int budget, int eta) {
  HalvingPlan plan;
  if (n <= 0) return plan;
  eta = std::max(2, eta);
  for (int k = n;; k = (k + eta - 1) / eta) {
    plan.keep_counts.push_back(k);
    if (k == 1) break;
  }
  const size_t rounds = plan.keep_counts.size();
  constexpr double kMinScale = 1e-3;
  std::vector<double> geo(rounds);
  for (size_t r = 0; r < rounds; ++r)
    geo[r] = std::pow(static_cast<double>(eta), -static_cast<double>(rounds - 1 - r));
  // One factor scales every early round; clamping makes the cost piecewise linear in it, so
  // bisect for the factor whose cost meets the budget (monotone, deterministic).
  auto scales = [&](double factor) {
    std::vector<double> out(rounds, 1.0);
    for (size_t r = 0; r + 1 < rounds; ++r) out[r] = std::clamp(geo[r] * factor, kMinScale, 1.0);
    return out;
  };
  auto cost = [&](const std::vector<double>& sc) {
    double sum = 0;
    for (size_t r = 0; r < rounds; ++r) sum += plan.keep_counts[r] * sc[r];
    return sum;
  };
  double factor = 1.0;
  if (budget > 0 && rounds > 1) {
    double lo = 0, hi = 1.0 / geo[0];  // at hi every round has the full budget
    if (cost(scales(hi)) <= budget) {
      factor = hi;
    } else if (cost(scales(lo)) >= budget) {
      factor = lo;
    } else {
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (cost(scales(mid)) < budget ? lo : hi) = mid;
      }
      factor = 0.5 * (lo + hi);
    }
  }
  plan.time_budget_scale = scales(factor);
  return plan;
}

}  // namespace csrgat::tuner

namespace csrgat::tuner {

double estimated_trial_seconds(const Problem& p) {
  int64_t edges = 0;
  try {
    edges = std::max<int64_t>(0, graphs::estimate_edges(p.spec));
  } catch (const std::exception&) {
    // A bad spec fails when the problem is prepared, with its own message; order it last.
  }
  const double work = static_cast<double>(edges) * p.feat * p.heads / 1e9;
  return 0.014 + 0.03 * std::sqrt(work);
}

double estimated_compile_seconds(size_t kernels, int threads) {
  return 1.9 * static_cast<double>(kernels) / std::max(1, threads);
}

std::vector<size_t> longest_first(const std::vector<double>& seconds_per_trial,
                                  const std::vector<size_t>& trials) {
  const size_t n = seconds_per_trial.size();
  std::vector<double> cost(n);
  for (size_t i = 0; i < n; ++i)
    cost[i] = static_cast<double>(i < trials.size() ? trials[i] : 0) * seconds_per_trial[i];
  std::vector<size_t> order(n);
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  return order;
}

}  // namespace csrgat::tuner
