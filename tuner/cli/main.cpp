// tuner: the csrgat-lab command line. Commands that need no GPU (graph-info, list, compile,
// emit, report, compare) run anywhere; run, check, bench and profile need a CUDA device and
// say so, with what can be done instead, when there is none.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <thread>

#include "graphs/features.h"
#include "tuner/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"csrgat-lab tuner: autotune CSR graph-attention aggregation kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", CSRGAT_VERSION);
  csrgat::tuner::register_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return csrgat::tuner::exit_code();
}
