#include "tuner/cli/commands.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "graphs/csr.h"
#include "graphs/features.h"
#include "graphs/generate.h"
#include "tuner/config.h"
#include "tuner/device_problem.h"
#include "tuner/emit.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/space.h"
#include "tuner/store.h"
#include "tuner/verify.h"
#include "tuner/worker.h"

namespace csrgat::tuner {
namespace {
int g_exit = 0;

int default_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }


void add_graph_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("graph-info", "Shape features of a graph file or generator spec, as JSON");
  static std::string spec;
  cmd->add_option("graph", spec, "file (.mtx, .mtx.gz, SNAP .txt) or spec (uniform:n=1000,deg=16)")->required();
  cmd->callback([] {
    guarded("graph-info", [] {
      check_graph_spec("graph", spec);
      std::cout << graphs::graph_info_json(spec) << "\n";
      return 0;
    });
  });
}

// The graphs of a config as `tuner list --graphs` prints them: each entry's name, its spec (a
// file's path made absolute, as a run reads it; the text as written in `spec_text`), its feature
// widths and head counts, and the value types its problems take (the graph's own, else the
// space's).
nlohmann::json config_graphs_json(const Config& cfg) {
  nlohmann::json graphs = nlohmann::json::array();
  for (const auto& g : cfg.graphs) {
    nlohmann::json values = nlohmann::json::array();
    for (const ValueType v : g.value.empty() ? space_of(cfg, g).value : g.value)
      values.push_back(to_string(v));
    graphs.push_back({{"name", g.name},
                      {"spec", g.spec},
                      {"spec_text", g.spec_text},
                      {"feat", g.feat},
                      {"heads", g.heads},
                      {"value", values}});
  }
  return {{"config", cfg.name}, {"graphs", graphs}};
}

void add_list(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "Variants that survive the constraints per problem, and why the others were pruned");
  static std::string path;
  static bool show_pruned = false;
  static bool graphs_only = false;
  cmd->add_option("config", path, "config YAML")->required();
  cmd->add_flag("--pruned", show_pruned, "also list every pruned variant with its reason");
  cmd->add_flag(
         "--graphs", graphs_only,
         "print only the config's graphs, as JSON (name, spec with a file made absolute, feat, "
         "heads, value types; a `base:` config's inherited ones too): what scripts/peers_pyg.py "
         "times, read as the tuner reads it")
      ->excludes("--pruned");
  cmd->callback([] {
    guarded("list", [] {
      const Config cfg = load_config(path);
      if (graphs_only) {
        std::cout << config_graphs_json(cfg).dump(2) << "\n";
        return 0;
      }
      try {  // listing needs no graph file, but a run would refuse the config
        check_config_graphs(cfg);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "tuner list: warning: %s (tuner run and check refuse it)\n", e.what());
      }
      std::optional<ConfigError> refused;  // the first problem no variant survives for
      for (const auto& pr : problems(cfg)) {
        const auto cands = enumerate(cfg, pr);
        if (!refused) {
          try {
            check_problem_space(cfg, pr, cands);
          } catch (const ConfigError& e) {
            refused = e;
          }
        }
        size_t kept = 0;
        for (const auto& c : cands) kept += c.pruned.empty();
        std::printf("%s F=%d H=%d: %zu variants, %zu pruned\n", pr.graph_name.c_str(), pr.feat,
                    pr.heads, kept, cands.size() - kept);
        for (const auto& c : cands) {
          if (c.pruned.empty()) std::printf("  %s\n", c.params.id().c_str());
          else if (show_pruned) std::printf("  - %s: %s\n", c.params.id().c_str(), c.pruned.c_str());
        }
      }
      // Listed first (the pruning reasons are how to find the constraint), then refused as
      // compile, run and check refuse it.
      if (refused) throw *refused;
      return 0;
    });
  });
}

void add_compile(CLI::App& app) {
  auto* cmd = app.add_subcommand("compile", "Compile every variant of a config through NVRTC (no GPU needed); lists failures");
  static std::string path, cache;
  static int threads = 0;
  static std::string arch;
  cmd->add_option("config", path, "config YAML")->required();
  cmd->add_option("--threads", threads, "parallel compiles (default: all cores)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--cache", cache, "cubin cache folder (default: <output>/cache)");
  cmd->add_option("--arch", arch, "override the config's architecture (sm_90)");
  cmd->callback([] {
    guarded("compile", [] {
      const Config cfg = load_config(path);
      check_space(cfg);  // a problem no variant survives for is the config's error
      if (!arch.empty())
        if (const std::string why = NvrtcCompiler::arch_problem(arch); !why.empty())
          throw std::invalid_argument("compile --arch: " + why);
      const auto variants = unique_variants(cfg);
      const std::string cache_dir = cache.empty() ? cfg.output + "/cache" : cache;
      NvrtcCompiler compiler(arch.empty() ? cfg.arch : arch, cache_dir,
                             test_knob_defines(cfg.test_only.slow_percent));
      std::printf("compiling %zu variants (%zu kernels) for %s with NVRTC %s (%d threads, cache %s)\n",
                  variants.size(), distinct_kernels(variants), compiler.arch().c_str(),
                  NvrtcCompiler::nvrtc_version().c_str(),
                  threads ? threads : default_threads(), cache_dir.c_str());
      const auto out = compile_all(compiler, variants, threads ? threads : default_threads());
      int failed = 0, cached = 0;
      for (const auto& o : out) {
        if (!o.ok) {
          ++failed;
          std::printf("FAILED %s\n%s\n", o.params.id().c_str(), o.error.c_str());
        } else {
          cached += o.kernel.from_cache;
          std::printf("ok     %-72s regs %3d spill %4d smem %6d%s\n", o.params.id().c_str(),
                      o.kernel.registers, o.kernel.spill_bytes, o.kernel.static_smem,
                      o.kernel.from_cache ? " (cached)" : "");
        }
      }
      std::printf("%zu compiled, %d from cache, %d failed\n", out.size() - failed, cached, failed);
      return failed ? 1 : 0;
    });
  });
}

void add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Tune: verify, time and profile every variant on every graph; write results, header, report");
  static std::string path;
  cmd->add_option("config", path, "config YAML")->required();
  static bool continue_elsewhere = false;
  cmd->add_flag("--continue", continue_elsewhere,
                "Continue this config's run stopped on another GPU of the same model, driver, CUDA "
                "runtime, NVRTC and kernel sources: its finished problems are carried over, the "
                "rest measured here from the start");
  static bool reuse = false;
  cmd->add_flag("--reuse", reuse,
                "Take each problem that an earlier run in the store finished, on a GPU of the same "
                "model, driver, CUDA runtime, NVRTC and kernel sources, with the same graph, F, H, "
                "space, constraints, strategy and timing (its problem fingerprint), instead of "
                "measuring it again: a config that changes a few graphs' search re-measures only those");
  cmd->callback([] {
    guarded("run", [] {
      const Config cfg = load_config(path);  // a bad config is reported before the GPU check
      check_space(cfg);  // as is a problem that no variant survives the constraints for
      // A fresh run needs every graph file; one that resumes, continues or reuses may have
      // finished the graphs whose files are gone (run_tuning checks the rest once it knows).
      if (!continue_elsewhere && !reuse && !std::filesystem::exists(store_path(cfg)))
        if (const int rc = check_config_graphs_first("run", cfg); rc != 0) return rc;
      std::string why;
      if (!gpu_available(&why)) return no_gpu_exit("run", why);
      return run_tuning(cfg, continue_elsewhere, reuse);
    });
  });
}

void add_worker(CLI::App& app) {
  auto* cmd = app.add_subcommand("worker", "Internal: serve trials for one GPU over stdin/stdout (started by tuner run)");
  static int device = 0;
  cmd->add_option("--device", device, "CUDA device index");
  cmd->callback([] { set_exit_code(worker_main(device)); });
}

}  // namespace

int exit_code() { return g_exit; }
void set_exit_code(int code) { g_exit = code; }

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

void check_graph_spec(const std::string& what, const std::string& spec) {
  const graphs::SpecForm form = graphs::spec_form(spec);
  if (form.spec.empty()) throw std::invalid_argument(what + ": an empty graph spec");
  // A file spec (file:PATH, or a path with a graph file's extension) must name a readable file;
  // anything else is the spec parser's to name (an unknown generator kind, say).
  const bool file_form = form.spec.rfind("file:", 0) == 0;
  std::string why;
  if (file_form && form.path.empty())
    why = "'file:' needs a path";
  else if (form.generator.empty() && (file_form || graphs::has_graph_file_extension(form.spec)))
    why = input_file_problem(form.path, "graph file", Folders::refused);
  if (!why.empty()) throw std::invalid_argument(what + " '" + spec + "': " + why);
  try {
    graphs::estimate_edges(form.spec);  // the generator's keys and values, a file's extension
  } catch (const std::exception& e) {   // (its message names the spec)
    throw std::invalid_argument(what + ": " + e.what());
  }
}

void check_config_graphs(const Config& cfg) {
  for (const GraphEntry& g : cfg.graphs) {
    const graphs::SpecForm form = graphs::spec_form(g.spec);
    if (!form.generator.empty()) continue;  // load_config checked it
    if (const std::string why = input_file_problem(form.path, "graph file", Folders::refused);
        !why.empty())
      throw std::invalid_argument(file_of(cfg, "graphs") + ": graph '" + g.name + "': " + why);
    try {  // its header (a banner, a size line), as bench --graph reads it
      graphs::estimate_edges(form.spec);
    } catch (const std::exception& e) {
      throw std::invalid_argument(file_of(cfg, "graphs") + ": graph '" + g.name + "': " + e.what());
    }
  }
}

int check_config_graphs_first(const char* command, const Config& cfg) {
  try {
    check_config_graphs(cfg);
    return 0;
  } catch (const std::exception& e) {
    std::string why;
    if (gpu_available(&why)) throw;
    std::fprintf(stderr, "tuner %s: error: %s\n", command, e.what());
    return no_gpu_exit(command, why);
  }
}

void check_output_path(const std::string& what, const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw std::invalid_argument(what + " " + path + ": is a folder, not a file");
  if (fs::exists(path, ec)) {  // a file (or /dev/stdout, /dev/null): its own permission
    if (::access(path.c_str(), W_OK) != 0)
      throw std::invalid_argument(what + " " + path + ": is not writable: " + std::strerror(errno));
    return;
  }
  const fs::path parent =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(parent, ec))
    throw std::invalid_argument(what + " " + path + ": the folder " + parent.string() +
                                " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw std::invalid_argument(what + " " + path + ": the folder " + parent.string() +
                                " is not writable: " + std::strerror(errno));
}

VariantParams parse_variant_arg(const std::string& what, const std::string& id,
                                const std::string& hint) {
  VariantParams p;
  try {
    p = VariantParams::parse(id);
  } catch (const std::exception& e) {  // (its message names the id)
    throw std::invalid_argument(what + ": " + e.what() + hint);
  }
  // The parser takes the parts it knows in any order and fills in the ones left out (it reads
  // the store's ids); an id typed on the command line must be one the space can hold, as the
  // tuner writes it, so that what runs is what the id says.
  if (const std::string why = p.invalid_reason(); !why.empty())
    throw std::invalid_argument(what + ": variant id '" + id + "' is invalid: " + why);
  if (p.fault != 0 || p.delay_ns != 0)
    throw std::invalid_argument(what + ": '" + id +
                                "' is a test-only variant (a config's test_only.fault_variants "
                                "runs it)");
  if (p.id() != id)
    throw std::invalid_argument(what + ": '" + id +
                                "' is not a variant id as the tuner writes it (every part once, "
                                "in its order, none left out): did you mean '" +
                                p.id() + "'?" + hint);
  return p;
}

std::vector<std::string> nonempty_list(const std::string& what, const std::string& s) {
  std::vector<std::string> items = split_list(s);
  if (items.empty()) throw std::invalid_argument(what + " '" + s + "': names nothing");
  return items;
}

CLI::Validator seed_validator() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || ptr != s.data() + s.size())
          return "a seed is a decimal integer from 0 to 18446744073709551615, not '" + s + "'";
        s = std::to_string(v);  // "010" is ten (CLI11 would read a leading 0 as octal)
        return "";
      },
      "UINT64");
}

int no_gpu_exit(const std::string& command, const std::string& why) {
  std::fprintf(
      stderr,
      "tuner %s: needs a CUDA GPU, and none is usable here (%s).\n"
      "Without a GPU you can still: tuner compile <config> (NVRTC-compile every variant),\n"
      "tuner list <config>, tuner graph-info <graph>, tuner emit <results.sqlite>,\n"
      "tuner promote <header>, tuner report <run dir>, tuner compare <base> <new>\n"
      "and tuner export <results.sqlite>.\n",
      command.c_str(), why.c_str());
  return 2;
}

void register_commands(CLI::App& app) {
  add_graph_info(app);
  add_list(app);
  add_compile(app);
  add_run(app);
  add_worker(app);
  register_gpu_commands(app);
  register_bench_command(app);
  register_timeline_command(app);
  register_emit_commands(app);
  register_report_commands(app);
}

}  // namespace csrgat::tuner
