// tuner: the csrgat-lab command line. Commands that need no GPU (graph-info, list, compile,
// emit, promote, report, compare, export) run anywhere; run, check, bench, profile and timeline
// need a CUDA device and say so, with what can be done instead, when there is none.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include "graphs/features.h"
#include "tuner/cli/commands.h"
#include "tuner/worker.h"

int main(int argc, char** argv) {
  csrgat::tuner::open_standard_descriptors();
  CLI::App app{"csrgat-lab tuner: autotune CSR graph-attention aggregation kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", CSRGAT_VERSION);
  csrgat::tuner::register_commands(app);
  // A first word that is no command ("tuner bogus"): CLI11 would say only that a subcommand is
  // required.
  const auto commands = app.get_subcommands([](CLI::App* c) { return c->get_name() != "worker"; });
  const auto named = [&](const std::string& w) {
    return std::any_of(commands.begin(), commands.end(),
                       [&](CLI::App* c) { return c->check_name(w); });
  };
  if (argc > 1 && argv[1][0] != '-' && std::string(argv[1]) != "worker" && !named(argv[1])) {
    std::string known;
    for (const CLI::App* c : commands) known += (known.empty() ? "" : ", ") + c->get_name();
    std::fprintf(stderr, "tuner: unknown command '%s' (commands: %s; tuner --help)\n", argv[1],
                 known.c_str());
    return 109;  // CLI11's code for arguments it did not expect
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the message (or the help: code 0)
    // tuner compare's 1 and 2 are verdicts and every error is 3 (README), a bad argument too:
    // CLI11's own codes (105 a bad value, 106 a missing one, 109 an extra one) would read as
    // neither. The other commands keep CLI11's codes, apart from their errors (1) and verdicts.
    const CLI::App* compare = app.get_subcommand("compare");
    if (code != 0 && compare->parsed()) return 3;
    return code;
  }
  return csrgat::tuner::exit_code();
}
