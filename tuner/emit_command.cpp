// tuner emit and tuner promote: from a results store to a tuned header, and from a tuned
// header into the source tree. Neither needs a GPU.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "tuner/emit.h"
#include "tuner/select.h"
#include "tuner/store.h"

namespace csrgat::tuner {
namespace {

namespace fs = std::filesystem;

// Errors become one line and exit code 1. The code travels as CLI::RuntimeError, which
// App::exit returns silently, so this file needs nothing from the command-line executable.
template <class Fn>
void guarded(const char* what, Fn&& fn) {
  int code = 1;
  try {
    code = fn();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuner %s: error: %s\n", what, e.what());
  }
  if (code != 0) throw CLI::RuntimeError(code);
}

std::string first_line(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + p.string() + "'");
  std::string line;
  std::getline(in, line);
  return line;
}

bool is_generated(const std::string& line) {
  return line.rfind(kGeneratedMarker, 0) == 0;
}

// The checkout the current directory lies in: the nearest folder above holding the tuned types.
fs::path find_source_tree() {
  for (fs::path p = fs::current_path();; p = p.parent_path()) {
    if (fs::exists(p / "include/csrgat/tuned_types.h")) return p;
    if (p == p.parent_path()) break;
  }
  throw std::runtime_error("no source tree (include/csrgat/tuned_types.h) above '" +
                           fs::current_path().string() +
                           "'; pass --to <repo>/include/csrgat/tuned/");
}

int run_emit(const std::string& given, int64_t run_id, std::string arch, std::string output,
             bool allow_unfinished) {
  if (!fs::exists(given)) throw std::runtime_error("results store '" + given + "' does not exist");
  const std::string path = resolve_store_path(given);
  // Read-only: emitting must never change a recorded store.
  const Store store(path, true);
  std::vector<RunInfo> runs;
  try {
    runs = store.runs();
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is not a readable results store: " + e.what());
  }
  if (runs.empty()) throw std::runtime_error("results store '" + path + "' holds no runs");
  if (run_id == 0) run_id = runs.back().id;
  const auto run = store.run(run_id);
  if (!run) {
    std::string ids;
    for (const auto& r : runs) ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
    throw std::runtime_error("results store '" + path + "' has no run " + std::to_string(run_id) +
                             " (its runs: " + ids + ")");
  }
  if (run->finished.empty() && !allow_unfinished)
    throw std::runtime_error("run " + std::to_string(run_id) + " of '" + path +
                             "' did not finish (stopped or killed): its problems left unfinished "
                             "would be missing from the header or rest on screening-stage "
                             "timings; continue it (tuner run --continue) or pass "
                             "--allow-unfinished (the header then says so)");
  if (arch.empty()) arch = default_arch(*run);
  std::string text;
  try {
    text = emit_header(store, run_id, arch);  // checks arch (arch_number)
  } catch (const std::exception& e) {
    // A store of another schema fails inside SQLite: name the store.
    if (std::string(e.what()).find(path) != std::string::npos) throw;
    throw std::runtime_error("results store '" + path + "', run " + std::to_string(run_id) + ": " +
                             e.what());
  }
  if (output.empty())
    output = (fs::path(path).parent_path() / "include/csrgat/tuned" / (arch + ".h")).string();
  write_header_file(text, output);
  std::cout << rules_table(select_rules(store, run_id));
  std::printf("wrote %s (run %lld of %s, %s)\n", output.c_str(), static_cast<long long>(run_id),
              path.c_str(), arch.c_str());
  return 0;
}

int run_promote(const std::string& header, const std::string& to) {
  if (fs::is_directory(header))
    throw std::runtime_error("'" + header + "' is a folder; give the generated header in it");
  if (!fs::is_regular_file(header))
    throw std::runtime_error("header '" + header + "' does not exist");
  const std::string line = first_line(header);
  if (!is_generated(line))
    throw std::runtime_error("'" + header + "' is not a generated header: its first line is '" +
                             line + "', not '" + kGeneratedMarker + " ...'");
  fs::path target;
  if (!to.empty() && fs::path(to).extension() == ".h")
    target = to;
  else
    target = (to.empty() ? find_source_tree() / "include/csrgat/tuned" : fs::path(to)) /
             fs::path(header).filename();
  if (fs::exists(target)) {
    if (fs::equivalent(target, header)) {
      std::printf("%s is already in place\n", target.string().c_str());
      return 0;
    }
    // Hand-written headers (default.h) are not ours to replace.
    if (!is_generated(first_line(target)))
      throw std::runtime_error("refusing to overwrite '" + target.string() +
                               "': it is not a generated header");
  }
  std::ifstream in(header, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write_header_file(text, target.string());
  std::printf("promoted %s -> %s\nbuild with: cmake -DCSRGAT_TUNED_CONFIG=%s ...\n", header.c_str(),
              target.string().c_str(), target.string().c_str());
  return 0;
}

}  // namespace

void register_emit_commands(CLI::App& app) {
  // Per-app state (not statics), so several apps in one process (tests) do not share options.
  {
    struct Args {
      std::string path, arch, output;
      int64_t run_id = 0;
      bool allow_unfinished = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("emit",
                                   "Write the tuned header (include/csrgat/tuned/<arch>.h) from a "
                                   "results store; no GPU needed");
    cmd->add_option(
           "results", a->path,
           "results store (results.sqlite, a .sqlite.gz, a folder of stores or a run folder)")
        ->required();
    cmd->add_option("--run", a->run_id, "run id (default: the latest)");
    cmd->add_option("--arch", a->arch,
                    "architecture the header is for (default: the run's, else sm_90)");
    cmd->add_option("-o,--output", a->output,
                    "header path (default: <store folder>/include/csrgat/tuned/<arch>.h)");
    cmd->add_flag("--allow-unfinished", a->allow_unfinished,
                  "emit from a run that did not finish (the header carries a warning)");
    cmd->callback([a] {
      guarded("emit", [&] {
        return run_emit(a->path, a->run_id, a->arch, a->output, a->allow_unfinished);
      });
    });
  }
  {
    struct Args {
      std::string header, to;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand(
        "promote", "Copy a generated tuned header into the source tree (include/csrgat/tuned/)");
    cmd->add_option("header", a->header, "generated header")->required();
    cmd->add_option("--to", a->to,
                    "folder (or .h path) to copy to (default: include/csrgat/tuned/ of the "
                    "checkout around the current directory)");
    cmd->callback([a] { guarded("promote", [&] { return run_promote(a->header, a->to); }); });
  }
}

}  // namespace csrgat::tuner
