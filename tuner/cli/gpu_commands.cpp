// GPU commands besides run: check (correctness of every variant of a config) and profile.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "graphs/generate.h"
#include "tuner/cli/commands.h"
#include "tuner/config.h"
#include "tuner/device_problem.h"
#include "tuner/space.h"
#include "tuner/verify.h"
#include "profiler/check.h"
#include "profiler/nvtx.h"
#include "variants/reference.h"

namespace csrgat::tuner {
namespace {

// check's watch on a hang: a variant whose check runs past the config's timing.timeout_seconds
// (as long as tuner run gives a trial) is a kernel that will not return, which nothing in this
// process can stop: the watch says which, with the failures so far, and ends the process
// (exit 1).
class HangWatch {
 public:
  explicit HangWatch(double limit_s) : limit_s_(limit_s), thread_([this] { watch(); }) {}
  ~HangWatch() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  HangWatch(const HangWatch&) = delete;
  HangWatch& operator=(const HangWatch&) = delete;
  // From now on `what` ("<variant> on <graph> F=.. H=..") is being checked.
  void start(std::string what, int failures) {
    std::lock_guard<std::mutex> lock(mu_);
    what_ = std::move(what);
    failures_ = failures;
    since_ = std::chrono::steady_clock::now();
    armed_ = true;
  }
  void stop() {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = false;
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      cv_.wait_for(lock, std::chrono::milliseconds(200));
      if (done_) break;  // the check ended (or unwinds): nothing hangs
      if (!armed_ ||
          std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count() <=
              limit_s_)
        continue;
      std::printf(
          "check: stopped: %s still runs after %.0f s (timing.timeout_seconds): a kernel that "
          "hangs; the variants and problems after it are not checked (tuner run checks each "
          "in a worker that is killed at its timeout)\n",
          what_.c_str(), limit_s_);
      std::printf("check: %d failures\n", failures_ + 1);
      std::fflush(stdout);
      std::_Exit(1);
    }
  }
  const double limit_s_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false, armed_ = false;
  std::string what_;
  int failures_ = 0;
  std::chrono::steady_clock::time_point since_;
  std::thread thread_;  // last: starts once the rest is built
};

int check_config(const std::string& path, uint64_t seed) {
  const Config cfg = load_config(path);
  check_space(cfg);  // a problem that no variant survives the constraints for
  if (const int rc = check_config_graphs_first("check", cfg); rc != 0) return rc;
  std::string why;
  if (!gpu_available(&why)) return no_gpu_exit("check", why);
  // As tuner run: code for another architecture would fail every load, variant by variant.
  if (const auto [major, minor] = device_capability(0);
      !cfg.allow_other_arch && !NvrtcCompiler::arch_runs_on(cfg.arch, major, minor))
    throw std::runtime_error("config targets " + cfg.arch + " but GPU 0 is compute capability " +
                             std::to_string(major) + std::to_string(minor) +
                             "; set allow_other_arch: true to check anyway");
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
  // The inputs' seed (fresh each run unless --seed): a wrong result is repeated with it.
  std::printf("check: inputs from seed %llu (--seed %llu repeats them)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  std::printf("%-28s %4s %2s %-70s %-12s %s\n", "graph", "F", "H", "variant", "status", "rel_error");
  HangWatch hang(cfg.timing.timeout_seconds);
  for (const auto& pr : problems(cfg)) {
    const auto g = graphs::make_graph(pr.spec);
    const auto in = graphs::make_inputs(g, pr.heads, pr.feat, seed++);
    DeviceProblem dp(g, in);
    dp.set_reference(reference_aggregate(g, in));
    std::vector<VariantParams> todo;
    for (const auto& c : enumerate(cfg, pr))
      if (c.pruned.empty()) todo.push_back(c.params);
    for (const auto& v : variants)  // the baselines (the sweeps come with enumerate(), per problem)
      if (v.family == Family::seed || v.family == Family::cusparse) todo.push_back(v);
    int ok = 0;
    for (const auto& p : todo) {
      auto it = kernels.find(p.id());
      if (it == kernels.end() || p.fault) continue;
      const double tol = default_tolerance(p.value);
      hang.start(p.id() + " on " + pr.graph_name + " F=" + std::to_string(pr.feat) +
                     " H=" + std::to_string(pr.heads),
                 failures);
      auto r = verify_variant(dp, *it->second, p, tol);
      if (r.status == TrialStatus::ok && cfg.timing.overlap_previous && p.family == Family::fused) {
        // As tuner run checks a config timed overlapped: after a previous kernel that writes late.
        const LoadedKernel& k = *it->second;
        const VerifyResult o = verify_after_late_producer(
            dp, p.value, [&](cudaStream_t s) { dp.launch(p, k, s, true); }, tol);
        if (o.status != TrialStatus::ok) r = o;
      }
      hang.stop();
      if (r.status == TrialStatus::ok) {
        ++ok;
        continue;
      }
      const bool lost = r.status == TrialStatus::launch_failed && context_lost();
      if (lost) r.status = TrialStatus::crashed;
      if (r.status != TrialStatus::unsupported) ++failures;
      std::printf("%-28s %4d %2d %-70s %-12s %.3g %s\n", pr.graph_name.c_str(), pr.feat, pr.heads,
                  p.id().c_str(), to_string(r.status), r.rel_error, r.detail.c_str());
      if (lost) {
        // Every later launch in this process would fail too, and be blamed: stop here, saying so.
        std::printf(
            "check: stopped: %s crashed on %s F=%d H=%d and the CUDA context is lost; "
            "the variants and problems after it are not checked (tuner run checks each "
            "in a worker that is restarted after a crash)\n",
            p.id().c_str(), pr.graph_name.c_str(), pr.feat, pr.heads);
        std::printf("check: %d failures\n", failures);
        return 1;
      }
    }
    std::printf("%-28s %4d %2d %d variants correct\n", pr.graph_name.c_str(), pr.feat, pr.heads, ok);
  }
  std::printf("check: %d failures\n", failures);
  return failures ? 1 : 0;
}

struct ProfileOptions {
  std::string graph, name, variant = "seed";
  int feat = 64, heads = 1, iters = 20;
  uint64_t seed = 1;
};

// Runs one variant in a loop inside its NVTX range csrgat/<graph>/<variant>/profile, for an
// Nsight session; prints the ncu and nsys command lines that select exactly those launches.
int profile(const ProfileOptions& o) {
  check_graph_spec("profile --graph", o.graph);
  const VariantParams p = parse_variant_arg("profile --variant", o.variant);
  std::string why;
  if (!gpu_available(&why)) return no_gpu_exit("profile", why);
  const auto g = graphs::make_graph(o.graph);
  const std::string label = o.name.empty() ? g.name : o.name;
  const auto in = graphs::make_inputs(g, o.heads, o.feat, o.seed);
  DeviceProblem dp(g, in);
  dp.set_out_storage(p.out_type());  // an `.o16` id stores its 16-bit out
  NvrtcCompiler compiler(device_arch(0), "");
  const LoadedKernel k(compiler.compile(p));
  dp.set_reference(reference_aggregate(g, in));
  {
    profiler::ScopedRange range(label, p.id(), profiler::Phase::verify);
    const auto v = verify_variant(dp, k, p, default_tolerance(p.value));
    std::printf("verify %s on %s F=%d H=%d: %s %s\n", p.id().c_str(), label.c_str(), o.feat, o.heads,
                to_string(v.status), v.detail.c_str());
    if (v.status != TrialStatus::ok) return 1;
  }
  const std::string name = profiler::range_name(label, p.id(), profiler::Phase::profile);
  {
    profiler::ScopedRange range(name);
    for (int i = 0; i < o.iters; ++i) dp.launch(p, k, nullptr);
    CSRGAT_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::string escaped;
  for (char c : name) escaped += c == '/' ? std::string("\\/") : std::string(1, c);
  std::printf("ran %d launches in NVTX range \"%s\"\n", o.iters, name.c_str());
  std::printf("Nsight Compute: ncu --nvtx --nvtx-include '%s/' <this command>\n", escaped.c_str());
  std::printf("Nsight Systems: NSYS_NVTX_PROFILER_REGISTER_ONLY=0 nsys profile --trace=cuda,nvtx "
              "--capture-range=nvtx --nvtx-capture='%s' <this command>\n", name.c_str());
  return 0;
}

}  // namespace

void register_gpu_commands(CLI::App& app) {
  {
    auto* cmd = app.add_subcommand("profile", "Run one variant in a loop inside its NVTX range, for ncu or nsys (GPU)");
    static ProfileOptions o;
    cmd->add_option("--graph", o.graph, "graph file or generator spec")->required();
    cmd->add_option("--name", o.name, "graph label in the range name (default: the graph's name)");
    cmd->add_option("--variant", o.variant, "variant id (e.g. csrgat.tpr32...), seed.i32.f32 or cusparse.i32.f32")->required();
    cmd->add_option("--feat", o.feat, "feature width F")->check(CLI::Range(1, 1 << 30));
    cmd->add_option("--heads", o.heads, "heads H")->check(CLI::Range(1, 1 << 30));
    cmd->add_option("--iters", o.iters, "launches inside the range")->check(CLI::Range(1, 1 << 30));
    cmd->add_option("--seed", o.seed, "input seed")->check(seed_validator());
    cmd->callback([] {
      guarded("profile", [] { return profile(o); });
    });
  }
  auto* cmd = app.add_subcommand("check", "Verify every variant of a config against the float64 reference (GPU)");
  static std::string path;
  static uint64_t seed = std::random_device{}();
  cmd->add_option("config", path, "config YAML")->required();
  cmd->add_option("--seed", seed, "input seed (default: fresh each run)")->check(seed_validator());
  cmd->callback([] {
    guarded("check", [] { return check_config(path, seed); });
  });
}

}  // namespace csrgat::tuner
