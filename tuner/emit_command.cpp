// tuner emit and tuner promote: from a results store to a tuned header, and from a tuned
// header into the source tree. Neither needs a GPU.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tuner/emit.h"
#include "tuner/nvrtc_compiler.h"
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

int run_emit(const std::string& given, std::optional<int64_t> run_flag, std::string arch,
             std::string output, bool allow_unfinished) {
  // "STORE:22", as report, compare and export take it; a run id not positive, or named twice
  // differently, is refused by name.
  const StoreArg arg = parse_store_arg(given, run_flag);
  const std::string path = resolve_store_path(arg.path);
  if (const std::string why = input_file_problem(path, "results store"); !why.empty())
    throw std::runtime_error(why);
  // An export (a file: a folder named .json is a folder of stores), which emit cannot read.
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && looks_like_export(path))
    throw std::runtime_error(
        "'" + path +
        "' is an exported run (JSON): emit reads results stores only; give the store it "
        "was exported from (tuner emit STORE:RUN), or compare/report the export");
  // Read-only: emitting must never change a recorded store.
  const Store store(path, true);
  std::vector<RunInfo> runs;
  try {
    runs = store.runs();
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is not a readable results store: " + e.what());
  }
  if (runs.empty()) throw std::runtime_error("results store '" + path + "' holds no runs");
  const int64_t run_id = arg.run_id.value_or(runs.back().id);
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
  if (arch.empty()) {
    arch = default_arch(*run);
  } else {
    // One NVRTC compiles for (the library builds the header's kernels for it), and the run's own
    // capability: its rules are measurements of that GPU, and its kernels may need it.
    if (const std::string why = NvrtcCompiler::arch_problem(arch); !why.empty())
      throw std::runtime_error("--arch: " + why);
    const std::string tuned = run_arch(*run).value_or("");
    if (const auto t = parse_arch(tuned); t && t->cc != parse_arch(arch)->cc)
      throw std::runtime_error("--arch " + arch + ": run " + std::to_string(run_id) + " of '" +
                               path + "' was tuned for " + tuned + " (" +
                               (run->gpu_name.empty() ? std::string("its GPU") : run->gpu_name) +
                               "): its rules are that GPU's measurements and may name kernels "
                               "only it runs; give --arch " +
                               tuned + " (or its a/f target), or tune on the other GPU");
  }
  std::string text;
  try {
    text = emit_header(store, run_id, arch);  // checks arch (arch_number)
  } catch (const std::exception& e) {
    // A store of another schema fails inside SQLite: name the store.
    if (std::string(e.what()).find(path) != std::string::npos) throw;
    throw std::runtime_error("results store '" + path + "', run " + std::to_string(run_id) + ": " +
                             e.what());
  }
  // Beside the store, however its name is spelt ("h200/" is the folder h200: beside it, as
  // report's default; never into a folder of stores).
  if (output.empty())
    output = (folder_beside(path) / "include/csrgat/tuned" / (arch + ".h")).string();
  write_header_file(text, output);
  std::cout << rules_table(select_rules(store, run_id));
  std::printf("wrote %s (run %lld of %s, %s)\n", output.c_str(), static_cast<long long>(run_id),
              path.c_str(), arch.c_str());
  return 0;
}

// The last line emit_header writes: a header without it was cut short (a copy that stopped, a
// `head`), and would not compile or would carry part of its rules.
constexpr const char* kClosingLine = "}  // namespace csrgat::tuned";

// What a generated header says of itself: the architecture it is for (its second line, "//
// Tuned dispatch for sm_90, ..."), whether its run did not finish (a WARNING line), and whether
// it is whole. Throws naming `path` for a file that is not a whole generated header.
struct HeaderFacts {
  std::string arch;
  bool unfinished = false;
  std::string text;  // the bytes checked: what promote copies
};
HeaderFacts read_generated_header(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path.string() + "'");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string where = "'" + path.string() + "'";
  // Binary content would be printed as garbage in the message below.
  const bool binary =
      std::any_of(text.begin(), text.begin() + std::min<size_t>(text.size(), 4096), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t');
      });
  if (binary)
    throw std::runtime_error(where + " is not a generated header: it is binary, not text");
  const std::string first = text.substr(0, text.find('\n'));
  if (!is_generated(first))
    throw std::runtime_error(where + " is not a generated header: its first line is '" +
                             (first.size() > 80 ? first.substr(0, 77) + "..." : first) +
                             "', not '" + kGeneratedMarker + " ...'");
  HeaderFacts facts;
  std::istringstream lines(text);
  std::string line, last;
  const std::string arch_tag = "// Tuned dispatch for ";
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (facts.arch.empty() && line.rfind(arch_tag, 0) == 0)
      facts.arch =
          line.substr(arch_tag.size(), line.find_first_of(", ", arch_tag.size()) - arch_tag.size());
    if (line.rfind("// WARNING: run ", 0) == 0 && line.find("did not finish") != std::string::npos)
      facts.unfinished = true;
    if (line.find_first_not_of(" \t") != std::string::npos) last = line;
  }
  const bool whole = last == kClosingLine &&
                     text.find("#define CSRGAT_TUNED_KERNELS(X)") != std::string::npos &&
                     text.find("inline constexpr Rule kRules[] = {") != std::string::npos;
  if (!whole)
    throw std::runtime_error(
        where + " is not a whole generated header: it does not end with '" + kClosingLine +
        "' (and its kernels and rules), as tuner emit writes it; it was cut short? "
        "emit it again");
  facts.text = text;
  if (facts.arch.empty())
    throw std::runtime_error(where + " does not say its architecture (its second line, '" +
                             arch_tag + "sm_NN, ...'); emit it again");
  try {
    arch_number(facts.arch);
  } catch (const std::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
  return facts;
}

int run_promote(const std::string& header, const std::string& to, bool allow_unfinished) {
  if (fs::is_directory(header))
    throw std::runtime_error("'" + header + "' is a folder; give the generated header in it");
  if (!fs::exists(header)) throw std::runtime_error("header '" + header + "' does not exist");
  if (!fs::is_regular_file(header))  // a FIFO would block the read; it is read twice besides
    throw std::runtime_error("header '" + header + "' is not a regular file (a FIFO or a device)");
  const HeaderFacts facts = read_generated_header(header);
  if (facts.unfinished && !allow_unfinished)
    throw std::runtime_error(
        "'" + header +
        "' is the header of a run that did not finish (its WARNING line): its rules lack the "
        "problems the run left, or rest on screening-stage timings; finish the run and emit "
        "again, or pass --allow-unfinished to promote it anyway");
  // Into a folder (the source tree's include/csrgat/tuned by default) the header goes as
  // <arch>.h, whatever its own file is called; an explicit file name must be that one.
  fs::path target;
  if (!to.empty() && fs::path(to).extension() == ".h")
    target = to;
  else
    target = (to.empty() ? find_source_tree() / "include/csrgat/tuned" : fs::path(to)) /
             (facts.arch + ".h");
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
  // The build picks a tuned header by name (include/csrgat/tuned/<arch>.h): under another name
  // it would never be used, or would stand for another architecture's rules.
  if (target.filename() != facts.arch + ".h")
    throw std::runtime_error("'" + header + "' is the header for " + facts.arch +
                             ", so it goes to " + facts.arch + ".h, not '" +
                             target.filename().string() +
                             "'; give --to a folder, or a path ending in " + facts.arch + ".h");
  // The text that was checked, not a second read (a file replaced or gone since would be copied
  // unchecked, or as nothing over the tree's header).
  write_header_file(facts.text, target.string());
  if (facts.unfinished)
    std::fprintf(stderr, "tuner promote: warning: %s is the header of a run that did not finish\n",
                 header.c_str());
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
           "results store[:RUN_ID] (results.sqlite, a .sqlite.gz, a folder of stores or a run "
           "folder; not an exported run's JSON)")
        ->required();
    cmd->add_option("--run", a->run_id, "run id (default: the latest)");
    cmd->add_option("--arch", a->arch,
                    "architecture the header is for: the run's own capability, or its a/f "
                    "target (sm_90a for a run on sm_90); default: the run's, else sm_90");
    cmd->add_option("-o,--output", a->output,
                    "header path (default: <store folder>/include/csrgat/tuned/<arch>.h)");
    cmd->add_flag("--allow-unfinished", a->allow_unfinished,
                  "emit from a run that did not finish (the header carries a warning)");
    cmd->callback([a, cmd] {
      guarded("emit", [&] {
        // --run as given, or none (so that --run 0 is refused, not read as "the latest").
        const auto run = cmd->count("--run") ? std::optional<int64_t>(a->run_id) : std::nullopt;
        return run_emit(a->path, run, a->arch, a->output, a->allow_unfinished);
      });
    });
  }
  {
    struct Args {
      std::string header, to;
      bool allow_unfinished = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand(
        "promote", "Copy a generated tuned header into the source tree (include/csrgat/tuned/)");
    cmd->add_option("header", a->header, "generated header")->required();
    cmd->add_option("--to", a->to,
                    "folder (or <arch>.h path) to copy to (default: include/csrgat/tuned/ of the "
                    "checkout around the current directory); the copy must be named for the "
                    "header's architecture (sm_90.h), as the build looks it up");
    cmd->add_flag("--allow-unfinished", a->allow_unfinished,
                  "promote the header of a run that did not finish (its WARNING line)");
    cmd->callback([a] {
      guarded("promote", [&] { return run_promote(a->header, a->to, a->allow_unfinished); });
    });
  }
}

}  // namespace csrgat::tuner
