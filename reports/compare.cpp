#include "reports/compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/analysis.h"
#include "reports/doc.h"

namespace fs = std::filesystem;

namespace csrgat::reports {
namespace {

constexpr size_t kMaxVariantRows = 200;  // the rest is in compare.json

nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

std::string run_line(const LoadedRun& r) {
  return "run " + std::to_string(r.run.id) + " `" + r.run.name + "` from `" + r.source +
         "`: " + r.run.gpu_name + " (`" + r.run.gpu_uuid + "`), driver " + r.run.driver +
         ", timed " + timing_kind(r.run.config) + ", commit `" + r.run.commit + "`, started " +
         r.run.started +
         (r.run.finished.empty() ? " (**not finished**)" : ", finished " + r.run.finished);
}

// GPU UUID sets per problem ("graph F=.. H=.."), from the trials' own records (RunData::gpus):
// a run continued or extended on another GPU measured some problems there.
std::map<std::string, std::set<std::string>> gpus_by_problem(const RunData& d) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& [uuid, problems] : d.gpus)
    for (const auto& p : problems) out[p].insert(uuid);
  return out;
}

// The first five items joined with "; ", and how many more there are.
std::string first_five(const std::vector<std::string>& items) {
  std::string list;
  for (size_t i = 0; i < items.size() && i < 5; ++i) list += (i ? "; " : "") + items[i];
  if (items.size() > 5) list += "; " + std::to_string(items.size() - 5) + " more";
  return list;
}

std::string join_set(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// Two stored feature values: numbers equal to rounding (a feature computed the same way from
// the same graph prints the same, but its text went through a double), anything else exactly.
bool same_value(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
  }
  return a == b;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A run's results as loaded, or the error naming the side and the input it came from.
RunData load_side(const LoadedRun& r, const char* side) {
  try {
    return load_run(*r.store, r.run_id);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find(r.source) != std::string::npos) throw;
    throw std::runtime_error(std::string(side) + ", run " + std::to_string(r.run.id) + " of '" +
                             r.source + "': " + what);
  }
}

// When a run's ceilings were measured (ceilings.method.measured_at; "" when not kept). A run
// takes them from the cache of its GPU and driver when there is one (profiler::
// load_or_measure_ceilings), so two runs of one board and driver can share one measurement.
std::string ceilings_measured_at(const LoadedRun& r) {
  const nlohmann::json& c = r.run.ceilings;
  if (!c.is_object() || !c.contains("method") || !c["method"].is_object()) return "";
  const nlohmann::json& m = c["method"];
  return m.contains("measured_at") && m["measured_at"].is_string()
             ? m["measured_at"].get<std::string>()
             : "";
}

nlohmann::json run_json(const LoadedRun& r) {
  return {{"source", r.source},
          {"id", r.run.id},
          {"name", r.run.name},
          {"gpu_name", r.run.gpu_name},
          {"gpu_uuid", r.run.gpu_uuid},
          {"driver", r.run.driver},
          {"timing", timing_kind(r.run.config)},
          {"ceilings_measured_at", ceilings_measured_at(r)},
          {"commit", r.run.commit},
          {"started", r.run.started},
          {"config_hash", r.run.config_hash}};
}

std::string pct_change(double ratio) {
  if (!std::isfinite(ratio)) return "n/a";
  const double p = (ratio - 1) * 100;
  return (p >= 0 ? "+" : "") + fmt(p, 1) + "%";
}

// The two runs' measured ceilings side by side (profiler/ceilings.h: each run measures its own
// GPU's at its start): where the GPUs differ, or the same GPU's state moved, a DRAM-bound
// problem's time follows the DRAM roofs and a launch-bound one's the launch, which tells a
// board's difference from the code's. Rows either run lacks (a ceiling older runs did not
// measure) read n/a on that side.
struct CeilingRow {
  const char* name;
  const char* unit;
  double base, fresh;
};
std::vector<CeilingRow> ceiling_rows(const Roofs& b, const Roofs& n) {
  return {{"DRAM copy", "GB/s", b.dram_gbs, n.dram_gbs},
          {"DRAM read", "GB/s", b.dram_read_gbs, n.dram_read_gbs},
          {"L2 copy", "GB/s", b.l2_gbs, n.l2_gbs},
          {"L2 gather", "GB/s", b.l2_gather_gbs, n.l2_gather_gbs},
          {"FP32", "GFLOP/s", b.fp32_gflops, n.fp32_gflops},
          {"launch (plain)", "us", b.launch_us_plain, n.launch_us_plain},
          {"launch (CUDA graph)", "us", b.launch_us_graph, n.launch_us_graph}};
}

// A ceiling the run measured (a run's missing ceiling reads 0).
bool measured(double v) {
  return std::isfinite(v) && v > 0;
}

// What the ceilings table's two columns are: two measurements, or one shared by both runs.
std::string ceilings_provenance(const LoadedRun& b, const LoadedRun& n) {
  const std::string tb = ceilings_measured_at(b), tn = ceilings_measured_at(n);
  const std::string meaning =
      "a DRAM-bound problem's time follows the DRAM roofs, a launch-bound one's the launch, so "
      "a move here is the machine's, not the code's.";
  if (!tb.empty() && tb == tn)
    return "Both runs used one measurement (taken " + tb +
           ", cached for the GPU and driver): the columns cannot differ, and a change of the "
           "machine between the runs does not show here.";
  if (tb.empty() || tn.empty())
    return "Each run's, measured on its GPU at or before its start (ceilings are cached per GPU "
           "and driver): " +
           meaning;
  return "Each run's own, measured on its GPU (base " + tb + ", new " + tn + "): " + meaning;
}

void ceilings_table(std::ostringstream& md, const std::vector<CeilingRow>& rows,
                    const std::string& provenance) {
  const auto shown = [](const CeilingRow& c) { return measured(c.base) || measured(c.fresh); };
  if (std::none_of(rows.begin(), rows.end(), shown)) return;
  auto cell = [](double v, int digits) {
    return measured(v) ? fmt(v, digits) : std::string("n/a");
  };
  md << "### Measured ceilings\n\n"
     << provenance << "\n\n"
     << "| ceiling | base | new | new/base |\n|---|---:|---:|---:|\n";
  for (const auto& c : rows) {
    if (!shown(c)) continue;
    const int digits = std::string(c.unit) == "us" ? 2 : 1;
    const double ratio = measured(c.base) && measured(c.fresh) ? c.fresh / c.base : NAN;
    md << "| " << c.name << " (" << c.unit << ") | " << cell(c.base, digits) << " | "
       << cell(c.fresh, digits) << " | " << pct_change(ratio) << " |\n";
  }
  md << "\n";
}

nlohmann::json ceilings_json(const std::vector<CeilingRow>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& c : rows)
    j.push_back({{"ceiling", c.name},
                 {"unit", c.unit},
                 {"base", measured(c.base) ? nlohmann::json(c.base) : nlohmann::json()},
                 {"new", measured(c.fresh) ? nlohmann::json(c.fresh) : nlohmann::json()}});
  return j;
}

int rank(Change c) {
  return c == Change::slower ? 0 : c == Change::faster ? 1 : 2;
}

struct TunedRow {
  ProblemKey key;
  std::string base_variant, new_variant;
  double base_us = NAN, new_us = NAN;
  Verdict v;
  std::string status;  // "compared", "only in base", "only in new"
};

struct DispatchRow {
  ProblemKey key;
  Dispatch base, fresh;
  Verdict v;
  std::string status;  // "compared" (both timed), "lost" (a regression), "not timed" (in base)
};

struct VariantRow {
  ProblemKey key;
  std::string variant;
  const VariantResult* base = nullptr;
  const VariantResult* fresh = nullptr;
  Verdict v;
};

}  // namespace

std::string graph_difference(const nlohmann::json& fb, const std::string& sb,
                             const nlohmann::json& fn, const std::string& sn, std::string* note) {
  if (note) note->clear();
  // A run that stored no features (stores from before they were kept) cannot tell.
  if (!fb.is_object() || !fn.is_object()) return "";
  const auto text = [](const nlohmann::json& f, const char* key) {
    const auto it = f.find(key);
    return it != f.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const auto kind = [](const std::string& h) { return h.substr(0, h.find(':')); };
  const std::string hb = text(fb, "source_hash"), hn = text(fn, "source_hash");
  // What the graph is: its size and degree statistics. A feature one side lacks (a later tuner
  // keeps more) says nothing.
  for (const auto& [k, vb] : fb.items()) {
    if (k == "source_hash" || k == "csr_hash") continue;
    const auto it = fn.find(k);
    if (it != fn.end() && !same_value(vb, *it)) return k + " " + vb.dump() + " -> " + it->dump();
  }
  // The edges themselves (runs since the forty-third session store a hash of the CSR): the same
  // statistics over other edges are another graph, a relabelled or edited file say.
  const std::string cb = text(fb, "csr_hash"), cn = text(fn, "csr_hash");
  if (!cb.empty() && !cn.empty() && cb != cn)
    return "the same size and degree statistics over other edges (csr_hash " + cb + " -> " + cn +
           ": a relabelled or edited graph)";
  if (!hb.empty() && !hn.empty() && kind(hb) != kind(hn))
    return "read from a file in one run, generated in the other (source hash " + hb + " -> " + hn +
           ")";
  // A generator's spec (its seed, say) makes another graph whose statistics may be the same; a
  // file's path says nothing (it differs between machines).
  const bool generated = kind(hb.empty() ? hn : hb) == "gen";
  if (generated && !trimmed(sb).empty() && !trimmed(sn).empty() && trimmed(sb) != trimmed(sn))
    return "spec '" + sb + "' -> '" + sn + "'";
  if (hb.empty() || hn.empty() || hb == hn) return "";
  // Only the source hash differs: it hashes the generators' (readers') code too.
  const bool sized = fb.contains("num_nodes") && fn.contains("num_nodes") &&
                     fb.contains("num_edges") && fn.contains("num_edges");
  if (!sized)
    return "source hash " + hb + " -> " + hn + ", and no size stored to show the graph is the same";
  if (note) {
    if (!cb.empty() && cb == cn)  // the same edges: only the code that made them moved
      *note = generated ? "generator code changed between the runs; the same CSR (csr_hash)"
                        : "the reader code or the file's encoding changed between the runs; the "
                          "same CSR (csr_hash)";
    else
      *note = generated ? "generator code changed between the runs"
                        : "the file's bytes or the reader code changed between the runs";
  }
  return "";
}

const char* to_string(Change c) {
  switch (c) {
    case Change::same:
      return "same";
    case Change::faster:
      return "faster";
    case Change::slower:
      return "slower";
  }
  return "?";
}

Verdict classify(double base_us, double base_rel_noise, double new_us, double new_rel_noise,
                 double threshold) {
  Verdict v;
  v.ratio = new_us / base_us;
  v.diff_us = new_us - base_us;
  const double nb = base_us * base_rel_noise, nn = new_us * new_rel_noise;
  v.noise_us = 2 * std::sqrt(nb * nb + nn * nn);
  if (!std::isfinite(v.ratio) || base_us <= 0 || new_us <= 0) {  // no time to compare
    v.noise_us = INFINITY;
    return v;
  }
  // A noise not known (one sample) leaves the threshold alone to decide: a tuned choice ten
  // times slower is a regression whatever its sample count.
  if (!std::isfinite(v.noise_us)) {
    v.noise_us = INFINITY;
    if (new_us > base_us * (1 + threshold))
      v.change = Change::slower;
    else if (base_us > new_us * (1 + threshold))
      v.change = Change::faster;
    return v;
  }
  if (new_us > base_us * (1 + threshold) && v.diff_us > v.noise_us)
    v.change = Change::slower;
  else if (base_us > new_us * (1 + threshold) && -v.diff_us > v.noise_us)
    v.change = Change::faster;
  return v;
}

std::string rule_text(double threshold) {
  const std::string t = fmt(threshold * 100, 1) + "%";
  return "Rule: with medians b (base) and n (new) and their relative noise rb, rn (the standard "
         "error of each median over the median), noise = 2*sqrt((rb*b)^2 + (rn*n)^2); **slower** "
         "when n > b*(1+" +
         t + ") and n - b > noise, **faster** when b > n*(1+" + t +
         ") and b - n > noise, else **same**; when a noise is unknown (one sample) the "
         "threshold alone decides. A tuned choice in base that new lacks (no correct "
         "trial, or a run that stopped) counts as a regression; problems whose graph differs "
         "(its size or degree statistics, or a generator's spec) are not compared, and a graph "
         "whose source hash alone changed (the generators' or readers' code, or a file's bytes) "
         "is compared and named. Each variant's evidence is its highest stage (2 interleaved "
         "final, 1 full, 0 screening); tuned choices are select_winners' per problem on each "
         "side, compared by the winners' medians even when the winning variant changed; the "
         "header's dispatch is each side's rules' kernel (or attached column-blocked sweep) on "
         "each problem, by the same rule, and a slower one counts as a regression, as does one "
         "ruled out in new (wrong, crashed or hung there) or untimed there where base's was "
         "timed.";
}

namespace {

// Whether base and new are one run: one file's (`tuner compare S S`: S's latest run twice, or S
// and S:N with N its latest; an export and itself), or one recorded run in two files (a store
// and its export, or a copy of it): the same id, start, finish, GPU and config. A run continued
// after the other was taken is not it (its finish differs).
bool same_run(const LoadedRun& a, const LoadedRun& b) {
  if (!a.store || !b.store) return false;
  if (a.run_id == b.run_id) {
    const auto file = [](const LoadedRun& x) {
      return x.store->path() == ":memory:" ? x.source : x.store->path();
    };
    std::error_code ec;
    if (fs::equivalent(file(a), file(b), ec) && !ec) return true;
  }
  return a.run.id == b.run.id && !a.run.started.empty() && a.run.started == b.run.started &&
         a.run.finished == b.run.finished && a.run.gpu_uuid == b.run.gpu_uuid &&
         a.run.config_hash == b.run.config_hash;
}

// A recorded driver: NVML's version and the CUDA driver API's ("580.159.04 (CUDA 13.0)"), or
// the latter alone where the run found no NVML ("CUDA 13.0").
struct DriverText {
  std::string version, cuda;
};
DriverText split_driver(const std::string& d) {
  if (d.rfind("CUDA ", 0) == 0) return {"", d};
  const size_t open = d.find(" (CUDA ");
  if (open != std::string::npos && d.back() == ')')
    return {d.substr(0, open), d.substr(open + 2, d.size() - open - 3)};
  return {d, ""};
}

// A trial's timer where it is known ("" for a stage-2 trial of a tuner from before the leaders'
// pooled timer was recorded).
std::string known_timer(const std::string& timer) {
  return timer == "interleaved" ? "" : timer;
}

}  // namespace

CompareResult compare_runs(const LoadedRun& base, const LoadedRun& fresh,
                           const CompareOptions& opt) {
  CompareResult r;
  std::vector<std::string> why;
  const RunData b = load_side(base, "base");
  const RunData n = load_side(fresh, "new");
  const std::vector<CeilingRow> ceilings = ceiling_rows(b.roofs, n.roofs);
  if (base.run.gpu_uuid != fresh.run.gpu_uuid) {
    why.push_back("the runs are on different GPUs: base " + base.run.gpu_name + " (" +
                  base.run.gpu_uuid + "), new " + fresh.run.gpu_name + " (" + fresh.run.gpu_uuid +
                  ")");
  } else {
    // The same run GPU, but a problem measured elsewhere on one side (a run continued or
    // reused from another GPU's).
    const auto gb = gpus_by_problem(b), gn = gpus_by_problem(n);
    std::vector<std::string> differ;
    for (const auto& [problem, set] : gb)
      if (const auto it = gn.find(problem); it != gn.end() && it->second != set)
        differ.push_back(problem + " (base " + join_set(set) + ", new " + join_set(it->second) + ")");
    if (!differ.empty())
      why.push_back(std::to_string(differ.size()) + " problem" +
                    (differ.size() == 1 ? " was" : "s were") +
                    " measured on different GPUs in the two runs: " + first_five(differ));
  }
  // One side without NVML's version, the CUDA driver API's the same: not known to differ (a
  // warning below), rather than "different drivers".
  std::string driver_unknown;
  if (base.run.driver != fresh.run.driver) {
    const DriverText bd = split_driver(base.run.driver), nd = split_driver(fresh.run.driver);
    const bool base_bare = bd.version.empty();  // else new's is the one without NVML's version
    if ((base_bare || nd.version.empty()) && !bd.cuda.empty() && bd.cuda == nd.cuda)
      driver_unknown =
          std::string(base_bare ? "base" : "new") + " recorded its driver as '" +
          (base_bare ? base : fresh).run.driver + "' only (no NVML where it ran), the other '" +
          (base_bare ? fresh : base).run.driver + "': whether the drivers differ is not known";
    else
      why.push_back("the runs are on different drivers: base " + base.run.driver + ", new " +
                    fresh.run.driver);
  }
  std::string reason;
  for (const auto& w : why) reason += (reason.empty() ? "" : "; ") + w;
  // Timed differently (cold against warm L2, single launches against replays): the times differ
  // by what was measured, not by the code.
  const std::string base_timing = timing_kind(base.run.config),
                    new_timing = timing_kind(fresh.run.config);
  const std::string timing_differs =
      base_timing == new_timing
          ? ""
          : "the runs were timed differently: base " + base_timing + ", new " + new_timing;
  nlohmann::json meta{{"tool", "tuner compare"},
                      {"format", 1},
                      {"generated", tuner::now_iso8601()},
                      {"threshold", opt.threshold},
                      {"rule", rule_text(opt.threshold)},
                      {"allow_different_gpu", opt.allow_different_gpu},
                      {"allow_different_timing", opt.allow_different_timing},
                      {"timing", {{"base", base_timing}, {"new", new_timing}}}};
  // Which problems can be compared at all: the same key in both runs, and the same graph.
  std::map<ProblemKey, const ProblemResults*> bp, np;
  for (const auto& p : b.problems) bp[p.key] = &p;
  for (const auto& p : n.problems) np[p.key] = &p;
  std::set<ProblemKey> keys;
  for (const auto& [k, p] : bp) keys.insert(k);
  for (const auto& [k, p] : np) keys.insert(k);
  std::set<ProblemKey> comparable;
  std::vector<std::string> changed_graphs;
  // graph -> (what changed, "hash -> hash"): compared anyway, and named.
  std::map<std::string, std::pair<std::string, std::string>> source_changed;
  for (const auto& k : keys) {
    const auto ib = bp.find(k), in = np.find(k);
    if (ib == bp.end()) {
      ++r.problems_only_new;
    } else if (in == np.end()) {
      ++r.problems_only_base;
    } else {
      std::string note;
      const std::string why_not = graph_difference(ib->second->features, ib->second->spec,
                                                   in->second->features, in->second->spec, &note);
      if (!why_not.empty()) {
        // Another graph under the same name: its times say nothing about the code.
        changed_graphs.push_back(k.label() + " (" + why_not + ")");
        ++r.problems_graph_differs;
        continue;
      }
      if (!note.empty())
        source_changed.emplace(
            k.graph, std::make_pair(note, ib->second->features.value("source_hash", "") + " -> " +
                                              in->second->features.value("source_hash", "")));
      comparable.insert(k);
    }
  }
  r.problems_compared = static_cast<int>(comparable.size());
  // "Problems: 17 compared, 0 not compared." (refused with some comparable: "none compared
  // (refused): 17 comparable, 0 not comparable."), and why the others were not.
  const auto problems_line = [&r](bool refused) {
    std::string line =
        refused
            ? "Problems: none compared (refused): " + std::to_string(r.problems_compared) +
                  " comparable, " + std::to_string(r.problems_not_compared()) + " not comparable"
            : "Problems: " + std::to_string(r.problems_compared) + " compared, " +
                  std::to_string(r.problems_not_compared()) + " not compared";
    std::vector<std::string> parts;
    if (r.problems_graph_differs)
      parts.push_back(std::to_string(r.problems_graph_differs) +
                      " whose graph differs between the runs");
    if (r.problems_only_base)
      parts.push_back(std::to_string(r.problems_only_base) + " only in base");
    if (r.problems_only_new) parts.push_back(std::to_string(r.problems_only_new) + " only in new");
    for (size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " (") + parts[i];
    return line + (parts.empty() ? "." : ").");
  };
  r.problems_line = problems_line(false);
  nlohmann::json problems_json{{"compared", r.problems_compared},
                               {"not_compared", r.problems_not_compared()},
                               {"graph_differs", r.problems_graph_differs},
                               {"only_in_base", r.problems_only_base},
                               {"only_in_new", r.problems_only_new}};

  std::vector<std::string> refusals;
  if (!why.empty() && !opt.allow_different_gpu)
    refusals.push_back(reason +
                       "; timings from different GPUs or drivers say nothing about the code (pass "
                       "--allow-different-gpu to compare anyway)");
  if (!timing_differs.empty() && !opt.allow_different_timing)
    refusals.push_back(timing_differs +
                       "; their times differ by what was measured, not by the code (pass "
                       "--allow-different-timing to compare anyway)");
  if (comparable.empty()) {
    const int both = r.problems_graph_differs;
    std::string none = "no problem was comparable: ";
    if (b.problems.empty() && n.problems.empty())
      none += "neither run holds a problem (no trials)";
    else if (both == 0)
      none += "the runs have no problem in common (base " + std::to_string(b.problems.size()) +
              ", new " + std::to_string(n.problems.size()) +
              "; a problem is a graph name, F, H and value and index types)";
    else
      none += "the graph differs in each of the " + std::to_string(both) + " problem" +
              (both == 1 ? "" : "s") + " both runs have (first: " + changed_graphs.front() + ")";
    refusals.push_back(none);
  }
  if (!refusals.empty()) {
    r.exit_code = 2;
    for (size_t i = 0; i < refusals.size(); ++i) r.refusal += (i ? "; and " : "") + refusals[i];
    // Refused: what could have been compared was not.
    if (r.problems_compared > 0) r.problems_line = problems_line(true);
    problems_json["comparable"] = r.problems_compared;
    problems_json["compared"] = 0;
    r.problems_compared = 0;
    std::string md =
        "## csrgat compare: refused\n\n" + r.refusal + ".\n\n" + r.problems_line + "\n\n";
    if (!changed_graphs.empty()) {
      md += "**Not compared: the graph differs between the runs** (" +
            std::to_string(changed_graphs.size()) + "): ";
      for (size_t i = 0; i < changed_graphs.size(); ++i) md += (i ? ", " : "") + changed_graphs[i];
      md += ".\n\n";
    }
    // The ceilings too: how far apart two boards (or one board's two states) are.
    std::ostringstream ceilings_md;
    ceilings_table(ceilings_md, ceilings, ceilings_provenance(base, fresh));
    r.markdown = md + "- base: " + run_line(base) + "\n- new: " + run_line(fresh) + "\n\n" +
                 ceilings_md.str();
    r.json = {{"meta", meta},
              {"base", run_json(base)},
              {"new", run_json(fresh)},
              {"refused", r.refusal},
              {"problems", problems_json},
              {"graph_changed", changed_graphs},
              {"ceilings", ceilings_json(ceilings)},
              {"exit_code", 2}};
    return r;
  }
  if (!why.empty()) r.warnings.push_back(reason + " (compared anyway: --allow-different-gpu)");
  if (!timing_differs.empty())
    r.warnings.push_back(timing_differs + " (compared anyway: --allow-different-timing)");
  if (!driver_unknown.empty()) r.warnings.push_back(driver_unknown);
  // Most likely a run suffix left out (`tuner compare S S`: S's latest run twice): not a failure
  // of the gate, but no evidence either.
  if (same_run(base, fresh))
    r.warnings.push_back("base and new are one run (run " + std::to_string(base.run.id) +
                         ", started " + base.run.started + ", of '" + base.source + "' and '" +
                         fresh.source +
                         "'): nothing could differ; name the run to compare with as STORE:RUN");

  std::vector<TunedRow> tuned;
  std::vector<std::string> other_timer;  // tuned choices whose two times are of two timers
  std::vector<VariantRow> variants;
  std::vector<std::string> broken, only_base, only_new;
  for (const auto& k : keys) {
    const ProblemResults* pb = bp.count(k) ? bp[k] : nullptr;
    const ProblemResults* pn = np.count(k) ? np[k] : nullptr;
    if (pb && pn && !comparable.count(k)) continue;  // another graph (named above)
    const bool wb = pb && pb->winner, wn = pn && pn->winner;
    if (wb || wn) {
      TunedRow t;
      t.key = k;
      if (wb) {
        t.base_variant = pb->winner->variant;
        t.base_us = pb->winner->median_us;
      }
      if (wn) {
        t.new_variant = pn->winner->variant;
        t.new_us = pn->winner->median_us;
      }
      if (wb && wn) {
        t.status = "compared";
        const std::string tb = known_timer(pb->winner->timer), tn = known_timer(pn->winner->timer);
        if (!tb.empty() && !tn.empty() && tb != tn)
          other_timer.push_back(k.label() + " (base " + tb + ", new " + tn + ")");
        t.v = classify(t.base_us, pb->winner->rel_noise, t.new_us, pn->winner->rel_noise,
                       opt.threshold);
        if (t.v.change == Change::slower)
          ++r.tuned_slower;
        else if (t.v.change == Change::faster)
          ++r.tuned_faster;
        else
          ++r.tuned_same;
      } else {
        t.status = wb ? "only in base" : "only in new";
        if (wb) {  // new has no correct trial of it, or never measured it
          ++r.tuned_lost;
          if (!pn) ++r.tuned_lost_unmeasured;
        }
      }
      tuned.push_back(std::move(t));
    }
    std::set<std::string> ids;
    if (pb)
      for (const auto& v : pb->variants) ids.insert(v.variant);
    if (pn)
      for (const auto& v : pn->variants) ids.insert(v.variant);
    for (const auto& id : ids) {
      VariantRow row;
      row.key = k;
      row.variant = id;
      row.base = pb ? pb->find(id) : nullptr;
      row.fresh = pn ? pn->find(id) : nullptr;
      if (row.base && row.fresh) {
        row.v = classify(row.base->best.median_us, row.base->best.rel_noise,
                         row.fresh->best.median_us, row.fresh->best.rel_noise, opt.threshold);
        if (row.v.change == Change::slower)
          ++r.variants_slower;
        else if (row.v.change == Change::faster)
          ++r.variants_faster;
        else
          ++r.variants_same;
        variants.push_back(std::move(row));
      } else if (row.base) {
        if (const std::string* why = pn ? pn->ruled_out(id) : nullptr)
          broken.push_back(k.label() + " `" + id + "` (" + failure_words(*why) + ")");
        else
          only_base.push_back(k.label() + " `" + id + "`");
      } else {
        only_new.push_back(k.label() + " `" + id + "`");
      }
    }
  }
  if (!other_timer.empty())
    r.warnings.push_back(std::to_string(other_timer.size()) + " tuned choice" +
                         (other_timer.size() == 1 ? " was" : "s were") +
                         " timed by another timer in each run (events include the launch, CUPTI "
                         "spans do not): " +
                         first_five(other_timer));
  // The header's dispatch on each compared problem, each run's own rules (a problem in both
  // runs and only one's rules of its type is no row: its tuned choice is lost or new above).
  std::vector<DispatchRow> dispatch;
  std::vector<std::string> dispatch_lost, dispatch_untimed, dispatch_unknown;
  for (const auto& k : comparable) {
    DispatchRow d;
    d.key = k;
    d.base = bp[k]->dispatch;
    d.fresh = np[k]->dispatch;
    if (!d.base.any() || !d.fresh.any()) continue;
    const auto timed_text = [](const Dispatch& x) {
      return (x.fallback ? x.name() : "`" + x.kernel + "`") +
             (x.ruled_out() ? " (" + failure_words(x.failed) + " on it)"
              : x.timed()   ? " at " + format_us(x.median_us) + " us"
                            : " (not timed on it)");
    };
    if (d.base.shape_unknown || d.fresh.shape_unknown) {
      d.status = "shape unknown";  // a guess on one side: nothing to hold either to
      ++r.dispatch_unknown;
      dispatch_unknown.push_back(k.label() + " (no graph features in " +
                                 (d.base.shape_unknown && d.fresh.shape_unknown ? "either run"
                                  : d.base.shape_unknown                        ? "base"
                                                                                : "new") +
                                 ")");
    } else if (d.fresh.ruled_out() || (d.base.timed() && !d.fresh.timed())) {
      d.status = "lost";  // new runs a kernel ruled out here, or one nobody timed here
      ++r.dispatch_lost;
      dispatch_lost.push_back(k.label() + ": base " + timed_text(d.base) + ", new " +
                              timed_text(d.fresh));
    } else if (d.base.timed() && d.fresh.timed()) {
      d.status = "compared";
      d.v = classify(d.base.median_us, d.base.rel_noise, d.fresh.median_us, d.fresh.rel_noise,
                     opt.threshold);
      ++(d.v.change == Change::slower   ? r.dispatch_slower
         : d.v.change == Change::faster ? r.dispatch_faster
                                        : r.dispatch_same);
    } else {
      d.status = "not timed";  // in base: nothing to hold new to
      ++r.dispatch_untimed;
      dispatch_untimed.push_back(k.label() + ": base " + timed_text(d.base) + ", new " +
                                 timed_text(d.fresh));
    }
    dispatch.push_back(std::move(d));
  }
  r.exit_code =
      r.tuned_slower > 0 || r.tuned_lost > 0 || r.dispatch_slower > 0 || r.dispatch_lost > 0 ? 1
                                                                                             : 0;

  // Markdown: the summary line, tuned choices that moved, then per-variant changes.
  std::stable_sort(tuned.begin(), tuned.end(), [](const TunedRow& x, const TunedRow& y) {
    return rank(x.v.change) < rank(y.v.change);
  });
  std::stable_sort(variants.begin(), variants.end(), [](const VariantRow& x, const VariantRow& y) {
    if (rank(x.v.change) != rank(y.v.change)) return rank(x.v.change) < rank(y.v.change);
    return x.v.change == Change::slower ? x.v.ratio > y.v.ratio : x.v.ratio < y.v.ratio;
  });
  std::stable_sort(dispatch.begin(), dispatch.end(),
                   [](const DispatchRow& x, const DispatchRow& y) {
                     return rank(x.v.change) < rank(y.v.change);
                   });
  std::ostringstream md;
  int switched = 0, dispatch_switched = 0;
  for (const auto& t : tuned) switched += t.status == "compared" && t.new_variant != t.base_variant;
  for (const auto& d : dispatch)
    dispatch_switched += d.status == "compared" && d.base.kernel != d.fresh.kernel;
  const bool moved_any = switched || dispatch_switched || r.variants_slower || r.variants_faster ||
                         r.dispatch_faster || !broken.empty();
  const std::string verdict = r.tuned_slower || r.tuned_lost || r.dispatch_slower || r.dispatch_lost
                                  ? "REGRESSION"
                              : r.tuned_faster || r.dispatch_faster ? "improved"
                              : moved_any                           ? "no regression"
                                                                    : "no change";
  md << "## csrgat compare: " << verdict << "\n\n";
  md << "**" << r.tuned_slower << " tuned choice" << (r.tuned_slower == 1 ? "" : "s")
     << " slower**, " << r.tuned_faster << " faster, " << r.tuned_same << " same (" << switched
     << " with another variant)";
  if (r.tuned_lost) {
    md << ", **" << r.tuned_lost << " lost** (a tuned choice in base, none in new";
    if (r.tuned_lost_unmeasured)
      md << ": " << r.tuned_lost - r.tuned_lost_unmeasured << " with no correct trial in new, "
         << r.tuned_lost_unmeasured << " on problems new did not measure";
    md << ")";
  }
  md << "; the header's dispatch: " << (r.dispatch_slower ? "**" : "") << r.dispatch_slower
     << " slower" << (r.dispatch_slower ? "**" : "") << ", " << r.dispatch_faster << " faster, "
     << r.dispatch_same << " same (" << dispatch_switched << " with another kernel)";
  if (r.dispatch_lost) md << ", **" << r.dispatch_lost << " lost** (ruled out or untimed in new)";
  if (r.dispatch_untimed) md << ", " << r.dispatch_untimed << " not timed in base";
  if (r.dispatch_unknown) md << ", " << r.dispatch_unknown << " not known (no graph features)";
  md << "; per variant: " << r.variants_slower << " slower, "
     << r.variants_faster << " faster, " << r.variants_same << " same";
  if (!broken.empty()) md << ", " << broken.size() << " broken (wrong, crashed or hung in new)";
  if (!only_base.empty() || !only_new.empty())
    md << ", " << only_base.size() << " only in base, " << only_new.size() << " only in new";
  md << " (threshold " << fmt(opt.threshold * 100, 1) << "%).\n\n";
  md << r.problems_line << "\n\n";
  for (const auto& w : r.warnings) md << "**Warning**: " << w << ".\n\n";
  if (!changed_graphs.empty()) {
    md << "**Not compared: the graph differs between the runs** (" << changed_graphs.size() << "): ";
    for (size_t i = 0; i < changed_graphs.size(); ++i) md << (i ? ", " : "") << changed_graphs[i];
    md << ".\n\n";
  }
  nlohmann::json source_notes = nlohmann::json::array();
  std::map<std::string, std::vector<std::string>> by_note;  // what changed -> its graphs
  for (const auto& [graph, what] : source_changed) {
    source_notes.push_back({{"graph", graph}, {"note", what.first}, {"source_hash", what.second}});
    by_note[what.first].push_back(graph);
  }
  if (!source_changed.empty()) {
    md << "**Compared, though the graph's source hash changed** (" << source_changed.size()
       << " graph" << (source_changed.size() == 1 ? "" : "s")
       << "; the same size and degree statistics, and a generated one's spec; hashes in "
          "compare.json): ";
    bool first = true;
    for (const auto& [note, graphs] : by_note) {
      md << (first ? "" : "; ") << note << ": ";
      for (size_t i = 0; i < graphs.size(); ++i) md << (i ? ", " : "") << graphs[i];
      first = false;
    }
    md << ".\n\n";
  }
  md << "- base: " << run_line(base) << "\n- new: " << run_line(fresh) << "\n\n";
  ceilings_table(md, ceilings, ceilings_provenance(base, fresh));

  // Slower first, then faster, then choices that kept their time with another variant.
  std::vector<const TunedRow*> moved;
  for (const auto& t : tuned)
    if (t.status == "compared" && (t.v.change != Change::same || t.new_variant != t.base_variant))
      moved.push_back(&t);
  md << "### Tuned choices\n\n";
  if (moved.empty()) {
    md << "No tuned choice moved beyond the threshold and the noise, and every problem kept its "
          "variant.\n\n";
  } else {
    md << "| problem | change | base winner | base us | new winner | new us | new/base | noise us "
          "|\n"
          "|---|---|---|---:|---|---:|---:|---:|\n";
    for (const auto* t : moved) {
      const std::string change = t->v.change == Change::same
                                     ? "same time, other variant"
                                     : "**" + std::string(to_string(t->v.change)) + "**";
      md << "| " << md_cell(t->key.label()) << " | " << change << " | `" << t->base_variant
         << "` | " << format_us(t->base_us) << " | "
         << (t->new_variant == t->base_variant ? std::string("(same)") : "`" + t->new_variant + "`")
         << " | " << format_us(t->new_us) << " | " << pct_change(t->v.ratio) << " | "
         << format_us(t->v.noise_us) << " |\n";
    }
    md << "\n";
  }
  std::vector<std::string> lost;
  for (const auto& t : tuned)
    if (t.status != "compared") lost.push_back(t.key.label() + " (" + t.status + ")");
  if (!lost.empty()) {
    md << "Problems with a tuned choice on one side only: ";
    for (size_t i = 0; i < lost.size(); ++i) md << (i ? ", " : "") << lost[i];
    md << ".\n\n";
  }

  md << "### The header's dispatch\n\n"
        "What the library built with each run's header runs on each problem: the first of that "
        "run's rules its dispatch matches, that rule's kernel or the column-blocked sweep "
        "attached to it where the library runs one (or the library's fallback), timed in that "
        "run. A tuned choice above is the fastest fused kernel of one problem; this is what a "
        "caller gets.\n\n";
  std::vector<const DispatchRow*> dmoved;
  for (const auto& d : dispatch)
    if (d.status == "compared" && (d.v.change != Change::same || d.base.kernel != d.fresh.kernel))
      dmoved.push_back(&d);
  if (dmoved.empty()) {
    md << "No problem's dispatch moved beyond the threshold and the noise, and every problem kept "
          "its kernel.\n\n";
  } else {
    md << "| problem | change | base kernel | base us | new kernel | new us | new/base | noise us "
          "| stages |\n"
          "|---|---|---|---:|---|---:|---:|---:|---|\n";
    for (const auto* d : dmoved) {
      const std::string change = d->v.change == Change::same
                                     ? "same time, other kernel"
                                     : "**" + std::string(to_string(d->v.change)) + "**";
      md << "| " << md_cell(d->key.label()) << " | " << change << " | `" << d->base.kernel << "` | "
         << format_us(d->base.median_us) << " | "
         << (d->fresh.kernel == d->base.kernel ? std::string("(same)")
                                               : "`" + d->fresh.kernel + "`")
         << " | " << format_us(d->fresh.median_us) << " | " << pct_change(d->v.ratio) << " | "
         << format_us(d->v.noise_us) << " | " << d->base.stage << " / " << d->fresh.stage << " |\n";
    }
    md << "\n";
  }
  const auto items = [&md](const std::string& title, const std::vector<std::string>& list) {
    if (list.empty()) return;
    md << title << " (" << list.size() << "): ";
    for (size_t i = 0; i < list.size(); ++i) md << (i ? "; " : "") << list[i];
    md << ".\n\n";
  };
  items(
      "**Dispatch lost: new runs a kernel ruled out (wrong, crashed or hung) or not timed on "
      "the problem where base's was timed** (a regression)",
      dispatch_lost);
  items("**Not timed in base** (nothing to hold new to)", dispatch_untimed);
  items(
      "**Dispatch not known** (a run's store has no features of the graph, so which of its "
      "rules the library takes there is a guess; not compared)",
      dispatch_unknown);

  md << "### Per-variant changes\n\n";
  size_t changed = 0;
  for (const auto& v : variants) changed += v.v.change != Change::same;
  if (changed == 0) {
    md << "No variant moved beyond the threshold and the noise.\n\n";
  } else {
    md << "| problem | variant | change | base us | new us | new/base | noise us | stages |\n"
          "|---|---|---|---:|---:|---:|---:|---|\n";
    size_t shown = 0;
    for (const auto& v : variants) {
      if (v.v.change == Change::same) continue;
      if (shown++ == kMaxVariantRows) break;
      md << "| " << md_cell(v.key.label()) << " | `" << v.variant << "` | " << to_string(v.v.change)
         << " | " << format_us(v.base->best.median_us) << " | "
         << format_us(v.fresh->best.median_us) << " | " << pct_change(v.v.ratio) << " | "
         << format_us(v.v.noise_us) << " | " << v.base->best.stage << " / " << v.fresh->best.stage
         << " |\n";
    }
    if (changed > kMaxVariantRows)
      md << "\n(" << changed - kMaxVariantRows << " more changed variants in compare.json.)\n";
    md << "\n";
  }
  auto list = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    md << "**" << title << "** (" << items.size() << "): ";
    for (size_t i = 0; i < items.size() && i < 30; ++i) md << (i ? ", " : "") << items[i];
    if (items.size() > 30) md << ", ...";
    md << "\n\n";
  };
  list("Broken in new (a wrong, crashed or hung trial)", broken);
  list("Measured only in base", only_base);
  list("Measured only in new", only_new);
  md << "<sub>" << rule_text(opt.threshold) << "</sub>\n";
  r.markdown = md.str();

  nlohmann::json tj = nlohmann::json::array(), vj = nlohmann::json::array();
  auto key_json = [](const ProblemKey& k) {
    return nlohmann::json{{"graph", k.graph},
                          {"feat", k.feat},
                          {"heads", k.heads},
                          {"value", to_string(k.value)},
                          {"index", to_string(k.index)}};
  };
  for (const auto& t : tuned) {
    nlohmann::json j = key_json(t.key);
    j.update({{"status", t.status},
              {"change", t.status == "compared" ? to_string(t.v.change) : t.status},
              {"variant_changed", t.status == "compared" && t.new_variant != t.base_variant},
              {"base_variant", t.base_variant},
              {"new_variant", t.new_variant},
              {"base_us", finite_or_null(t.base_us)},
              {"new_us", finite_or_null(t.new_us)},
              {"ratio", finite_or_null(t.v.ratio)},
              {"noise_us", finite_or_null(t.v.noise_us)}});
    tj.push_back(std::move(j));
  }
  nlohmann::json dj = nlohmann::json::array();
  for (const auto& d : dispatch) {
    nlohmann::json j = key_json(d.key);
    const bool compared = d.status == "compared";
    j.update({{"status", d.status},
              {"change", compared ? to_string(d.v.change) : d.status},
              {"kernel_changed", d.base.name() != d.fresh.name()},
              {"base", dispatch_json(d.base)},
              {"new", dispatch_json(d.fresh)},
              {"ratio", compared ? finite_or_null(d.v.ratio) : nlohmann::json()},
              {"noise_us", compared ? finite_or_null(d.v.noise_us) : nlohmann::json()}});
    dj.push_back(std::move(j));
  }
  for (const auto& v : variants) {
    nlohmann::json j = key_json(v.key);
    j.update({{"variant", v.variant},
              {"change", to_string(v.v.change)},
              {"base_us", v.base->best.median_us},
              {"new_us", v.fresh->best.median_us},
              {"base_rel_noise", finite_or_null(v.base->best.rel_noise)},
              {"new_rel_noise", finite_or_null(v.fresh->best.rel_noise)},
              {"base_stage", v.base->best.stage},
              {"new_stage", v.fresh->best.stage},
              {"ratio", finite_or_null(v.v.ratio)},
              {"noise_us", finite_or_null(v.v.noise_us)}});
    vj.push_back(std::move(j));
  }
  r.json = {{"meta", meta},
            {"base", run_json(base)},
            {"new", run_json(fresh)},
            {"refused", nullptr},
            {"warnings", r.warnings},
            {"summary",
             {{"tuned_slower", r.tuned_slower},
              {"tuned_faster", r.tuned_faster},
              {"tuned_same", r.tuned_same},
              {"variants_slower", r.variants_slower},
              {"variants_faster", r.variants_faster},
              {"variants_same", r.variants_same},
              {"tuned_lost", r.tuned_lost},
              {"tuned_lost_unmeasured", r.tuned_lost_unmeasured},
              {"dispatch_slower", r.dispatch_slower},
              {"dispatch_faster", r.dispatch_faster},
              {"dispatch_same", r.dispatch_same},
              {"dispatch_lost", r.dispatch_lost},
              {"dispatch_untimed", r.dispatch_untimed},
              {"dispatch_unknown", r.dispatch_unknown},
              {"graph_changed", changed_graphs},
              {"graph_source_changed", source_notes},
              {"problems", problems_json},
              {"broken", broken},
              {"only_in_base", only_base},
              {"only_in_new", only_new}}},
            {"ceilings", ceilings_json(ceilings)},
            {"tuned", tj},
            {"dispatch", dj},
            {"variants", vj},
            {"exit_code", r.exit_code}};
  return r;
}

const std::vector<std::string>& compare_files() {
  static const std::vector<std::string> files{"compare.md", "compare.json"};
  return files;
}

void write_compare(const CompareResult& r, const std::string& out_dir) {
  fs::create_directories(out_dir);
  const fs::path dir(out_dir);
  {
    std::ofstream out(dir / "compare.md");
    out << r.markdown;
    if (!out) throw std::runtime_error("cannot write " + (dir / "compare.md").string());
  }
  std::ofstream out(dir / "compare.json");
  out << r.json.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + (dir / "compare.json").string());
}

}  // namespace csrgat::reports
