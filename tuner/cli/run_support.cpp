#include "tuner/cli/run_support.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "tuner/config.h"
#include "tuner/emit.h"
#include "tuner/select.h"
#include "tuner/store.h"
#include "reports/report.h"
#include "csrgat_commit.h"  // generated at build time (cmake/git_commit.cmake)

namespace csrgat::tuner {

std::string project_commit() { return CSRGAT_COMMIT; }

std::string host_name() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

void finish_outputs(const Config& cfg, const Store& store, int64_t run_id) {
  const auto winners = select_winners(store, run_id);
  std::printf("\n%-24s %5s %2s %-5s %10s %10s %10s  %s\n", "graph", "F", "H", "type", "best us", "seed us",
              "cusparse", "winner");
  std::string throttled;
  for (const auto& w : winners) {
    std::printf("%-24s %5d %2d %-5s %10.2f %10.2f %10.2f  %s\n", w.graph.c_str(), w.feat, w.heads,
                to_string(w.value), w.median_us, w.seed_us, w.cusparse_us, w.variant.c_str());
    if (w.throttled)
      throttled += " " + w.graph + " F" + std::to_string(w.feat) + " " + to_string(w.value) + ",";
  }
  if (!throttled.empty())
    std::printf(
        "winners timed while NVML saw the GPU throttle (power or thermal; no full-clock "
        "trial tied them):%s\n",
        throttled.substr(0, throttled.size() - 1).c_str());
  const std::string arch = cfg.arch;
  const std::string header_path = cfg.output + "/include/csrgat/tuned/" + arch + ".h";
  try {
    write_header_file(emit_header(store, run_id, arch), header_path);
    std::printf("tuned header: %s (promote it with: tuner promote %s)\n", header_path.c_str(), header_path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuner run: no tuned header written: %s\n", e.what());
  }
  try {
    reports::write_run_report(cfg, store, run_id);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuner run: report failed (results are safe in %s): %s\n", store.path().c_str(), e.what());
  }
}

}  // namespace csrgat::tuner
