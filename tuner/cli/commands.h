// The tuner's subcommands. Each registers itself on the CLI app and sets the process exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "variants/params.h"

namespace csrgat::tuner {

void register_commands(CLI::App& app);
int exit_code();
void set_exit_code(int code);

// Prints the standard message for a GPU-only command on a machine without a GPU and returns
// the exit code to use (2).
int no_gpu_exit(const std::string& command, const std::string& why);

// The items of a comma list (--impl, --variant), empty ones dropped.
std::vector<std::string> split_list(const std::string& s);

// The checks of a GPU command's arguments that need no GPU, made before the GPU check and before
// any graph is built, so that a typo is reported at once (and on a machine without a GPU too),
// not after the graphs before it were built and measured. Each throws std::invalid_argument
// naming the command, the flag and the value.
//
// A graph spec: a generator's keys and values as make_graph takes them (graphs::estimate_edges),
// or a file that input_file_problem(path, "graph file", Folders::refused) passes.
void check_graph_spec(const std::string& what, const std::string& spec);
// A config's graph files (tuner run and check: a config may name files that another machine
// has, so loading it does not ask; a run does, before it measures anything).
struct Config;
void check_config_graphs(const Config& cfg);
// check_config_graphs for `command` (run, check) before its GPU check. On a machine without a
// GPU a missing graph file is named and then the usual no-GPU message follows (its exit code, 2:
// the README's main command on a fresh machine says both what is missing and what can be done
// there); returns that code, or 0 to go on.
int check_config_graphs_first(const char* command, const Config& cfg);
// A file to be written at the end (--json): not a folder, in a folder that exists and is writable.
void check_output_path(const std::string& what, const std::string& path);
// A variant id given on the command line: VariantParams::parse's result, or its error after
// `what` (the command and flag, "profile --variant") and before `hint` (other names it takes).
VariantParams parse_variant_arg(const std::string& what, const std::string& id,
                                const std::string& hint = "");
// A comma list that must name something (--impl, --variant): its items, or the error.
std::vector<std::string> nonempty_list(const std::string& what, const std::string& s);
// --seed: a decimal integer in [0, 2^64) (CLI11 2.1 reads "-1" as 2^64 - 1 and saturates
// overflow).
CLI::Validator seed_validator();

// Runs fn (which returns an exit code), turning any exception into a one-line error naming the
// command, and exit code error_code (1; tuner compare 3, its 1 and 2 being verdicts).
template <class Fn>
void guarded(const char* what, Fn&& fn, int error_code = 1) {
  try {
    set_exit_code(fn());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuner %s: error: %s\n", what, e.what());
    set_exit_code(error_code);
  }
}

}  // namespace csrgat::tuner

namespace csrgat::tuner {
struct Config;
// tuner run: the whole tuning job (tuner/run.cpp).
// continue_elsewhere: tuner run --continue (continue a run stopped on another GPU of the same
// kind; an error when there is none that may be continued). reuse: tuner run --reuse (take the
// problems that earlier runs of the same kind finished with the same problem fingerprint).
int run_tuning(const Config& cfg, bool continue_elsewhere = false, bool reuse = false);
// check, bench and profile (tuner/gpu_commands.cpp).
void register_gpu_commands(CLI::App& app);
// bench (tuner/cli/bench.cpp).
void register_bench_command(CLI::App& app);
// timeline (tuner/cli/timeline.cpp).
void register_timeline_command(CLI::App& app);
// report, compare, export (tuner/cli/report_commands.cpp).
void register_report_commands(CLI::App& app);
}  // namespace csrgat::tuner
