// tuner timeline: one launch of a fused variant, task by task (tuner/timeline.h). The variant is
// compiled twice, as tuned and with -DCSRGAT_TIMELINE; the diagnostic build runs `--launches`
// times (cold L2 by default: flushed before each launch), every group recording its start, end
// and SM, and the launch of median span is summarised. Both builds are also timed side by side
// (CUPTI, same cache mode), so the records' cost to the kernel is printed next to them.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graphs/generate.h"
#include "profiler/check.h"
#include "profiler/timer.h"
#include "tuner/cli/commands.h"
#include "tuner/device_problem.h"
#include "tuner/timeline.h"
#include "tuner/verify.h"
#include "variants/plan.h"
#include "variants/reference.h"

namespace csrgat::tuner {
namespace {

struct TimelineOptions {
  std::vector<std::string> graphs;
  std::string variants;
  std::string cache = "cold";
  std::string json;
  int feat = 64, heads = 1, launches = 7, last = 10;
  bool tasks = false;
  uint64_t seed = 1;
};

// The device buffer of one launch's records.
struct Records {
  TimelineRecord* data = nullptr;
  ~Records() {
    if (data) cudaFree(data);
  }
};

// A --variant item as the timeline takes it (before the GPU check): a fused variant id in one
// launch.
VariantParams timeline_variant(const std::string& id) {
  const VariantParams p = parse_variant_arg("timeline --variant", id);
  if (p.family != Family::fused) throw std::invalid_argument(p.id() + ": only fused variants record a timeline");
  // One record per task and launch: the T launches of a `.fs<T>` variant would each overwrite
  // the last's.
  if (p.slices > 1)
    throw std::invalid_argument(p.id() + ": a variant in feature slices is " + std::to_string(p.slices) +
                                " launches; its timeline would keep the last one only (time the "
                                "variant without .fs" + std::to_string(p.slices) + ")");
  return p;
}

nlohmann::json timeline_one(DeviceProblem& dp, const graphs::Csr64& g, const VariantParams& p,
                            const TimelineOptions& o, profiler::Timer& timer) {
  dp.set_out_storage(p.out_type());  // an `.o16` id stores its 16-bit out
  const std::string why = dp.unsupported_reason(p);
  if (!why.empty()) throw std::invalid_argument(p.id() + ": " + why);
  const std::string arch = device_arch(0);  // the GPU it records
  const LoadedKernel plain(NvrtcCompiler(arch, "").compile(p));
  const LoadedKernel traced(NvrtcCompiler(arch, "", {"CSRGAT_TIMELINE"}).compile(p));
  const TimelineLayout layout = timeline_layout(p, dp.host_row_ptr(), o.heads);
  const auto geo = launch_geometry(p, dp.num_nodes(), o.heads, o.feat,
                                   static_cast<int64_t>(layout.chunks.size()), dp.max_degree(), 0);
  const size_t groups = static_cast<size_t>(geo.grid) * static_cast<size_t>(p.tpr > 32 ? 1 : p.rpb);
  Records b;
  CSRGAT_CUDA_CHECK(cudaMalloc(&b.data, groups * sizeof(TimelineRecord)));
  CSRGAT_CUDA_CHECK(cudaMemcpy(traced.global_address("csrgat_timeline"), &b.data, sizeof(b.data),
                               cudaMemcpyHostToDevice));
  // The records must not change what the kernel computes.
  const auto check = verify_variant(dp, traced, p, default_tolerance(p.value));
  if (check.status != TrialStatus::ok)
    throw std::runtime_error(p.id() + ": the diagnostic build is " + to_string(check.status) + ": " + check.detail);
  const bool cold = o.cache == "cold";
  cudaStream_t s = timer.stream();

  struct Launch {
    double span;
    std::vector<TimelineRecord> records;
    std::vector<TimelineTask> tasks;  // the records named
  };
  std::vector<Launch> launches;
  for (int i = 0; i < o.launches; ++i) {
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(b.data, 0, groups * sizeof(TimelineRecord), s));
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
    if (cold) timer.flush_l2();
    dp.launch(p, traced, s);
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
    Launch l;
    l.records.resize(groups);
    CSRGAT_CUDA_CHECK(cudaMemcpy(l.records.data(), b.data, groups * sizeof(TimelineRecord),
                                 cudaMemcpyDeviceToHost));
    l.tasks = name_timeline(l.records, layout);
    l.span = 0;
    for (const auto& t : l.tasks) l.span = std::max(l.span, t.end_us);
    launches.push_back(std::move(l));
  }
  std::vector<size_t> order(launches.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t c) { return launches[a].span < launches[c].span; });
  const Launch& median = launches[order[order.size() / 2]];
  const auto& tasks = median.tasks;

  // Both builds timed side by side, so the records' own cost is known.
  profiler::TimingOptions topt;
  topt.cache = cold ? profiler::CacheMode::cold : profiler::CacheMode::warm;
  topt.stop.min_samples = 30;
  topt.stop.max_samples = 200;
  topt.stop.max_seconds = 0.3;
  profiler::TimingResult t_plain, t_traced;
  const auto time_both = [&] {
    t_plain = timer.measure([&](cudaStream_t st, int) { dp.launch(p, plain, st); }, topt);
    t_traced = timer.measure([&](cudaStream_t st, int) { dp.launch(p, traced, st); }, topt);
  };
  time_both();
  if (t_plain.timer != t_traced.timer) {
    // One lost CUPTI: both timed again by events, untraced, so that one timer under one
    // condition gives the records' cost.
    topt.use_cupti = false;
    time_both();
  }

  nlohmann::json j{{"graph", g.name}, {"variant", p.id()}, {"feat", o.feat}, {"heads", o.heads},
                   {"cache", o.cache}, {"grid", geo.grid}, {"block", geo.block},
                   {"registers", {{"plain", plain.registers()}, {"timeline", traced.registers()}}},
                   {"gpu_us", {{"plain", t_plain.gpu.median}, {"timeline", t_traced.gpu.median}, {"timer", t_plain.timer}}},
                   {"timer_step_ns", timer_step_ns(median.records)}};
  nlohmann::json spans = nlohmann::json::array();
  for (const auto& l : launches) spans.push_back(l.span);
  j["spans_us"] = spans;
  j["summary"] = summarize_timeline(tasks, o.last);
  if (o.tasks) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& t : tasks)
      all.push_back({t.task, t.kind, t.row, t.edges, t.head, t.sm, t.block, t.start_us, t.end_us, t.cycles,
                     t.mark_us[0], t.mark_us[1], t.mark_us[2]});
    j["task_columns"] = {"task", "kind", "row", "edges", "head", "sm", "block", "start_us", "end_us", "cycles",
                         "mark0_us", "mark1_us", "mark2_us"};
    j["tasks"] = all;
  }
  std::printf("%s on %s (F=%d, H=%d, %s): grid %lld x %d, registers %d (timeline build %d)\n",
              p.id().c_str(), g.name.c_str(), o.feat, o.heads, o.cache.c_str(),
              static_cast<long long>(geo.grid), geo.block, plain.registers(), traced.registers());
  std::printf("  GPU time (%s, median): %.2f us as tuned, %.2f us with the records; global timer step %llu ns\n",
              t_plain.timer.c_str(), t_plain.gpu.median, t_traced.gpu.median,
              static_cast<unsigned long long>(j["timer_step_ns"].get<uint64_t>()));
  std::printf("  spans of %d launches (us):", o.launches);
  for (size_t i : order) std::printf(" %.2f", launches[i].span);
  std::printf("; the median one:\n%s", format_timeline(j["summary"]).c_str());
  return j;
}

int timeline(const TimelineOptions& o) {
  std::vector<VariantParams> variants;
  for (const auto& id : nonempty_list("timeline --variant", o.variants))
    variants.push_back(timeline_variant(id));
  for (const auto& spec : o.graphs) check_graph_spec("timeline --graph", spec);
  check_output_path("timeline --json", o.json);
  std::string why;
  if (!gpu_available(&why)) return no_gpu_exit("timeline", why);
  profiler::Timer timer(0);
  nlohmann::json out = nlohmann::json::array();
  // A graph or variant that fails is an entry saying why (and exit 1); the others are kept.
  int failures = 0;
  const auto failed = [&](const std::string& spec, const std::string& variant,
                          const std::exception& ex) {
    ++failures;
    std::printf("%s on %s: error: %s\n", variant.c_str(), spec.c_str(), ex.what());
    out.push_back({{"graph", spec}, {"variant", variant}, {"error", ex.what()}});
  };
  for (const auto& spec : o.graphs) {
    try {
      const auto g = graphs::make_graph(spec);
      const auto in = graphs::make_inputs(g, o.heads, o.feat, o.seed);
      DeviceProblem dp(g, in);
      dp.set_reference(reference_aggregate(g, in));
      for (const auto& p : variants) {
        try {
          out.push_back(timeline_one(dp, g, p, o, timer));
        } catch (const std::exception& ex) {
          failed(spec, p.id(), ex);
        }
      }
    } catch (const std::exception& ex) {
      failed(spec, "-", ex);
    }
  }
  if (!o.json.empty()) {
    std::ofstream f(o.json);
    if (!f) throw std::runtime_error("cannot write " + o.json);
    f << out.dump(1) << "\n";
  }
  return failures ? 1 : 0;
}

}  // namespace

void register_timeline_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("timeline", "One launch of fused variants, task by task: when each group started and ended, on which SM (GPU)");
  static TimelineOptions o;
  cmd->add_option("--graph", o.graphs, "graph file or generator spec (repeatable)")->required();
  cmd->add_option("--variant", o.variants, "comma list of fused variant ids")->required();
  cmd->add_option("--feat", o.feat, "feature width F")->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--heads", o.heads, "heads H")->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--cache", o.cache, "cold (L2 flushed before each launch, default) or warm")
      ->check(CLI::IsMember({"cold", "warm"}));
  cmd->add_option("--launches", o.launches,
                  "recorded launches; the one of median span is summarised")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--last", o.last, "how many of the last tasks to end are listed")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_flag("--tasks", o.tasks, "write every task's record to the JSON, not only the summary");
  cmd->add_option("--json", o.json, "write the summaries (and with --tasks the records) here");
  cmd->callback([] { guarded("timeline", [] { return timeline(o); }); });
}

}  // namespace csrgat::tuner
