#include "reports/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/analysis.h"
#include "reports/doc.h"
#include "reports/plot.h"
#include "tuner/config.h"
#include "tuner/store.h"
#include "tuner/worker.h"

namespace fs = std::filesystem;

namespace csrgat::reports {
namespace {

constexpr const char* kMeasuredBy =
    "Numbers without \"(model)\" come from the CUPTI range-profiler counters of the trial "
    "(`dram__bytes_read.sum + dram__bytes_write.sum`, `lts__t_bytes.sum`, "
    "`2*ffma + fadd + fmul` thread instructions) over the trial's median GPU time.";

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string base64(const std::string& in) {
  static const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v =
        (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8 | (unsigned char)in[i + 2];
    out += tbl[v >> 18 & 63];
    out += tbl[v >> 12 & 63];
    out += tbl[v >> 6 & 63];
    out += tbl[v & 63];
  }
  if (i < in.size()) {
    unsigned v = (unsigned char)in[i] << 16;
    if (i + 1 < in.size()) v |= (unsigned char)in[i + 1] << 8;
    out += tbl[v >> 18 & 63];
    out += tbl[v >> 12 & 63];
    out += i + 1 < in.size() ? tbl[v >> 6 & 63] : '=';
    out += '=';
  }
  return out;
}

double jnum(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nan("");
  return j[key].get<double>();
}
std::string jstr(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

// The run's ceilings' "method" object; {} when a hand-edited or foreign store holds anything
// else there (the report never throws on it).
nlohmann::json ceilings_method(const nlohmann::json& ceilings) {
  return ceilings.is_object() && ceilings.contains("method") && ceilings["method"].is_object()
             ? ceilings["method"]
             : nlohmann::json::object();
}

// A number, with " (model)" when it rests on the model rather than on counters.
std::string marked(double v, int decimals, bool model) {
  const std::string s = fmt(v, decimals);
  return model && s != "n/a" ? s + " (model)" : s;
}

std::string with_unit(double v, int decimals, const char* unit) {
  const std::string s = fmt(v, decimals);
  return s == "n/a" ? s : s + unit;
}

std::string sci(double v) {
  if (!std::isfinite(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

std::string spread(const tuner::TrialRecord& t) {
  return format_us(t.q1_us) + "–" + format_us(t.q3_us);
}

// "how measured" of one ceiling from ceilings.method.<key> (profiler/ceilings.cpp).
std::string method_text(const nlohmann::json& m) {
  if (!m.is_object()) return "method not recorded";
  std::vector<std::string> parts;
  if (m.contains("kernel")) parts.push_back(jstr(m, "kernel"));
  if (m.contains("bytes_per_buffer"))
    parts.push_back(format_bytes(jnum(m, "bytes_per_buffer")) + " per buffer");
  if (m.contains("matrix_bytes"))
    parts.push_back(format_bytes(jnum(m, "matrix_bytes")) + " of " + jstr(m, "row_bytes") +
                    "-byte rows, " + jstr(m, "row_numbers") + " random row numbers");
  if (m.contains("reps"))
    parts.push_back(jstr(m, "reps") + (jnum(m, "reps") == 1 ? " pass" : " passes") + " per launch");
  if (m.contains("grid")) parts.push_back("grid " + jstr(m, "grid") + " x " + jstr(m, "block"));
  if (m.contains("cache")) parts.push_back(jstr(m, "cache") + " L2");
  if (m.contains("graph_batch")) parts.push_back(jstr(m, "graph_batch") + " launches per graph");
  std::string timing = jstr(m, "samples") + " samples by the " + jstr(m, "timer") + " timer";
  if (m.contains("stop")) timing += " (stopped on " + jstr(m, "stop") + ")";
  if (m.contains("rel_noise")) timing += ", rel. noise " + format_pct(jnum(m, "rel_noise"));
  if (m.contains("throttled_any") && m["throttled_any"] == true) timing += ", throttling seen";
  parts.push_back(timing);
  if (m.contains("value")) parts.push_back("value = " + jstr(m, "value"));
  const std::string note = jstr(m, "note");
  if (!note.empty() && note != "\"\"") parts.push_back(note);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

const PeerResult* find_peer(const Peers& peers, const ProblemKey& k, const std::string& impl) {
  for (const auto& p : peers.results)
    if (p.graph == k.graph && p.feat == k.feat && (p.heads == k.heads || p.heads <= 0) &&
        p.impl == impl)
      return &p;
  return nullptr;
}

std::vector<std::string> peer_impls(const Peers& peers) {
  std::vector<std::string> out;
  for (const auto& p : peers.results)
    if (std::find(out.begin(), out.end(), p.impl) == out.end()) out.push_back(p.impl);
  return out;
}

double ratio(double base, double x) {
  return std::isfinite(base) && base > 0 && x > 0 ? base / x : std::nan("");
}

std::string kind_of(const ProblemResults& pr, const VariantResult& v) {
  if (v.family != "csrgat") return v.family;
  return pr.winner && pr.winner->variant == v.variant ? "winner" : "fused";
}

std::string param_value(const VariantParams& p, const std::string& name) {
  if (name == "tpr") return std::to_string(p.tpr);
  if (name == "fl") return std::to_string(p.fl);
  if (name == "rpb") return std::to_string(p.rpb);
  if (name == "vec") return std::to_string(p.vec);
  if (name == "tiles") return std::to_string(p.tiles);
  if (name == "epl") return std::to_string(p.epl);
  if (name == "ilp") return std::to_string(p.ilp);
  if (name == "minb") return std::to_string(p.minb);
  if (name == "smem") return std::to_string(p.smem);
  if (name == "softmax") return to_string(p.softmax);
  if (name == "split") return std::to_string(p.split);
  if (name == "lpt") return std::to_string(p.lpt);
  return "?";
}

// "8" before "16"; names ("online", "twopass") alphabetically after numbers.
bool numeric_less(const std::string& a, const std::string& b) {
  char* ea = nullptr;
  char* eb = nullptr;
  const double x = std::strtod(a.c_str(), &ea), y = std::strtod(b.c_str(), &eb);
  const bool na = !a.empty() && *ea == 0, nb = !b.empty() && *eb == 0;
  if (na && nb) return x < y;
  if (na != nb) return na;
  return a < b;
}

// Chart data: every measured variant as a roofline point, and for the two largest problems
// the time per (tpr, vec) and the cost of fixing each parameter to each of its values.
nlohmann::json chart_data(const RunData& d) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& pr : d.problems)
    for (const auto& v : pr.variants) {
      if (!v.perf.known) continue;
      points.push_back({{"problem", pr.key.label()},
                        {"variant", v.variant},
                        {"kind", kind_of(pr, v)},
                        {"ai", v.perf.ai},
                        {"gflops", v.perf.gflops},
                        {"model", v.perf.dram_model || v.perf.flops_model}});
    }
  std::vector<const ProblemResults*> big;
  for (const auto& pr : d.problems)
    if (pr.winner) big.push_back(&pr);
  auto size_of = [](const ProblemResults* p) {
    const double e = p->features.is_object() ? p->features.value("num_edges", 0.0) : 0.0;
    return e * p->key.feat * p->key.heads;
  };
  std::stable_sort(big.begin(), big.end(),
                   [&](auto* a, auto* b) { return size_of(a) > size_of(b); });
  if (big.size() > 2) big.resize(2);
  nlohmann::json params = nlohmann::json::array();
  const std::vector<std::string> names{"tpr", "fl",   "rpb",  "vec",     "tiles", "epl",
                                       "ilp", "minb", "smem", "softmax", "split", "lpt"};
  for (const auto* pr : big) {
    double best = INFINITY;
    std::map<int, std::map<int, double>> by_vec_tpr;
    std::map<std::string, std::map<std::string, double>> by_param;
    for (const auto& v : pr->variants) {
      if (v.family != "csrgat" || !v.params) continue;
      const double t = v.best.median_us;
      best = std::min(best, t);
      double& cell = by_vec_tpr[v.params->vec].try_emplace(v.params->tpr, INFINITY).first->second;
      cell = std::min(cell, t);
      for (const auto& n : names) {
        double& b = by_param[n].try_emplace(param_value(*v.params, n), INFINITY).first->second;
        b = std::min(b, t);
      }
    }
    if (!std::isfinite(best)) continue;
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& [vec, row] : by_vec_tpr) {
      nlohmann::json xs = nlohmann::json::array(), ys = nlohmann::json::array();
      for (const auto& [tpr, t] : row) {
        xs.push_back(tpr);
        ys.push_back(t);
      }
      lines.push_back({{"label", "vec=" + std::to_string(vec)}, {"x", xs}, {"y", ys}});
    }
    nlohmann::json sens = nlohmann::json::array();
    for (const auto& n : names) {
      std::vector<std::pair<std::string, double>> vals(by_param[n].begin(), by_param[n].end());
      if (vals.size() < 2) continue;  // a parameter the space did not vary
      std::sort(vals.begin(), vals.end(),
                [](const auto& a, const auto& b) { return numeric_less(a.first, b.first); });
      for (const auto& [val, t] : vals)
        sens.push_back({{"param", n}, {"value", val}, {"ratio", t / best}});
    }
    params.push_back({{"problem", pr->key.label()},
                      {"best_us", best},
                      {"tpr_lines", lines},
                      {"sensitivity", sens}});
  }
  const std::string device =
      d.run.gpu_name + (d.run.gpu_uuid.empty() ? "" : " (" + d.run.gpu_uuid + ")");
  return {{"title", "csrgat roofline: run " + std::to_string(d.run.id) + " " + d.run.name},
          {"device", device},
          {"ceilings",
           {{"dram_gbs", d.roofs.dram_roof_gbs()},
            {"dram_roof", d.roofs.dram_roof_name()},
            {"l2_gbs", d.roofs.l2_gbs},
            {"l2_gather_gbs", d.roofs.l2_gather_gbs},
            {"fp32_gflops", d.roofs.fp32_gflops}}},
          {"points", points},
          {"params", params}};
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// Two SVGs inlined in one page share one id namespace, and matplotlib's ids (clip paths,
// markers) can collide between figures: give each figure its own prefix.
std::string prefix_svg_ids(std::string svg, const std::string& prefix) {
  replace_all(svg, "id=\"", "id=\"" + prefix);
  replace_all(svg, "url(#", "url(#" + prefix);
  replace_all(svg, "href=\"#", "href=\"#" + prefix);
  return svg;
}

// The chart as inline HTML: the SVG itself (opens offline), else the PNG as base64.
std::string inline_chart(const fs::path& dir, const std::string& stem, const std::string& alt) {
  const fs::path svg = dir / (stem + ".svg"), png = dir / (stem + ".png");
  if (fs::exists(svg)) {
    std::string s = read_file(svg);
    const auto at = s.find("<svg");
    if (at != std::string::npos) return prefix_svg_ids(s.substr(at), stem + "-");
  }
  if (fs::exists(png))
    return "<img alt=\"" + html_escape(alt) + "\" src=\"data:image/png;base64," +
           base64(read_file(png)) + "\">";
  return "";
}

void device_section(Doc& doc, const RunData& d) {
  const auto& dev = d.run.device;
  doc.heading(2, "Device");
  const double l2 = d.roofs.l2_bytes, mem = jnum(dev, "global_mem");
  doc.table({"name", "UUID", "driver", "CUDA runtime", "compute capability", "SMs", "L2", "memory",
             "max SM clock"},
            {{d.run.gpu_name.empty() ? jstr(dev, "name") : d.run.gpu_name,
              "`" + (d.run.gpu_uuid.empty() ? jstr(dev, "uuid") : d.run.gpu_uuid) + "`",
              d.run.driver.empty() ? jstr(dev, "driver") : d.run.driver,
              d.run.cuda_runtime.empty() ? jstr(dev, "cuda_runtime") : d.run.cuda_runtime,
              jstr(dev, "cc"), jstr(dev, "sm_count"), l2 > 0 ? format_bytes(l2) : "n/a",
              std::isfinite(mem) ? format_bytes(mem) : "n/a",
              dev.contains("sm_clock_max_mhz") ? jstr(dev, "sm_clock_max_mhz") + " MHz" : "n/a"}});

  doc.heading(2, "Measured ceilings");
  const auto& c = d.run.ceilings;
  if (!c.is_object() || !d.roofs.known()) {
    doc.para(
        "No ceilings were recorded with this run, so roofline percentages and floor times are "
        "n/a.");
    return;
  }
  const nlohmann::json method = ceilings_method(c);
  auto m = [&](const char* k) { return method.contains(k) ? method[k] : nlohmann::json(); };
  std::vector<std::vector<std::string>> rows{
      {"DRAM copy", fmt(d.roofs.dram_gbs, 1) + " GB/s",
       with_unit(jnum(m("dram_copy"), "median_gbs"), 1, " GB/s"), method_text(m("dram_copy"))},
      {"L2 copy", fmt(d.roofs.l2_gbs, 1) + " GB/s",
       with_unit(jnum(m("l2_copy"), "median_gbs"), 1, " GB/s"), method_text(m("l2_copy"))}};
  if (d.roofs.dram_read_gbs > 0)  // measured since the forty-seventh session: the DRAM roof
    rows.insert(rows.begin() + 1, {"DRAM read", fmt(d.roofs.dram_read_gbs, 1) + " GB/s",
                                   with_unit(jnum(m("dram_read"), "median_gbs"), 1, " GB/s"),
                                   method_text(m("dram_read"))});
  if (d.roofs.l2_gather_gbs > 0)  // measured since the sixteenth session
    rows.push_back({"L2 gather", fmt(d.roofs.l2_gather_gbs, 1) + " GB/s",
                    with_unit(jnum(m("l2_gather"), "median_gbs"), 1, " GB/s"),
                    method_text(m("l2_gather"))});
  rows.push_back({"FP32 peak", fmt(d.roofs.fp32_gflops, 1) + " GFLOP/s",
                  with_unit(jnum(m("fp32"), "median_gflops"), 1, " GFLOP/s"),
                  method_text(m("fp32"))});
  rows.push_back({"launch (plain)", fmt(d.roofs.launch_us_plain, 2) + " us", "",
                  method_text(m("launch_plain"))});
  rows.push_back({"launch (CUDA graph)", fmt(d.roofs.launch_us_graph, 2) + " us", "",
                  method_text(m("launch_graph"))});
  doc.table({"ceiling", "value", "median sample", "how it was measured"}, rows, "lrrl");
  std::string when = jstr(method, "measured_at");
  doc.para(
      "The ceilings are what simple kernels reach on this device (after the Empirical Roofline "
      "Toolkit), "
      "the best sample of each; the median sample is shown beside it." +
      (when.empty() ? std::string() : " Measured " + when + "."));
}

void summary_section(Doc& doc, const RunData& d, const Peers& peers) {
  doc.heading(2, "Summary: the tuned choice per problem");
  const auto impls = peer_impls(peers);
  std::vector<std::string> head{"problem",    "winner",    "median us", "q1–q3 us",
                                "rel. noise", "timer",     "floor us",  "x floor",
                                "DRAM GB/s",  "% of roof", "vs seed",   "vs cuSPARSE"};
  std::string align = "llrrrlrrrrrr";
  for (const auto& i : impls) {
    head.push_back("vs " + i);
    align += 'r';
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& pr : d.problems) {
    if (!pr.winner) {
      std::vector<std::string> r{pr.key.label(), "no correct fused variant"};
      r.resize(head.size(), "");
      rows.push_back(r);
      continue;
    }
    const auto& w = *pr.winner;
    const VariantResult* v = pr.find(w.variant);
    const Achieved a = v ? v->perf : Achieved{};
    const double floor = pr.model.floor_us;
    std::vector<std::string> r{pr.key.label(),
                               "`" + w.variant + "`",
                               format_us(w.median_us),
                               format_us(w.q1_us) + "–" + format_us(w.q3_us),
                               format_pct(w.rel_noise),
                               w.timer + (w.throttled ? ", throttled" : ""),
                               pr.model.floor_us > 0 ? format_us(floor) : "n/a",
                               pr.model.floor_us > 0 ? fmt(w.median_us / floor, 2) : "n/a",
                               marked(a.dram_gbs, 1, a.dram_model),
                               marked(a.pct_roof, 1, a.dram_model || a.flops_model),
                               format_speedup(ratio(w.seed_us, w.median_us)),
                               format_speedup(ratio(w.cusparse_us, w.median_us))};
    for (const auto& i : impls) {
      const PeerResult* p = find_peer(peers, pr.key, i);
      r.push_back(p ? format_speedup(ratio(p->median_us, w.median_us)) : "n/a");
    }
    rows.push_back(std::move(r));
  }
  doc.table(head, rows, align);
  // The floor bounds a cold single launch; a warm or replayed one can run under it.
  const std::string floor_is =
      timed_cold_single(d.run.config)
          ? "a lower bound"
          : "a lower bound of a cold single launch only: this run's times, warm L2 or launches "
            "inside a graph replay, can be under it";
  doc.para("Times are GPU medians in microseconds, timed with " + timing_kind(d.run.config) +
           "; `x floor` is the winner's median over the model's floor (compulsory bytes at the "
           "DRAM roof: " +
           floor_is +
           "); `vs X` is X's median over the winner's (higher is better for the tuned "
           "kernel). " +
           std::string(kMeasuredBy));
}

// Target 1 reads "the tuned dispatch is never slower than any baseline": per problem, what the
// run's header runs (its rule's kernel, or the sweep attached to the rule) against the winner and
// the baselines, which the summary above gives for each problem's own fastest kernel.
void dispatch_section(Doc& doc, const RunData& d, const Peers& peers) {
  doc.heading(2, "The header's dispatch per problem");
  const auto impls = peer_impls(peers);
  std::vector<std::string> head{"problem",  "dispatched kernel", "median us",  "stage",
                                "/ winner", "vs seed",           "vs cuSPARSE"};
  std::string align = "llrrrrr";
  for (const auto& i : impls) {
    head.push_back("vs " + i);
    align += 'r';
  }
  std::vector<std::vector<std::string>> rows;
  int timed = 0, beaten = 0, both = 0;
  std::vector<std::string> untimed, unmatched;  // unmatched: timed, no baseline timed there
  for (const auto& pr : d.problems) {
    const Dispatch& x = pr.dispatch;
    if (!x.any()) continue;
    const double us = x.timed() ? x.median_us : NAN;
    timed += x.timed();
    if (!x.timed())
      untimed.push_back(pr.key.label() + (x.fallback ? " (the library's fallback)"
                                          : x.ruled_out()
                                              ? " (" + failure_words(x.failed) + " there)"
                                              : ""));
    const auto over = [us](const VariantResult* b) {
      return b ? format_speedup(ratio(b->best.median_us, us)) : std::string("n/a");
    };
    const VariantResult* seed = pr.baseline("seed");
    const VariantResult* cus = pr.baseline("cusparse");
    if (x.timed()) {
      beaten += (seed && seed->best.median_us < us) || (cus && cus->best.median_us < us);
      both += seed && cus;
      if (!seed && !cus) unmatched.push_back(pr.key.label());
    }
    std::vector<std::string> r{
        pr.key.label(),
        (x.fallback ? x.name() : "`" + x.kernel + "`" + (x.sweep ? " (the rule's sweep)" : "")) +
            (x.shape_unknown ? " (the catch-all's: no graph features in the store, a guess)" : ""),
        x.ruled_out() ? "**" + failure_words(x.failed) + " here**"
        : x.timed()   ? format_us(us)
                      : "not timed here",
        x.stage >= 0 ? std::to_string(x.stage) : "",
        pr.winner ? fmt(us / pr.winner->median_us, 3) : "n/a",
        over(seed),
        over(cus)};
    for (const auto& i : impls) {
      const PeerResult* p = find_peer(peers, pr.key, i);
      r.push_back(p ? format_speedup(ratio(p->median_us, us)) : "n/a");
    }
    rows.push_back(std::move(r));
  }
  if (rows.empty()) {
    doc.para("No rule: the run has no correct fused trial, so its header would dispatch nothing.");
    return;
  }
  doc.table(head, rows, align);
  std::string note =
      "What the library built with this run's header runs on each problem (its dispatch's first "
      "matching rule; the column-blocked sweep attached to that rule where the library runs one, "
      "with a Shape from the graph's device arrays) and that kernel's median in this run. "
      "`/ winner` is that median over the problem's fastest fused kernel: above 1 where the rule "
      "shares one kernel across its bucket, below 1 for a sweep or, within the noise, a kernel "
      "the winner tied with. ";
  // Said of the baselines timed: a problem without one holds the dispatch to nothing.
  const int matched = timed - static_cast<int>(unmatched.size());
  if (beaten)
    note += "**On " + std::to_string(beaten) + " of the " + std::to_string(matched) +
            " timed problems with a baseline timed, a baseline's median is lower than the "
            "dispatch's.** ";
  else if (matched > 0)
    note += "On each of the " + std::to_string(matched) +
            " timed problems with a baseline timed, the dispatch's median is below every "
            "baseline's timed there (both seed and cuSPARSE on " +
            std::to_string(both) + "). ";
  if (!unmatched.empty()) {
    note += "No baseline timed on " + std::to_string(unmatched.size()) + ": ";
    for (size_t i = 0; i < unmatched.size(); ++i) note += (i ? ", " : "") + unmatched[i];
    note += ". ";
  }
  if (!untimed.empty()) {
    note +=
        "Not timed (a rule taken from its bucket's largest problem or a catch-all, a problem "
        "whose fused trials all failed, a kernel ruled out there, the fallback): ";
    for (size_t i = 0; i < untimed.size(); ++i) note += (i ? ", " : "") + untimed[i];
    note += ".";
  }
  doc.para(note);
}

void problem_section(Doc& doc, const RunData& d, const ProblemResults& pr, const Peers& peers) {
  doc.heading(3, pr.key.label());
  const auto& f = pr.features;
  std::string shape = "Graph `" + pr.key.graph + "` (" +
                      (pr.spec.empty() ? "spec not recorded" : "`" + pr.spec + "`") + ")";
  if (f.is_object() && f.contains("num_nodes"))
    shape += ": N = " + jstr(f, "num_nodes") + " nodes, E = " + jstr(f, "num_edges") +
             " edges, degree mean " + fmt(jnum(f, "mean_degree"), 2) + ", max " +
             jstr(f, "max_degree") + ", CV " + fmt(jnum(f, "cv_degree"), 2) + ", " +
             jstr(f, "empty_rows") + " empty rows.";
  else
    shape += ": no shape features in the store, so the byte model is unavailable.";
  doc.para(shape);
  const Model& m = pr.model;
  if (m.known) {
    std::string t = "Model: values " + format_bytes(m.values_bytes) +
                    (m.values_fit_l2 ? " (fit in L2" : " (exceed L2") +
                    (d.roofs.l2_bytes > 0 ? " of " + format_bytes(d.roofs.l2_bytes) + ")"
                                          : ", L2 size unknown)") +
                    "; compulsory bytes " + format_bytes(m.compulsory_bytes);
    if (!m.values_fit_l2) t += ", gather bytes " + format_bytes(m.gather_bytes);
    t += "; " + fmt(m.flops / 1e6, 3) + " MFLOP.";
    if (m.floor_us > 0) {
      t += " Floor " + format_us(m.floor_us) + " us (compulsory bytes at the " +
           d.roofs.dram_roof_name() + " ceiling)";
      if (m.gather_estimate_us > 0)
        t += ", gather estimate " + format_us(m.gather_estimate_us) +
             " us (the model's traffic at the same ceiling: uniformly random sources; a skewed "
             "graph or a feature-sliced kernel can beat it)";
      t += ".";
    }
    if (pr.winner && m.floor_us > 0) {
      t += " The winner takes " + fmt(pr.winner->median_us / m.floor_us, 2) + "x the floor";
      if (m.gather_estimate_us > 0)
        t +=
            " and " + fmt(pr.winner->median_us / m.gather_estimate_us, 2) + "x the gather estimate";
      t += ".";
    }
    if (m.l2_floor_us > 0) {
      t += " L2 floor " + format_us(m.l2_floor_us) +
           " us (the gather bytes at the L2 gather ceiling: every gather an L2 access)";
      // The ceiling's rows against this problem's (a head's F values): shorter rows gather
      // slower than the ceiling's, so the floor is optimistic for them.
      const nlohmann::json gm = ceilings_method(d.run.ceilings);
      const double ceiling_row =
          jnum(gm.contains("l2_gather") ? gm["l2_gather"] : nlohmann::json(), "row_bytes");
      const int row = pr.key.feat * value_bytes(pr.key.value);
      if (std::isfinite(ceiling_row) && ceiling_row > 0 && row != static_cast<int>(ceiling_row))
        t += " (measured on " + fmt(ceiling_row, 0) + "-byte rows; this problem's are " +
             std::to_string(row) + "-byte" + (row < ceiling_row ? ", so it is optimistic)" : ")");
      if (pr.winner)
        t += "; the winner takes " + fmt(pr.winner->median_us / m.l2_floor_us, 2) + "x it";
      t += ".";
    }
    // The floors count bytes only (DRAM's and, values in L2, L2's); below the launch latency a
    // problem is launch-bound.
    if (d.roofs.launch_us_plain > 0 &&
        std::max(m.floor_us, m.l2_floor_us) < d.roofs.launch_us_plain)
      t += " Launch-bound: the floor is below one plain launch (" +
           format_us(d.roofs.launch_us_plain) + " us event time; " +
           format_us(d.roofs.launch_us_graph) + " us inside a CUDA graph).";
    doc.para(t);
  }

  std::vector<std::vector<std::string>> rows;
  auto row = [&](const std::string& role, const VariantResult& v) {
    const auto& t = v.best;
    const Achieved& a = v.perf;
    const double wus = pr.winner ? pr.winner->median_us : std::nan("");
    rows.push_back({role, "`" + v.variant + "`", std::to_string(t.stage), format_us(t.median_us),
                    spread(t), format_pct(t.rel_noise), std::to_string(t.samples), t.timer,
                    marked(a.dram_gbs, 1, a.dram_model), marked(a.l2_gbs, 1, a.l2_model),
                    marked(a.ai, 3, a.dram_model || a.flops_model),
                    marked(a.gflops, 1, a.flops_model),
                    marked(a.pct_roof, 1, a.dram_model || a.flops_model),
                    pr.winner ? fmt(t.median_us / wus, 3) : "n/a"});
  };
  std::set<std::string> shown;
  if (pr.winner) {
    if (const VariantResult* v = pr.find(pr.winner->variant)) {
      row("winner", *v);
      shown.insert(v->variant);
    }
    int rank = 2;
    for (const auto& [id, us] : pr.winner->runners_up) {
      if (const VariantResult* v = pr.find(id)) {
        row("#" + std::to_string(rank++), *v);
        shown.insert(id);
      }
    }
  } else {
    doc.para("**No correct fused variant** on this problem; the baselines that ran are listed.");
  }
  // The baselines, and the fastest column-blocked sweep (colblock.*: not a rule's kernel, but
  // what the header runs instead where it attaches one and a Shape holds its plan).
  for (const char* fam : {"seed", "cusparse", "colblock"}) {
    const VariantResult* b = pr.baseline(fam);
    if (b) row(fam, *b);
  }
  for (const auto& p : peers.results) {
    if (p.graph != pr.key.graph || p.feat != pr.key.feat ||
        (p.heads > 0 && p.heads != pr.key.heads))
      continue;
    const double wus = pr.winner ? pr.winner->median_us : std::nan("");
    rows.push_back({"peer", p.impl + " (rel. error " + sci(p.rel_error) + ")", "",
                    format_us(p.median_us), format_us(p.q1_us) + "–" + format_us(p.q3_us), "",
                    std::to_string(p.samples), "CUDA events", "", "", "", "", "",
                    pr.winner ? fmt(p.median_us / wus, 3) : "n/a"});
  }
  if (!rows.empty())
    doc.table({"", "variant", "stage", "median us", "q1–q3 us", "rel. noise", "samples", "timer",
               "DRAM GB/s", "L2 GB/s", "FLOP/B", "GFLOP/s", "% of roof", "/ winner"},
              rows, "llrrrrrlrrrrrr");

  if (pr.winner) {
    const auto& w = *pr.winner;
    std::vector<std::string> sp;
    sp.push_back(format_speedup(ratio(w.seed_us, w.median_us)) + " over seed (" +
                 format_us(w.seed_us) + " us)");
    sp.push_back(format_speedup(ratio(w.cusparse_us, w.median_us)) + " over softmax + cuSPARSE (" +
                 format_us(w.cusparse_us) + " us)");
    for (const auto& i : peer_impls(peers))
      if (const PeerResult* p = find_peer(peers, pr.key, i))
        sp.push_back(format_speedup(ratio(p->median_us, w.median_us)) + " over " + i + " (" +
                     format_us(p->median_us) + " us, peers JSON)");
    std::string s = "Speedup of the winner: ";
    for (size_t i = 0; i < sp.size(); ++i) s += (i ? ", " : "") + sp[i];
    doc.para(s + ".");
    const VariantResult* v = pr.find(w.variant);
    if (v && !v->counters.available)
      doc.para("Counters of the winner unavailable (" + v->counters.why +
               "): its DRAM/L2/FLOP numbers are the model's.");
  }
  if (!pr.disqualified.empty()) {
    std::string s = "Disqualified (a wrong, crashed or hung trial in some stage): ";
    bool first = true;
    for (const auto& [id, why] : pr.disqualified) {
      s += (first ? "`" : ", `") + id + "` (" + failure_words(why) + ")";
      first = false;
    }
    doc.para(s + ".");
  }
}

void failures_section(Doc& doc, const RunData& d) {
  doc.heading(2, "Trial statuses");
  std::vector<std::vector<std::string>> counts;
  for (const auto& [s, n] : d.status_counts) counts.push_back({s, std::to_string(n)});
  doc.table({"status", "trials"}, counts, "lr");
  if (d.failures.empty()) return;
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : d.failures) {
    if (rows.size() == 100) break;
    std::string detail = t.detail.substr(0, t.detail.find('\n')).substr(0, 160);
    rows.push_back({t.graph, std::to_string(t.feat), std::to_string(t.heads), "`" + t.variant + "`",
                    std::to_string(t.stage), t.status, detail});
  }
  doc.para("Failed trials" +
           std::string(d.failures.size() > 100
                           ? " (the first 100 of " + std::to_string(d.failures.size()) + ")"
                           : "") +
           ": a failure is a result, never a crash of the sweep.");
  doc.table({"graph", "F", "H", "variant", "stage", "status", "detail"}, rows, "lrrlrll");
}

void time_section(Doc& doc, const RunData& d) {
  if (d.times.empty()) return;
  doc.heading(2, "Tuning time");
  const char* const phases[] = {"prepare", "load", "verify", "measure", "counters"};
  bool timed = false, built = false;
  for (const auto& p : d.times) {
    timed = timed || p.timed > 0;
    built = built || p.build_s >= 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : d.times) {
    std::vector<std::string> row{p.problem, std::to_string(p.trials), fmt(p.span_s, 0)};
    if (built) row.push_back(p.build_s >= 0 ? fmt(p.build_s, 1) : "n/a");
    if (timed)
      for (const char* ph : phases) {
        const auto it = p.phase_s.find(ph);
        row.push_back(p.timed && it != p.phase_s.end() ? fmt(it->second, 1) : "n/a");
      }
    rows.push_back(std::move(row));
  }
  std::vector<std::string> head{"problem", "trials", "first to last trial, s"};
  std::string align = "lrr";
  if (built) {
    head.push_back("build, s");
    align += "r";
  }
  if (timed)
    for (const char* ph : phases) {
      head.push_back(std::string(ph) + ", s");
      align += "r";
    }
  doc.para(
      "Per problem, in the order measured: the trials a worker ran, the time from its first "
      "trial's end to its last's (stored times, 1 s resolution; carried-over trials keep their "
      "own, so a problem stopped and finished in another call spans the gap)" +
      std::string(timed ? ", and the worker's phase times summed over its trials (preparing the "
                          "problem, loading kernels, the check against the reference, timing, "
                          "hardware counters). A problem is built (graph, inputs, float64 "
                          "reference, device copy) before its first trial, outside these sums "
                          "(`build`, where the run recorded it; `prepare` counts only rebuilds "
                          "inside a trial, after a worker had to start again)."
                        : ". This run's trials carry no phase times (recorded since the "
                          "fourteenth session's tuner)."));
  doc.table(head, rows, align);
  if (d.counter_collections > 0) {
    double total = 0;
    for (const auto& [step, sec] : d.counter_steps_s) total += sec;
    std::string parts;
    for (const auto& [sec, step] : tuner::phases_longest_first(nlohmann::json(d.counter_steps_s)))
      parts += (parts.empty() ? "" : ", ") + step + " " + fmt(sec, 1) + " s";
    doc.para("Hardware counters: " + std::to_string(d.counter_collections) + " collections, " +
             fmt(total, 1) + " s of host time (" + fmt(total / d.counter_collections, 3) +
             " s each), by step, longest first: " + parts +
             ". `replay` is the launch and CUPTI's passes over it; `enable`, `configure`, "
             "`decode` and `disable` the range profiler's set-up and teardown, and `pause` and "
             "`resume` the activity tracing stopped around each collection.");
  }
  if (d.slowest.empty()) return;
  std::vector<std::vector<std::string>> slow;
  for (const auto& t : d.slowest) {
    std::string parts;
    for (const auto& [sec, name] : trial_phases(t))
      parts += (parts.empty() ? "" : ", ") + name + " " + fmt(sec, 2);
    slow.push_back({problem_label(t), "`" + t.variant + "`", std::to_string(t.stage),
                    fmt(phase_total_s(t), 2), parts});
  }
  doc.para("The slowest trials by their phase times:");
  doc.table({"problem", "variant", "stage", "seconds", "phases, s"}, slow, "llrrl");
}

nlohmann::json summary_json(const RunData& d, const Peers& peers, const PlotOutcome& plot) {
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& pr : d.problems) {
    nlohmann::json p{{"graph", pr.key.graph},
                     {"feat", pr.key.feat},
                     {"heads", pr.key.heads},
                     {"value", to_string(pr.key.value)},
                     {"index", to_string(pr.key.index)},
                     {"model",
                      {{"known", pr.model.known},
                       {"compulsory_bytes", pr.model.compulsory_bytes},
                       {"gather_bytes", pr.model.gather_bytes},
                       {"values_fit_l2", pr.model.values_fit_l2},
                       {"flops", pr.model.flops},
                       {"floor_us", pr.model.floor_us},
                       {"gather_estimate_us", pr.model.gather_estimate_us}}}};
    if (pr.winner) {
      const auto& w = *pr.winner;
      const VariantResult* v = pr.find(w.variant);
      const Achieved a = v ? v->perf : Achieved{};
      auto finite = [](double x) {
        return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
      };
      p["winner"] = {{"variant", w.variant},
                     {"stage", w.stage},
                     {"median_us", w.median_us},
                     {"q1_us", w.q1_us},
                     {"q3_us", w.q3_us},
                     {"rel_noise", finite(w.rel_noise)},
                     {"timer", w.timer},
                     {"throttled", w.throttled},
                     {"dram_gbs", finite(a.dram_gbs)},
                     {"dram_from_model", a.dram_model},
                     {"l2_gbs", finite(a.l2_gbs)},
                     {"l2_from_model", a.l2_model},
                     {"ai", finite(a.ai)},
                     {"gflops", finite(a.gflops)},
                     {"pct_roof", finite(a.pct_roof)},
                     {"speedup_seed", finite(ratio(w.seed_us, w.median_us))},
                     {"speedup_cusparse", finite(ratio(w.cusparse_us, w.median_us))}};
      nlohmann::json ru = nlohmann::json::array();
      for (const auto& [id, us] : w.runners_up) ru.push_back({{"variant", id}, {"median_us", us}});
      p["runners_up"] = ru;
      nlohmann::json ps = nlohmann::json::object();
      for (const auto& i : peer_impls(peers))
        if (const PeerResult* q = find_peer(peers, pr.key, i))
          ps[i] = finite(ratio(q->median_us, w.median_us));
      if (!ps.empty()) p["winner"]["speedup_peers"] = ps;
    }
    if (const Dispatch& x = pr.dispatch; x.any()) {
      const auto over = [&x](double base_us) {
        return x.timed() && std::isfinite(base_us) ? nlohmann::json(base_us / x.median_us)
                                                   : nlohmann::json();
      };
      const VariantResult* seed = pr.baseline("seed");
      const VariantResult* cus = pr.baseline("cusparse");
      nlohmann::json j = dispatch_json(x);
      j["over_winner"] = pr.winner && x.timed() ? nlohmann::json(x.median_us / pr.winner->median_us)
                                                : nlohmann::json();
      j["speedup_seed"] = over(seed ? seed->best.median_us : NAN);
      j["speedup_cusparse"] = over(cus ? cus->best.median_us : NAN);
      nlohmann::json ps = nlohmann::json::object();
      for (const auto& i : peer_impls(peers))
        if (const PeerResult* q = find_peer(peers, pr.key, i)) ps[i] = over(q->median_us);
      if (!ps.empty()) j["speedup_peers"] = ps;
      p["dispatch"] = std::move(j);
    }
    problems.push_back(std::move(p));
  }
  nlohmann::json times = nlohmann::json::array();
  for (const auto& t : d.times)
    times.push_back(
        {{"problem", t.problem},
         {"trials", t.trials},
         {"span_s", t.span_s},
         {"timed_trials", t.timed},
         {"phase_s", t.phase_s},
         {"build_s", t.build_s >= 0 ? nlohmann::json(t.build_s) : nlohmann::json(nullptr)}});
  return {
      {"meta", {{"tool", "tuner report"}, {"format", 1}, {"generated", tuner::now_iso8601()}}},
      {"run",
       {{"id", d.run.id},
        {"name", d.run.name},
        {"gpu_name", d.run.gpu_name},
        {"gpu_uuid", d.run.gpu_uuid},
        {"driver", d.run.driver}}},
      {"ceilings",
       {{"dram_gbs", d.roofs.dram_gbs},
        {"dram_read_gbs", d.roofs.dram_read_gbs},
        {"dram_roof_gbs", d.roofs.dram_roof_gbs()},
        {"dram_roof", d.roofs.dram_roof_name()},
        {"l2_gbs", d.roofs.l2_gbs},
        {"l2_gather_gbs", d.roofs.l2_gather_gbs},
        {"fp32_gflops", d.roofs.fp32_gflops}}},
      {"charts",
       {{"ok", plot.ok}, {"files", plot.files}, {"note", plot.note}, {"python", plot.python}}},
      {"graphs", d.graphs},
      {"problems", problems},
      {"tuning_time", times},
      {"counter_steps", {{"collections", d.counter_collections}, {"wall_s", d.counter_steps_s}}}};
}

}  // namespace

Peers load_peers(const std::string& path) {
  // A FIFO would block the report forever (and tuner run reads it twice: checked, then read).
  if (const std::string why =
          tuner::input_file_problem(path, "peers file", tuner::Folders::refused);
      !why.empty())
    throw std::runtime_error(why);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read peers file '" + path + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error("peers file '" + path + "' is not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
    throw std::runtime_error("peers file '" + path +
                             "' has no \"results\" array (write it with scripts/peers_pyg.py)");
  Peers p;
  p.meta = j.value("meta", nlohmann::json::object());
  const auto& results = j["results"];
  for (size_t index = 0; index < results.size(); ++index) {
    const auto& r = results[index];
    if (!r.is_object() || !r.contains("median_us") || !r["median_us"].is_number())
      continue;  // a failed peer run
    PeerResult x;
    try {  // a field of the wrong type: named in this file, not blamed on the run reported
      x.graph = r.value("graph", "");
      x.impl = r.value("impl", "peer");
      x.feat = r.value("feat", 0);
      x.heads = r.contains("heads") && r["heads"].is_number() ? r["heads"].get<int>() : 0;
      x.median_us = r["median_us"].get<double>();
      x.q1_us = jnum(r, "q1_us");
      x.q3_us = jnum(r, "q3_us");
      x.rel_error = jnum(r, "rel_error");
      x.samples = r.value("samples", 0);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error("peers file '" + path + "': results[" + std::to_string(index) +
                               "]: " + e.what());
    }
    p.results.push_back(std::move(x));
  }
  return p;
}

namespace {
// " (took the finished problems of runs 2, 5 ...)" for a run that reused earlier runs' problems.
std::string taken_note(const std::vector<int64_t>& runs) {
  if (runs.empty()) return "";
  return " (took the finished problems of " + tuner::runs_text(runs) +
         " whose problem fingerprint and graph sources are this config's: tuner run --reuse)";
}
}  // namespace

// The charts plot_report.py draws: removed before each report, so that a failed plot leaves none.
constexpr const char* kChartFiles[] = {"roofline.png", "roofline.svg", "params.png", "params.svg"};

const std::vector<std::string>& report_files() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> f{"report.md", "report.html", "report.json", "chart_data.json"};
    f.insert(f.end(), std::begin(kChartFiles), std::end(kChartFiles));
    return f;
  }();
  return files;
}

void refuse_to_overwrite_inputs(const std::string& out_dir, const std::vector<std::string>& files,
                                const std::vector<std::string>& inputs, const std::string& what) {
  for (const std::string& name : files)
    for (const std::string& in : inputs) {
      std::error_code ec;  // either missing: nothing to overwrite
      if (!in.empty() && fs::equivalent(fs::path(out_dir) / name, in, ec))
        throw std::runtime_error("refusing to write " + what + "'s " + name + " to '" + out_dir +
                                 "': it is the input '" + in +
                                 "', which writing would destroy; give another output folder (-o)");
    }
}

void write_report(const tuner::Store& store, int64_t run_id, const std::string& out_dir,
                  const std::string& peers_json_path) {
  const RunData d = load_run(store, run_id);
  const Peers peers = peers_json_path.empty() ? Peers{} : load_peers(peers_json_path);
  const fs::path dir(out_dir);
  fs::create_directories(dir);
  // Charts of an earlier report would otherwise survive a failed plot and be inlined.
  for (const char* stale : kChartFiles) {
    std::error_code ec;
    fs::remove(dir / stale, ec);
  }
  write_file(dir / "chart_data.json", chart_data(d).dump(1) + "\n");
  const PlotOutcome plot = plot_charts((dir / "chart_data.json").string(), dir.string());

  Doc doc("csrgat tuning report: " + d.run.name + " (run " + std::to_string(d.run.id) + ")");
  int ok_trials = 0, trials = 0;
  for (const auto& [s, n] : d.status_counts) {
    trials += n;
    if (s == "ok") ok_trials += n;
  }
  doc.para("Run " + std::to_string(d.run.id) + " `" + d.run.name + "` of `" + store.path() +
           "`: started " + d.run.started + ", " +
           (d.run.finished.empty() ? "not finished" : "finished " + d.run.finished) +
           (d.run.continued_from > 0
                ? " (continues run " + std::to_string(d.run.continued_from) +
                      ", stopped on another GPU: the problems it finished were carried over)"
                : std::string()) +
           taken_note(store.runs_taken_from(d.run.id)) + "; config hash `" + d.run.config_hash +
           "`, commit `" + d.run.commit + "`, host `" + d.run.host + "`, target `" + d.run.arch +
           "`, NVRTC " + d.run.nvrtc + ". " + std::to_string(trials) + " trials (" +
           std::to_string(ok_trials) + " ok) over " + std::to_string(d.graphs.size()) +
           " graphs and " + std::to_string(d.problems.size()) +
           " problems (graph, F, H, value type, index type).");
  if (d.gpus.size() > 1) {
    // The device table below describes GPU 0 (the runs row); tuner run keeps each (graph, F,
    // H) on one GPU, and says so here, or names those that were not.
    std::map<std::string, int> gpus_of;
    for (const auto& [uuid, problems] : d.gpus)
      for (const auto& pr : problems) ++gpus_of[pr];
    std::string mixed;
    for (const auto& [pr, n] : gpus_of)
      if (n > 1) mixed += (mixed.empty() ? "" : ", ") + pr;
    std::string text = "Measured on " + std::to_string(d.gpus.size()) + " GPUs (the device table " +
                       "describes GPU 0, `" + d.run.gpu_uuid + "`), " +
                       (mixed.empty() ? std::string("each (graph, F, H) on one:")
                                      : std::string("by (graph, F, H):"));
    for (const auto& [uuid, problems] : d.gpus) {
      text += " `" + (uuid.empty() ? std::string("unknown") : uuid) + "`: ";
      bool first = true;
      for (const auto& pr : problems) text += (first ? "" : ", ") + pr, first = false;
      text += ";";
    }
    text.back() = '.';
    if (!mixed.empty())
      text +=
          " Measured on more than one GPU, so their variants were compared across chips: " + mixed +
          ".";
    doc.para(text);
  }
  device_section(doc, d);
  doc.heading(2, "Byte and FLOP model");
  doc.para(model_text());
  summary_section(doc, d, peers);
  if (!peers.results.empty()) {
    // A peer's time and the winner's are not one timer: say so, with what it costs a ratio.
    const std::string peer_timer = jstr(peers.meta, "timer");
    std::string launch;
    if (d.roofs.launch_us_plain > 0)
      launch =
          " (this run measured a plain launch at " + format_us(d.roofs.launch_us_plain) + " us)";
    doc.para("Peers from `" + peers_json_path + "` (" + jstr(peers.meta, "gpu") + ", torch " +
             jstr(peers.meta, "torch") + ", torch_geometric " +
             jstr(peers.meta, "torch_geometric") + "): timed by " +
             (peer_timer.empty() ? std::string("their own timer") : peer_timer) +
             ", against the winner's GPU time by its own timer (CUPTI's span has no launch): on "
             "a problem of a few microseconds a `vs` ratio over a peer is larger by about a "
             "launch" +
             launch +
             " than one timer would make it. Their inputs are float32 of "
             "their own generation, set against bfloat16 and float16 winners too; matched by "
             "graph name and F.");
    // Ratios over peers measured elsewhere compare two machines as much as two codes.
    const auto bare = [](std::string u) { return u.rfind("GPU-", 0) == 0 ? u.substr(4) : u; };
    const std::string pg = jstr(peers.meta, "gpu"), pu = bare(jstr(peers.meta, "gpu_uuid"));
    const std::string rg = d.run.gpu_name, ru = bare(d.run.gpu_uuid);
    if (!pg.empty() && !rg.empty() && pg != rg)
      doc.para("**Warning**: the peers were measured on " + pg + ", this run on " + rg +
               ": their ratios compare two GPUs, not two implementations on one.");
    else if (!pu.empty() && !ru.empty() && pu != ru)
      doc.para("Note: the peers were measured on another " + pg + " (`" + pu + "`) than this run (`" +
               ru + "`).");
  }

  dispatch_section(doc, d, peers);

  doc.heading(2, "Charts");
  if (plot.ok) {
    const bool params =
        std::find(plot.files.begin(), plot.files.end(), "params.svg") != plot.files.end();
    doc.para(
        "Roofline (log-log): x is arithmetic intensity (FP32 flops per DRAM byte), y is GFLOP/s; "
        "the DRAM and "
        "L2 roofs and the FP32 peak are the measured ceilings. One point per variant and problem; "
        "stars are "
        "the winners, triangles the seed baseline, squares softmax + cuSPARSE; hollow markers rest "
        "on the "
        "model. Drawn by matplotlib (" +
        plot.python + ").");
    doc.chart("![roofline](roofline.png) ([SVG](roofline.svg))",
              inline_chart(dir, "roofline", "roofline"));
    if (params) {
      doc.para(
          "Parameters on the largest problems: left, the best median per (tpr, vec) over the other "
          "parameters; right, the best time with one parameter fixed to each value over the best "
          "overall.");
      doc.chart("![parameters](params.png) ([SVG](params.svg))",
                inline_chart(dir, "params", "parameters"));
    }
  } else {
    doc.para("**Charts skipped**: " + plot.note +
             ". The chart data is in `chart_data.json`; draw it later with "
             "`python3 scripts/plot_report.py chart_data.json <dir>`.");
  }

  doc.heading(2, "Per problem");
  doc.para(
      "The winner is select_winners' choice (lowest median; medians within the combined noise tie "
      "and go to a trial timed at full clocks over one NVML saw throttled, then "
      "the higher stage, then the lower q3), then up to 4 runners-up, the baselines and any peers. "
      "Each "
      "variant's numbers are its best evidence (highest stage: 2 interleaved final, 1 full, 0 "
      "screening); "
      "counters come from the highest stage that has them. `/ winner` is the median over the "
      "winner's.");
  for (const auto& pr : d.problems) problem_section(doc, d, pr, peers);
  failures_section(doc, d);
  time_section(doc, d);

  write_file(dir / "report.md", doc.markdown());
  write_file(dir / "report.html", doc.html());
  write_file(dir / "report.json", summary_json(d, peers, plot).dump(2) + "\n");
}

void write_run_report(const tuner::Config& cfg, const tuner::Store& store, int64_t run_id) {
  const std::string out = cfg.output + "/report";
  const auto fail = [&](const std::string& why) {
    std::fprintf(stderr,
                 "report: could not write the report (%s); the results are safe in %s; retry with: "
                 "tuner report %s --run %lld\n",
                 why.c_str(), store.path().c_str(), cfg.output.c_str(),
                 static_cast<long long>(run_id));
  };
  try {
    // A stray or broken peers file must not cost the report.
    std::string peers = cfg.output + "/peers.json";
    std::error_code ec;
    if (!fs::exists(peers, ec)) {
      peers.clear();
    } else {
      try {
        load_peers(peers);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "report: ignoring peers: %s\n", e.what());
        peers.clear();
      }
    }
    write_report(store, run_id, out, peers);
    std::printf("report: %s/report.md and report.html\n", out.c_str());
  } catch (const std::exception& e) {
    fail(e.what());
  } catch (...) {
    fail("unknown error");
  }
}

}  // namespace csrgat::reports
