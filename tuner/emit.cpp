#include "tuner/emit.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "variants/arch.h"
#include "variants/params.h"

namespace csrgat::tuner {
namespace {

namespace fs = std::filesystem;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Text safe inside a /* */ or // comment: one line, no comment terminator.
std::string comment_safe(std::string s) {
  // A backslash would splice the next line into a // comment when it ends one (a graph named
  // "x\" took the header's next rule with it): every one becomes '/'.
  for (char& c : s)
    if (c == '\n' || c == '\r')
      c = ' ';
    else if (c == '\\')
      c = '/';
  for (size_t at = 0; (at = s.find("*/", at)) != std::string::npos;) s.replace(at, 2, "* /");
  return s;
}

// A C string literal: quotes and backslashes escaped, and every control character as a
// three-digit octal escape (a raw CR ends the #define's line as a newline does: the rest of the
// store's name or GPU name became a directive of its own).
std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\%03o", u);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string int_bound(int v) {
  return v == kOpenInt ? "1 << 30" : std::to_string(v);
}
std::string i64_bound(int64_t v) {
  return v == INT64_MAX ? "INT64_MAX" : std::to_string(v);
}
std::string degree_bound(double v) {
  return v >= kOpenDegree ? "1e300" : fmt("%.17g", v);
}

const char* index_type(IndexType t) {
  return t == IndexType::i64 ? "long long" : "int";
}
const char* value_type(ValueType t) {
  switch (t) {
    case ValueType::f32:
      return "float";
    case ValueType::bf16:
      return "__nv_bfloat16";
    case ValueType::f16:
      return "__half";
  }
  return "?";
}

std::string type_name(int value, int index) {
  return std::string(to_string(static_cast<ValueType>(value))) + " " +
         to_string(static_cast<IndexType>(index));
}

// `against` names what winner_us is: the problem's winner, or (a sweep's evidence) the rule's
// kernel.
std::string evidence_text(const Evidence& e, const char* against = "winner") {
  return e.graph + " F" + std::to_string(e.feat) + " H" + std::to_string(e.heads) + ": " +
         fmt("%.2f", e.median_us) + " us (q1..q3 " + fmt("%.2f", e.q1_us) + ".." +
         fmt("%.2f", e.q3_us) + " us, noise " + fmt("%.2f", 100 * e.rel_noise) + "%" +
         (e.noisy ? " over the run's target" : "") + ", stage " + std::to_string(e.stage) +
         (e.throttled ? ", throttled" : "") + "; " + against + " " + fmt("%.2f", e.winner_us) +
         " us)";
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string run_tag(const RunInfo& run) {
  return (run.gpu_name.empty() ? std::string("unknown GPU") : run.gpu_name) + ", " +
         run.started.substr(0, 10) + ", run " + std::to_string(run.id);
}

std::string status_summary(const Store& store, int64_t run_id) {
  std::map<std::string, int> n;
  size_t total = 0;
  for (const TrialRecord& t : store.trials(run_id)) {
    ++n[t.status.empty() ? "(none)" : t.status];
    ++total;
  }
  if (total == 0) return "it has no trials";
  std::string s = "its " + std::to_string(total) + " trials:";
  for (const auto& [status, count] : n) s += " " + status + " " + std::to_string(count) + ",";
  s.pop_back();
  return s;
}

}  // namespace

int arch_number(const std::string& arch) {
  // The whole form, since the name also becomes the header's file name and goes into its text.
  const auto t = parse_arch(arch);
  if (!t)
    throw std::invalid_argument("architecture '" + arch +
                                "' is not of the form sm_<compute capability>[a|f], 2 or 3 digits "
                                "without a leading zero (sm_90, sm_90a, sm_100f)");
  return t->cc;
}

std::optional<std::string> run_arch(const RunInfo& run) {
  if (run.arch.rfind("sm_", 0) == 0) return run.arch;
  // A compute capability ("9.0", "10.0") names the same target.
  const auto dot = run.arch.find('.');
  const auto digits = [](const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  if (dot != std::string::npos && digits(run.arch.substr(0, dot)) &&
      digits(run.arch.substr(dot + 1)))
    return "sm_" + run.arch.substr(0, dot) + run.arch.substr(dot + 1);
  return std::nullopt;
}

std::string default_arch(const RunInfo& run) {
  return run_arch(run).value_or("sm_90");
}

std::string emit_header(const Store& store, int64_t run_id, const std::string& arch) {
  const auto run = store.run(run_id);
  // The store's name however its path was spelled ("h200", "h200/", "h200/.", "."): the same
  // run emits the same header.
  fs::path named = fs::absolute(store.path()).lexically_normal();
  if (named.filename().empty()) named = named.parent_path();
  const std::string name = named.filename().string();
  if (!run)
    throw std::runtime_error("results store '" + store.path() + "' has no run " +
                             std::to_string(run_id));
  const auto rules = select_rules(store, run_id);
  if (rules.empty())
    throw std::runtime_error("run " + std::to_string(run_id) + " of results store '" +
                             store.path() +
                             "' has no ok trial of a fused variant (test-only variants do not "
                             "count); " +
                             status_summary(store, run_id));
  return emit_header(rules, *run, name, arch, store.runs_taken_from(run_id));
}

std::string emit_header(const std::vector<RuleChoice>& rules, const RunInfo& run,
                        const std::string& store_name, const std::string& arch,
                        const std::vector<int64_t>& took_from) {
  if (rules.empty()) throw std::invalid_argument("emit_header: no rules to emit");
  const int arch_num = arch_number(arch);

  // Distinct kernels in first-use order, with the rules that use each: variants that differ
  // only in launch-time options (split, prefetch, bm) are one compiled kernel (kernel_name());
  // slices > 1 (`.fs<T>`) is a kernel of its own (SLICED), whatever T.
  std::map<std::string, int> kernel_of;
  std::vector<VariantParams> kernels;
  std::vector<std::vector<int>> used_by;
  std::vector<int> rule_kernel;
  std::vector<VariantParams> rule_params;  // each rule's variant, parsed once
  rule_params.reserve(rules.size());  // p below refers into it
  for (size_t i = 0; i < rules.size(); ++i) {
    const VariantParams& p = rule_params.emplace_back(VariantParams::parse(rules[i].variant));
    auto [it, fresh] = kernel_of.emplace(p.kernel_name(), static_cast<int>(kernels.size()));
    if (fresh) {
      kernels.push_back(p);
      used_by.emplace_back();
    }
    used_by[it->second].push_back(static_cast<int>(i));
    rule_kernel.push_back(it->second);
  }

  std::ostringstream os;
  os << kGeneratedMarker << " from " << comment_safe(store_name) << ", run " << run.id
     << ". Do not edit by hand.\n";
  os << "// Tuned dispatch for " << comment_safe(arch) << ", measured on "
     << comment_safe(run.gpu_name.empty() ? "an unknown GPU" : run.gpu_name);
  if (!run.driver.empty()) os << " (driver " << comment_safe(run.driver) << ")";
  os << "; run " << run.id;
  if (!run.name.empty()) os << " '" << comment_safe(run.name) << "'";
  os << " started " << comment_safe(run.started);
  if (!run.config_hash.empty()) os << ", config " << comment_safe(run.config_hash);
  if (!run.commit.empty()) os << ", commit " << comment_safe(run.commit);
  if (run.continued_from > 0 || !took_from.empty()) {
    os << ".\n// Run " << run.id;
    if (run.continued_from > 0)
      os << " continues run " << run.continued_from << ", stopped on another GPU of the same model";
    if (!took_from.empty()) {
      os << (run.continued_from > 0 ? ", and" : "") << " took finished problems of " << runs_text(took_from);
      os << "\n// (tuner run --reuse: same problem fingerprint, graph sources, GPU model, driver, runtime, NVRTC and "
            "kernels)";
    }
    os << "; each trial names the GPU that measured it";
  }
  // How the trials were timed, when not the default (cold L2, single launches): a header tuned
  // for back-to-back overlapped launches serves callers that launch that way.
  const nlohmann::json timing = run.config.is_object() ? run.config.value("timing", nlohmann::json::object())
                                                       : nlohmann::json::object();
  if (timing.is_object() && (timing.value("cache", std::string("cold")) != "cold" ||
                             timing.value("graph_replay", false) || timing.value("overlap_previous", false))) {
    const bool replay = timing.value("graph_replay", false);
    const bool warm = timing.value("cache", std::string("cold")) != "cold";
    // A cold replay flushes L2 before each replay only: the launches inside it run warm.
    os << ".\n// Timed with "
       << (warm ? "warm L2, " : replay ? "L2 flushed before each replay, " : "cold L2, ")
       << (replay ? "CUDA Graph replays of back-to-back launches" : "single launches");
    if (timing.value("overlap_previous", false))
      os << ", each overlapping the previous kernel (csrgat::LaunchOptions::overlap_previous)";
  }
  // A stopped or killed run (`tuner emit --allow-unfinished`, or `tuner run`'s own header of a
  // run it left unfinished): the header says so itself, wherever it is copied.
  if (run.finished.empty())
    os << ".\n// WARNING: run " << run.id
       << " did not finish: problems it left unfinished are missing from these rules or rest on\n"
          "// screening-stage timings (continue it with tuner run --continue, then emit again)";
  os << ".\n"
        "// Rules: the first match wins (csrgat/aggregate.cpp); a shape no rule matches runs the\n"
        "// library's fallback kernel. Shape-bucket rules come first, then one catch-all per\n"
        "// value and index type. Without a csrgat::Shape the library skips max degree, split and\n"
        "// the row order of `.lpt` rules.\n"
        "// Bucket edges (tuner/select.h):\n";
  for (const auto& line : bucket_edges_text()) os << "//   " << line << "\n";
  os << "// A bucket whose best common variant is over "
     << static_cast<int>(std::lround((kSplitTolerance - 1) * 100))
     << "% slower than one of its problems' own\n"
        "// winner is split between two of its graphs (mean degree or nodes; max degree last).\n"
        "// Each rule: the variant with the lowest geometric-mean slowdown against each tuned\n"
        "// problem's own winner, over the bucket's problems.\n"
        "#pragma once\n\n"
        "#include \"csrgat/tuned_types.h\"\n\n";
  os << "#define CSRGAT_TUNED_ARCH " << arch_num << "\n";
  os << "#define CSRGAT_TUNED_SOURCE "
     << c_string(store_name + " run " + std::to_string(run.id) + " (" + run_tag(run) + ")")
     << "\n\n";

  os << "// X(name, TPR, FL, RPB, VEC, TILES, EPL, ILP, MINB, SMEM, ONLINE, LPT, SLICED, Index, Value)\n";
  os << "#define CSRGAT_TUNED_KERNELS(X) \\\n";
  for (size_t k = 0; k < kernels.size(); ++k) {
    const VariantParams& p = kernels[k];
    const RuleChoice& first = rules[used_by[k].front()];
    std::set<std::string> graphs;
    std::vector<std::string> rule_nums;
    for (int r : used_by[k]) {
      graphs.insert(rules[r].from_graphs.begin(), rules[r].from_graphs.end());
      rule_nums.push_back(std::to_string(r));
    }
    std::string note = first.variant;
    if (!first.evidence.empty()) {
      note += ": " + evidence_text(first.evidence.front());
      if (first.evidence.size() > 1)
        note += " +" + std::to_string(first.evidence.size() - 1) + " more";
    }
    note += "; rules " + join(rule_nums, ", ") + "; " + run_tag(run) + "; graphs " +
            join(std::vector<std::string>(graphs.begin(), graphs.end()), ", ");
    os << "  X(k" << k << ", " << p.tpr << ", " << p.fl << ", " << p.rpb << ", " << p.vec << ", "
       << p.tiles << ", " << p.epl << ", " << p.ilp << ", " << p.minb << ", " << p.smem << ", "
       << (p.softmax == Softmax::online ? 1 : 0) << ", " << p.lpt << ", " << (p.slices > 1 ? 1 : 0)
       << ", " << index_type(p.index) << ", "
       << value_type(p.value) << ") /* " << comment_safe(note) << " */"
       << (k + 1 < kernels.size() ? " \\" : "") << "\n";
  }

  os << "\nnamespace csrgat::tuned {\n"
        "// {value, index, feat_min, feat_max, heads_min, heads_max, mean_degree_min,\n"
        "//  mean_degree_max, max_degree_min, max_degree_max, nodes_min, nodes_max, kernel, "
        "split,\n"
        "//  variant_id, prefetch, block_merge, slices";
  // The sweeps' optional fields, named in the comment only where a rule writes them.
  const auto any_sweep = [&rules](auto pred) {
    return std::any_of(rules.begin(), rules.end(), [&pred](const RuleChoice& r) {
      return !r.colblock.empty() && pred(VariantParams::parse(r.colblock));
    });
  };
  if (any_sweep([](const VariantParams&) { return true; }))
    os << "[, colblock_rows, colblock_part_shift,\n//  colblock_lag, colblock_id, colblock_pause_ns"
       << (any_sweep([](const VariantParams& c) { return c.cb_mma != 0; })
               ? "[, colblock_l1_policy, colblock_tensor_cores]"
           : any_sweep([](const VariantParams& c) { return c.cb_l1p != 0; })
               ? "[, colblock_l1_policy]"
               : "")
       << "]";
  os << "}\n"
        "inline constexpr Rule kRules[] = {\n";
  for (size_t i = 0; i < rules.size(); ++i) {
    const RuleChoice& r = rules[i];
    const Bucket& b = r.bucket;
    os << "    // rule " << i << " (" << type_name(b.value, b.index)
       << "): " << (b.is_catch_all() ? "catch-all, " : "") << b.describe() << "\n";
    os << "    //   " << comment_safe(r.variant + ": " + r.provenance) << "\n";
    for (const Evidence& e : r.evidence)
      os << "    //   " << comment_safe(evidence_text(e)) << "\n";
    os << "    //   graphs: " << comment_safe(join(r.from_graphs, ", ")) << "\n";
    if (!r.colblock.empty()) {
      os << "    //   with a Shape from the graph's device arrays: "
         << comment_safe(r.colblock + ", " + fmt("%.3f", r.colblock_ratio) +
                         "x the rule's kernel (geometric mean over the bucket)")
         << "\n";
      for (const Evidence& e : r.colblock_evidence)
        os << "    //     " << comment_safe(evidence_text(e, "the rule's kernel")) << "\n";
    }
    os << "    {" << b.value << ", " << b.index << ", " << b.feat_min << ", "
       << int_bound(b.feat_max) << ", " << b.heads_min << ", " << int_bound(b.heads_max) << ", "
       << degree_bound(b.mean_degree_min) << ", " << degree_bound(b.mean_degree_max) << ", "
       << b.max_degree_min << ", " << i64_bound(b.max_degree_max) << ", " << b.nodes_min << ", "
       << i64_bound(b.nodes_max) << ", " << rule_kernel[i] << ", " << r.split << ", "
       << c_string(r.variant) << ", " << rule_params[i].prefetch << ", " << rule_params[i].bm
       << ", " << rule_params[i].slices;
    if (!r.colblock.empty()) {
      const VariantParams c = VariantParams::parse(r.colblock);
      // The pause it runs: the id's, or the value storage's default where the id names none.
      os << ", " << c.cb_rows << ", " << c.cb_shift << ", " << c.cb_lag << ", "
         << c_string(r.colblock) << ", "
         << colblock::poll_pause_ns_for(c.cb_pause, c.value == ValueType::f32);
      // (headers without them keep their text; the fields are positional)
      if (c.cb_l1p != 0 || c.cb_mma != 0) os << ", " << c.cb_l1p;
      if (c.cb_mma != 0) os << ", " << c.cb_mma;
    }
    os << "},\n";
  }
  os << "};\n"
        "}  // namespace csrgat::tuned\n";
  return os.str();
}

std::string rules_table(const std::vector<RuleChoice>& rules) {
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "%-3s %-8s %-84s %-64s %8s %8s  %s\n", "#", "type", "bucket",
                "variant", "split", "slowdown", "graphs");
  os << line;
  for (size_t i = 0; i < rules.size(); ++i) {
    const RuleChoice& r = rules[i];
    const std::string bucket = r.bucket.is_catch_all() ? "catch-all" : r.bucket.describe();
    std::snprintf(line, sizeof line, "%-3zu %-8s %-84s %-64s %8lld %8.3f  ", i,
                  type_name(r.bucket.value, r.bucket.index).c_str(), bucket.c_str(),
                  r.variant.c_str(), static_cast<long long>(r.split), r.geomean_slowdown);
    os << line << join(r.from_graphs, ",") << "\n";
    if (!r.colblock.empty())
      os << "    with a Shape from the device graph: " << r.colblock << ", "
         << fmt("%.3f", r.colblock_ratio) << "x the rule's kernel\n";
  }
  return os.str();
}

void write_header_file(const std::string& text, const std::string& path) {
  std::error_code ec;
  // A link is written through (its target is replaced, the link kept); a path that exists and is
  // not a regular file (/dev/null, /dev/stdout, a pipe) is written into, never renamed over.
  fs::path target(path);
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    target = fs::weakly_canonical(target, ec);
    if (ec) throw std::runtime_error("cannot resolve the link '" + path + "': " + ec.message());
  }
  refuse_to_overwrite_store(target.string(), "the header");
  const auto write_to = [&](const fs::path& p) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    return static_cast<bool>(out);
  };
  const fs::file_status st = fs::status(target, ec);
  if (fs::is_directory(st))
    throw std::runtime_error("'" + path + "' is a folder; give the header's file path");
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    if (!write_to(target)) throw std::runtime_error("cannot write '" + path + "'");
    return;
  }
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec)
      throw std::runtime_error("cannot create folder '" + target.parent_path().string() +
                               "' for '" + path + "': " + ec.message());
  }
  // Same folder as the target, so the rename stays on one file system and is atomic.
  const fs::path tmp = target.string() + ".tmp" + std::to_string(::getpid());
  if (!write_to(tmp)) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot write '" + tmp.string() + "' (for '" + path + "')");
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp, ignore);
    throw std::runtime_error("cannot rename '" + tmp.string() + "' to '" + path +
                             "': " + ec.message());
  }
}

}  // namespace csrgat::tuner
