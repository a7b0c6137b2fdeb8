// GPU commands besides run: check (correctness of every variant of a config).
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "graphs/generate.h"
#include "tuner/cli/commands.h"
#include "tuner/config.h"
#include "tuner/device_problem.h"
#include "tuner/space.h"
#include "tuner/verify.h"
#include "variants/reference.h"

namespace csrgat::tuner {
namespace {

int check_config(const std::string& path, uint64_t seed) {
  const Config cfg = load_config(path);
  std::string why;
  if (!gpu_available(&why)) return no_gpu_exit("check", why);
  const auto variants = unique_variants(cfg);
  NvrtcCompiler compiler(cfg.arch, cfg.output + "/cache");
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::map<std::string, std::unique_ptr<LoadedKernel>> kernels;
  int failures = 0;
  for (auto& o : compile_all(compiler, variants, threads)) {
    if (!o.ok) {
      std::printf("compile_failed %s: %s\n", o.params.id().c_str(), o.error.c_str());
      ++failures;
      continue;
    }
    kernels[o.params.id()] = std::make_unique<LoadedKernel>(o.kernel);
  }
  std::printf("%-28s %4s %2s %-70s %-12s %s\n", "graph", "F", "H", "variant", "status", "rel_error");
  for (const auto& pr : problems(cfg)) {
    const auto g = graphs::make_graph(pr.spec);
    const auto in = graphs::make_inputs(g, pr.heads, pr.feat, seed++);
    const auto ref = reference_aggregate(g, in);
    DeviceProblem dp(g, in);
    std::vector<VariantParams> todo;
    for (const auto& c : enumerate(cfg, pr))
      if (c.pruned.empty()) todo.push_back(c.params);
    for (const auto& v : variants)
      if (v.family != Family::fused) todo.push_back(v);
    int ok = 0;
    for (const auto& p : todo) {
      auto it = kernels.find(p.id());
      if (it == kernels.end() || p.fault) continue;
      const auto r = verify_variant(dp, *it->second, p, ref, default_tolerance(p.value));
      if (r.status == TrialStatus::ok) {
        ++ok;
        continue;
      }
      if (r.status != TrialStatus::unsupported) ++failures;
      std::printf("%-28s %4d %2d %-70s %-12s %.3g %s\n", pr.graph_name.c_str(), pr.feat, pr.heads,
                  p.id().c_str(), to_string(r.status), r.rel_error, r.detail.c_str());
    }
    std::printf("%-28s %4d %2d %d variants correct\n", pr.graph_name.c_str(), pr.feat, pr.heads, ok);
  }
  std::printf("check: %d failures\n", failures);
  return failures ? 1 : 0;
}

}  // namespace

void register_gpu_commands(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "Verify every variant of a config against the float64 reference (GPU)");
  static std::string path;
  static uint64_t seed = std::random_device{}();
  cmd->add_option("config", path, "config YAML")->required();
  cmd->add_option("--seed", seed, "input seed (default: fresh each run)");
  cmd->callback([] {
    try {
      set_exit_code(check_config(path, seed));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tuner check: error: %s\n", e.what());
      set_exit_code(1);
    }
  });
}

}  // namespace csrgat::tuner
