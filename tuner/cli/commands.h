// The tuner's subcommands. Each registers itself on the CLI app and sets the process exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace csrgat::tuner {

void register_commands(CLI::App& app);
int exit_code();
void set_exit_code(int code);

// Prints the standard message for a GPU-only command on a machine without a GPU and returns
// the exit code to use (2).
int no_gpu_exit(const std::string& command, const std::string& why);

// The items of a comma list (--impl, --variant), empty ones dropped.
std::vector<std::string> split_list(const std::string& s);

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
