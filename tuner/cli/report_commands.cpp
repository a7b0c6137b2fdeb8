// tuner report, compare and export: the commands that read stored results and need no GPU.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>

#include "reports/compare.h"
#include "reports/report.h"
#include "reports/run_io.h"
#include "tuner/cli/commands.h"
#include "tuner/store.h"

namespace fs = std::filesystem;

namespace csrgat::tuner {
namespace {

// Where a report goes by default: next to the results it reads (in a run folder, beside its
// results.sqlite; beside a folder of stores, not into it, however its name is spelt; beside an
// exported run's JSON file).
std::string default_report_dir(const std::string& source) {
  const fs::path parent = folder_beside(resolve_store_path(parse_store_arg(source).path));
  return ((parent.empty() ? fs::path(".") : parent) / "report").string();
}

// fn(), with an error it throws (a store of another schema or a damaged one fails only when its
// trials are read, after it opened: "no such table: trials") naming the run and the input it
// came from, unless the message already names that input.
template <class Fn>
auto naming_input(const reports::LoadedRun& r, Fn&& fn) {
  try {
    return fn();
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find(r.source) != std::string::npos || what.find(r.store->path()) != std::string::npos)
      throw;
    throw std::runtime_error("run " + std::to_string(r.run.id) + " of '" + r.source + "': " + what);
  }
}

// --run as given, or nullopt when the option was left out (so that --run 0 and --run -3 are
// refused by name rather than read as "the latest run").
std::optional<int64_t> run_flag(const CLI::App* cmd, int64_t value) {
  return cmd->count("--run") > 0 ? std::optional<int64_t>(value) : std::nullopt;
}

void add_report(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report", "Roofline report (Markdown, HTML, charts) of a stored run; no GPU needed");
  static std::string source, peers, out;
  static int64_t run_id = 0;
  cmd->add_option("results", source,
                  "results store[:RUN_ID] (results.sqlite, a .sqlite.gz, a folder of stores, a run "
                  "folder) or an exported run JSON")
      ->required();
  cmd->add_option("--run", run_id, "run id (default: the latest run)");
  cmd->add_option("--peers", peers,
                  "peers JSON from scripts/peers_pyg.py (PyTorch Geometric, torch CSR)");
  cmd->add_option("-o,--output", out, "output folder (default: <run folder>/report)");
  cmd->callback([cmd] {
    guarded("report", [cmd] {
      const std::string dir = out.empty() ? default_report_dir(source) : out;
      reports::refuse_to_overwrite_inputs(dir, reports::report_files(),
                                          {parse_store_arg(source).path, peers}, "the report");
      const reports::LoadedRun r = reports::load_run_source(source, run_flag(cmd, run_id));
      naming_input(r, [&] { reports::write_report(*r.store, r.run_id, dir, peers); });
      std::printf("report of run %lld (%s): %s/report.md, %s/report.html\n",
                  static_cast<long long>(r.run.id), r.run.name.c_str(), dir.c_str(), dir.c_str());
      return 0;
    });
  });
}

void add_compare(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Regression check of two runs: per variant, per tuned choice and per problem's dispatch "
      "same/faster/slower beyond "
      "threshold and noise. Exit 1 when a tuned choice got slower or was lost (base has one, new "
      "none) or the header's dispatch got slower or was lost on a problem (wrong, crashed or hung "
      "there, or untimed where base's was timed), 2 when refused (different GPU or "
      "driver, or no problem comparable), 3 on an error (a "
      "run that cannot be read, an output that cannot be written, a bad argument). A run "
      "compared with itself is warned of on stderr");
  static std::string base, fresh, out = ".";
  static double threshold = 0.03;
  static bool allow_other = false;
  static bool allow_other_timing = false;
  cmd->add_option("base", base,
                  "results store[:RUN_ID] (a .sqlite, .sqlite.gz, folder of stores or run folder) "
                  "or exported run JSON")
      ->required();
  cmd->add_option("new", fresh,
                  "results store[:RUN_ID] (a .sqlite, .sqlite.gz, folder of stores or run folder) "
                  "or exported run JSON")
      ->required();
  cmd->add_option("--threshold", threshold,
                  "relative change that counts, besides the noise (default 0.03)")
      ->check(CLI::Range(0.0, 10.0))
      ->check(CLI::Validator(
          [](std::string& v) {  // CLI::Range lets nan through: every change would read "same"
            return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string()
                                                                  : "not a finite number: " + v;
          },
          "FINITE"));
  cmd->add_flag("--allow-different-gpu", allow_other,
                "compare runs of different GPUs or drivers anyway");
  cmd->add_flag("--allow-different-timing", allow_other_timing,
                "compare runs timed differently (L2 state, graph replay, overlap) anyway");
  cmd->add_option("-o,--output", out, "folder for compare.md and compare.json (default: .)");
  cmd->callback([] {
    guarded(
        "compare",
        [] {
          reports::refuse_to_overwrite_inputs(
              out, reports::compare_files(),
              {parse_store_arg(base).path, parse_store_arg(fresh).path}, "the comparison");
          const auto b = reports::load_run_source(base);
          const auto n = reports::load_run_source(fresh);
          reports::CompareOptions opt;
          opt.threshold = threshold;
          opt.allow_different_gpu = allow_other;
          opt.allow_different_timing = allow_other_timing;
          const auto r = reports::compare_runs(b, n, opt);
          reports::write_compare(r, out);
          for (const auto& w : r.warnings)
            std::fprintf(stderr, "tuner compare: warning: %s\n", w.c_str());
          if (r.exit_code == 2) {
            std::fprintf(stderr, "tuner compare: refused: %s\n", r.refusal.c_str());
            std::printf("## csrgat compare: refused\n%s.\n", r.refusal.c_str());
          } else {
            // The verdict and the summary line: the first three lines of compare.md.
            std::istringstream lines(r.markdown);
            std::string line;
            for (int i = 0; i < 3 && std::getline(lines, line); ++i)
              if (!line.empty()) std::printf("%s\n", line.c_str());
          }
          // Always: a problem left out (another graph, or measured on one side only) is no
          // "no change".
          std::printf("%s\n", r.problems_line.c_str());
          std::printf("wrote %s/compare.md and compare.json\n", out.c_str());
          return r.exit_code;
        },
        3);
  });
}

void add_export(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export", "Write a stored run and its trials as JSON (nvbench-like: meta, devices, states)");
  static std::string source, out;
  static int64_t run_id = 0;
  cmd->add_option("results", source,
                  "results store[:RUN_ID] (a .sqlite, .sqlite.gz, folder of stores or run folder) "
                  "or exported run JSON (exported again, checked)")
      ->required();
  cmd->add_option("--run", run_id, "run id (default: the latest run)");
  cmd->add_option("-o,--output", out, "output JSON file ('-': standard output)")->required();
  cmd->callback([cmd] {
    guarded("export", [cmd] {
      // The output first: a path that cannot be written is named before the store is read.
      if (out != "-") {
        check_output_path("export -o", out);
        tuner::refuse_to_overwrite_store(out, "the exported run");
      }
      const auto r = reports::load_run_source(source, run_flag(cmd, run_id));
      const std::string text =
          naming_input(r, [&] { return reports::export_run(*r.store, r.run_id).dump(1) + "\n"; });
      // A full disk or a closed pipe behind the output is an error, not an export.
      const auto cannot_write = [](const std::string& where) {
        return std::runtime_error("cannot write " + where +
                                  (errno ? std::string(": ") + std::strerror(errno) : ""));
      };
      errno = 0;
      if (out == "-") {
        std::cout << text << std::flush;
        if (!std::cout) throw cannot_write("the exported run to standard output");
        return 0;
      }
      std::ofstream f(out);
      if (!f) throw cannot_write("'" + out + "'");
      f << text;
      f.close();
      if (!f) throw cannot_write("'" + out + "'");
      std::printf("exported run %lld to %s\n", static_cast<long long>(r.run.id), out.c_str());
      return 0;
    });
  });
}

}  // namespace

void register_report_commands(CLI::App& app) {
  add_report(app);
  add_compare(app);
  add_export(app);
}

}  // namespace csrgat::tuner
