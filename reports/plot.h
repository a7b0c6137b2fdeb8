// Charts through matplotlib: the report writes a JSON of points and ceilings, and the embedded
// copy of scripts/plot_report.py (compiled into the binary, so an installed tuner plots from
// any folder) turns it into PNG and SVG files. Nothing here throws: without a Python that has
// matplotlib the outcome says why, and the report carries on without charts.
#pragma once

#include <string>
#include <vector>

namespace csrgat::reports {

// The text of scripts/plot_report.py at build time (generated plot_script.cpp).
const char* embedded_plot_script();

struct ProcessResult {
  bool started = false;
  int exit_code = -1;  // -1 when killed or not started
  bool timed_out = false;
  std::string output;  // stdout and stderr together (the last 64 KiB)
};
// Runs argv[0] (looked up on PATH) with extra environment entries ("NAME=value"); never throws.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env, double timeout_s);

// The first of $CSRGAT_PYTHON, python3 (PATH), /usr/bin/python3 that imports matplotlib, or ""
// with why each candidate failed in *why.
std::string find_matplotlib_python(std::string* why);

struct PlotOutcome {
  bool ok = false;
  std::string python;              // the interpreter used
  std::string note;                // why the charts were skipped, or the script's warnings
  std::vector<std::string> files;  // written, relative to out_dir
};
// Runs the embedded script on chart_json (a file) writing into out_dir. CSRGAT_NO_CHARTS=1 in
// the environment skips it (fast tests, headless CI).
PlotOutcome plot_charts(const std::string& chart_json, const std::string& out_dir);

}  // namespace csrgat::reports
