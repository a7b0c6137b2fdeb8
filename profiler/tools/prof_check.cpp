// prof_check: one-call check of the profiler on a GPU.
//   prof_check <out.json> [--device N] [--skip-ceilings] [--counter-cost]
// Times a 256 MiB float4 copy with CUPTI and with events, a 100 KB copy, an empty kernel plain
// and in a CUDA graph, reads the copy's counters, measures the ceilings, prints a table and
// writes everything as JSON. --counter-cost also times counter collections on the 100 KB copy
// (each step of CounterSession::collect) with and without 8 GiB more device memory allocated
// (half the free memory where that is less), for kernel and user replay, each with the range
// profiler enabled per collection or kept enabled: whether CUPTI's kernel replay costs in
// proportion to the context's memory, and what the alternatives cost (and read) instead.
// Under ncu/nsys (detected from their environment) it times with events, reports counters as
// unavailable, takes few samples and skips the ceilings, and says so.
// Exit: 0 every check passed or was skipped, 1 error, 2 a check failed, 3 no CUDA device,
// 64 usage.
#include "profiler/ceilings.h"
#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/cupti_support.h"
#include "profiler/device_buffer.h"
#include "profiler/kernels.h"
#include "profiler/nvtx.h"
#include "profiler/timer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace prof = csrgat::profiler;

namespace {

struct Check {
  std::string name, status, detail;  // status: PASS, FAIL, SKIP
};

using prof::DeviceBuffer;  // prof_check's buffers are zero-filled (`true`)

void print_timing(const char* what, const prof::TimingResult& r) {
  std::printf(
      "  %-28s %-6s n=%-5lld median %10.3f us  [q1 %10.3f, q3 %10.3f]  noise %6.3f%%  event median "
      "%10.3f us%s\n",
      what, r.timer.c_str(), static_cast<long long>(r.gpu.n), r.gpu.median, r.gpu.q1, r.gpu.q3,
      100.0 * r.gpu.rel_noise, r.event.median, r.throttled_any ? "  THROTTLED" : "");
  if (!r.note.empty()) std::printf("  %-28s note: %s\n", "", r.note.c_str());
}

// Counter collections on `launch`, `n` times: the median of each step's wall time and of the
// whole (the sum of the steps).
nlohmann::json collection_cost(prof::CounterSession& counters, const prof::CounterLaunchFn& launch,
                               const prof::CounterLaunchFn& before_pass, int n) {
  std::map<std::string, std::vector<double>> steps;
  std::vector<double> totals;
  std::string failure;
  for (int i = 0; i < n; ++i) {
    const prof::CounterResult r = counters.collect(launch, before_pass);
    if (!r.ok) {
      failure = r.reason;
      break;
    }
    for (const auto& [step, sec] : r.wall_s) steps[step].push_back(sec);
    totals.push_back(prof::wall_seconds(r));
  }
  if (!failure.empty()) return {{"ok", false}, {"reason", failure}};
  nlohmann::json j = {
      {"ok", true}, {"collections", n}, {"median_s", prof::summarize(totals).median}};
  for (const auto& [step, v] : steps) j["steps_median_s"][step] = prof::summarize(v).median;
  return j;
}

void print_cost(const char* what, const nlohmann::json& c) {
  if (!c.value("ok", false)) {
    std::printf("  %-34s failed: %s\n", what, c.value("reason", std::string()).c_str());
    return;
  }
  std::string parts;
  for (const auto& [step, sec] : c["steps_median_s"].items()) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f ms", sec.get<double>() * 1e3);
    parts += (parts.empty() ? "" : ", ") + step + " " + ms;
  }
  std::printf("  %-34s median %8.1f ms  (%s)\n", what, c["median_s"].get<double>() * 1e3,
              parts.c_str());
}

int run(const std::string& out_path, int device, bool skip_ceilings, bool counter_cost) {
  const auto tool = prof::detail::injected_tool();
  prof::Timer timer(device);
  const prof::DeviceInfo info = prof::device_info(device, timer.nvml());
  std::printf("device %d: %s, cc %d.%d, %d SMs, L2 %zu MiB, %.1f GiB, driver %s, runtime %s, %s\n",
              device, info.name.c_str(), info.cc_major, info.cc_minor, info.sm_count,
              info.l2_bytes >> 20, info.global_mem / 1073741824.0, info.driver.c_str(),
              info.cuda_runtime.c_str(), info.uuid.c_str());
  std::printf("nvml: %s\n",
              timer.nvml().available() ? "available" : timer.nvml().why_unavailable().c_str());
  if (tool)
    std::printf("profiler attached (%s): events timing, few samples, no ceilings\n", tool->c_str());

  nlohmann::json j = {{"device", prof::to_json(info)}, {"profiler_attached", tool ? *tool : ""}};
  std::vector<Check> checks;
  prof::StopRule quick{0.005, 3, 5, 1.0};

  // 256 MiB copy: CUPTI vs events, then counters.
  const size_t big = size_t(256) << 20, big_n4 = big / 16;
  DeviceBuffer src(big, true), dst(big, true);
  const int big_grid = static_cast<int>(std::min<size_t>(big_n4 / 256, size_t(info.sm_count) * 16));
  auto big_copy = [&](cudaStream_t s, int) {
    prof::detail::launch_copy_f4(static_cast<const float4*>(src.ptr), static_cast<float4*>(dst.ptr),
                                 big_n4, big_grid, 256, s);
  };
  prof::TimingOptions cold;
  if (tool) cold.stop = quick;
  prof::TimingOptions cold_events = cold;
  cold_events.use_cupti = false;
  std::printf("\ntimings (cold L2 unless said)\n");
  prof::TimingResult t_big, t_big_ev;
  {
    prof::ScopedRange range("csrgat/prof_check/copy_256MiB/measure");
    t_big = timer.measure(big_copy, cold);
    t_big_ev = timer.measure(big_copy, cold_events);
  }
  print_timing("copy 256 MiB (cupti)", t_big);
  print_timing("copy 256 MiB (events)", t_big_ev);
  const double ideal = 2.0 * big;
  std::printf("  %-28s %.1f GB/s by %s median, %.1f GB/s by events median\n", "",
              ideal / t_big.gpu.median * 1e-3, t_big.timer.c_str(),
              ideal / t_big_ev.gpu.median * 1e-3);

  const size_t small = 100 * 1024, small_n4 = small / 16;
  auto small_copy = [&](cudaStream_t s, int) {
    prof::detail::launch_copy_f4(static_cast<const float4*>(src.ptr), static_cast<float4*>(dst.ptr),
                                 small_n4, static_cast<int>((small_n4 + 255) / 256), 256, s);
  };
  const prof::TimingResult t_small = timer.measure(small_copy, cold);
  print_timing("copy 100 KB (cupti)", t_small);

  prof::TimingOptions warm;
  warm.cache = prof::CacheMode::warm;
  if (tool) warm.stop = quick;
  const prof::TimingResult t_empty_cupti =
      timer.measure([](cudaStream_t s, int) { prof::detail::launch_empty(s); }, warm);
  prof::TimingOptions warm_events = warm;
  warm_events.use_cupti = false;
  const prof::TimingResult t_empty =
      timer.measure([](cudaStream_t s, int) { prof::detail::launch_empty(s); }, warm_events);
  prof::TimingOptions graph = warm;
  graph.graph_replay = true;
  graph.graph_batch = 100;
  const prof::TimingResult t_graph =
      timer.measure([](cudaStream_t s, int) { prof::detail::launch_empty(s); }, graph);
  print_timing("empty kernel (cupti)", t_empty_cupti);
  print_timing("empty kernel (events)", t_empty);
  print_timing("empty kernel, graph of 100", t_graph);

  j["timing"] = {
      {"copy_256MiB_cupti", prof::to_json(t_big)}, {"copy_256MiB_events", prof::to_json(t_big_ev)},
      {"copy_100KB", prof::to_json(t_small)},      {"empty_cupti", prof::to_json(t_empty_cupti)},
      {"empty_plain", prof::to_json(t_empty)},     {"empty_graph100", prof::to_json(t_graph)}};

  std::printf("\ncounters (CUPTI range profiler, kernel replay) on the 256 MiB copy\n");
  prof::CounterSession counters(device);
  prof::CounterResult cr;
  if (counters.available()) {
    prof::ScopedRange range("csrgat/prof_check/copy_256MiB/counters");
    cr = counters.collect([&](cudaStream_t s) { big_copy(s, 0); });
  } else {
    cr.reason = counters.why_unavailable();
  }
  j["counters"] = prof::to_json(cr);
  j["counters"]["chip"] = counters.chip();
  j["counters"]["passes"] = counters.passes();
  if (cr.ok) {
    for (const auto& [name, value] : cr.values)
      std::printf("  %-52s %20.1f\n", name.c_str(), value);
    if (!cr.reason.empty()) std::printf("  note: %s\n", cr.reason.c_str());
  } else {
    std::printf("  unavailable: %s\n", cr.reason.c_str());
  }

  if (counter_cost && cr.ok) {
    std::printf("\ncost of a counter collection on the 100 KB copy, by step (5 each)\n");
    const prof::CounterLaunchFn small_launch = [&](cudaStream_t s) { small_copy(s, 0); };
    DeviceBuffer flush_buffer(2 * info.l2_bytes, true);  // as the Timer's: twice the L2, written
    const prof::CounterLaunchFn flush = [&](cudaStream_t s) {
      prof::detail::launch_l2_flush(flush_buffer.ptr, 2 * info.l2_bytes, info.sm_count, s);
    };
    nlohmann::json cost;
    cost["copy_256MiB_wall_s"] = cr.wall_s;
    struct Mode {
      const char* name;
      prof::CounterOptions options;
    };
    using Replay = prof::CounterOptions::Replay;
    const Mode modes[] = {{"kernel_replay", {Replay::kernel, false}},
                          {"kernel_replay_stay_enabled", {Replay::kernel, true}},
                          {"user_replay", {Replay::user, false}},
                          {"user_replay_stay_enabled", {Replay::user, true}}};
    for (const Mode& m : modes) {
      std::printf("  %s\n", m.name);
      prof::CounterSession session(device, prof::default_metrics(), m.options);
      nlohmann::json& c = cost[m.name];
      auto run_cost = [&](const char* key, const char* what) {
        c[key] = collection_cost(session, small_launch, flush, 5);
        print_cost(what, c[key]);
      };
      run_cost("base", "as allocated (~0.5 GiB + flush)");
      {
        // 8 GiB, or half the free memory on a smaller GPU; written (memset), so resident.
        size_t free_b = 0, total_b = 0;
        CSRGAT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const size_t extra = std::min(size_t(8) << 30, free_b / 2);
        DeviceBuffer more(extra, true);
        c["more_bytes"] = extra;
        run_cost("plus_more",
                 ("with " + std::to_string(extra >> 20) + " MiB more allocated").c_str());
      }
      run_cost("after_free", "after freeing it");
      // The same counters on the 256 MiB copy: user replay (flushed before each pass) should
      // read the DRAM bytes kernel replay reads.
      const prof::CounterResult big =
          session.collect([&](cudaStream_t s) { big_copy(s, 0); }, flush);
      c["copy_256MiB_dram_bytes"] =
          big.ok ? nlohmann::json(prof::dram_bytes(big)) : nlohmann::json();
      c["copy_256MiB_reason"] = big.reason;
      std::printf("  %-34s %s\n", "256 MiB copy, DRAM bytes",
                  big.ok ? std::to_string(prof::dram_bytes(big)).c_str() : big.reason.c_str());
      if (m.options.stay_enabled) {
        // Timing while the range profiler stays enabled: the 100 KB copy again.
        const prof::TimingResult t = timer.measure(small_copy, cold);
        c["copy_100KB_timed_while_enabled"] = prof::to_json(t);
        print_timing("copy 100 KB, profiler enabled", t);
      }
    }
    cost["kernel_replay_256MiB_dram_bytes"] = prof::dram_bytes(cr);
    j["counter_cost"] = cost;
  }

  // Checks, as in tests/gpu/test_profiler.cpp.
  const bool cupti_timed = t_big.timer == "cupti";
  if (!cr.ok) {
    checks.push_back(
        {"counter vs CUPTI bandwidth within 5%", "SKIP", "counters unavailable: " + cr.reason});
  } else if (!cupti_timed) {
    checks.push_back(
        {"counter vs CUPTI bandwidth within 5%", "SKIP", "not CUPTI-timed: " + t_big.note});
  } else {
    const double counter_bw =
        prof::dram_bytes(cr) / cr.values.at("gpu__time_duration.sum");  // B/ns = GB/s
    const double cupti_bw = ideal / t_big.gpu.median * 1e-3;
    const double rel = std::fabs(counter_bw - cupti_bw) / cupti_bw;
    char d[160];
    std::snprintf(d, sizeof d, "counters %.1f GB/s, CUPTI %.1f GB/s, diff %.2f%%", counter_bw,
                  cupti_bw, 100 * rel);
    checks.push_back({"counter vs CUPTI bandwidth within 5%", rel <= 0.05 ? "PASS" : "FAIL", d});
  }
  if (t_small.timer != "cupti") {
    checks.push_back(
        {"100 KB copy: CUPTI < 2 us < events", "SKIP", "not CUPTI-timed: " + t_small.note});
  } else {
    char d[160];
    std::snprintf(d, sizeof d, "CUPTI median %.3f us, event median %.3f us", t_small.gpu.median,
                  t_small.event.median);
    const bool ok = t_small.gpu.median < 2.0 && t_small.event.median > t_small.gpu.median;
    checks.push_back({"100 KB copy: CUPTI < 2 us < events", ok ? "PASS" : "FAIL", d});
  }
  {
    char d[160];
    std::snprintf(d, sizeof d, "graph %.3f us per launch, plain event %.3f us", t_graph.gpu.median,
                  t_empty.event.median);
    const bool ok = t_graph.timer == "graph" && t_graph.gpu.median < t_empty.event.median;
    checks.push_back({"graph launch < plain launch", ok ? "PASS" : "FAIL", d});
  }

  if (skip_ceilings || tool) {
    checks.push_back({"ceilings: DRAM copy in [3000, 5000] GB/s on H200", "SKIP",
                      tool ? "profiler attached" : "--skip-ceilings"});
  } else {
    std::printf("\nceilings\n");
    const prof::Ceilings c = prof::measure_ceilings(device, timer);
    std::printf(
        "  dram_copy_gbs   %10.1f\n  dram_read_gbs   %10.1f (%.3fx the copy)\n"
        "  l2_copy_gbs     %10.1f\n  l2_gather_gbs   %10.1f\n"
        "  fp32_gflops     %10.1f\n"
        "  launch_us_plain %10.3f\n  launch_us_graph %10.3f\n",
        c.dram_copy_gbs, c.dram_read_gbs, c.dram_read_gbs / c.dram_copy_gbs, c.l2_copy_gbs,
        c.l2_gather_gbs, c.fp32_gflops, c.launch_us_plain, c.launch_us_graph);
    j["ceilings"] = prof::to_json(c);
    if (info.name.find("H200") == std::string::npos) {
      checks.push_back({"ceilings: DRAM copy in [3000, 5000] GB/s on H200", "SKIP",
                        "not an H200: " + info.name});
    } else {
      const bool ok = c.dram_copy_gbs >= 3000 && c.dram_copy_gbs <= 5000;
      checks.push_back({"ceilings: DRAM copy in [3000, 5000] GB/s on H200", ok ? "PASS" : "FAIL",
                        std::to_string(c.dram_copy_gbs) + " GB/s"});
    }
  }

  std::printf("\nchecks\n");
  bool failed = false;
  nlohmann::json jc = nlohmann::json::array();
  for (const Check& c : checks) {
    std::printf("  %-4s %-50s %s\n", c.status.c_str(), c.name.c_str(), c.detail.c_str());
    failed = failed || c.status == "FAIL";
    jc.push_back({{"name", c.name}, {"status", c.status}, {"detail", c.detail}});
  }
  j["checks"] = jc;
  std::ofstream out(out_path);
  out << j.dump(2) << "\n";
  if (!out) {
    std::fprintf(stderr, "prof_check: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::printf("\nwrote %s\n", out_path.c_str());
  return failed ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string out_path;
  int device = 0;
  bool skip_ceilings = false, counter_cost = false, bad = false;
  for (int i = 1; i < argc && !bad; ++i) {
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      device = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--skip-ceilings"))
      skip_ceilings = true;
    else if (!std::strcmp(argv[i], "--counter-cost"))
      counter_cost = true;
    else if (argv[i][0] != '-' && out_path.empty())
      out_path = argv[i];
    else
      bad = true;
  }
  if (bad || out_path.empty()) {
    std::fprintf(stderr, "usage: %s <out.json> [--device N] [--skip-ceilings] [--counter-cost]\n",
                 argv[0]);
    return 64;
  }
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "prof_check: no CUDA device: %s\n",
                 e != cudaSuccess
                     ? ("cudaGetDeviceCount failed: " + prof::detail::cuda_error_text(e)).c_str()
                     : "cudaGetDeviceCount found 0 devices");
    return 3;
  }
  if (device < 0 || device >= count) {
    std::fprintf(stderr, "prof_check: no CUDA device %d (found %d)\n", device, count);
    return 3;
  }
  try {
    return run(out_path, device, skip_ceilings, counter_cost);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "prof_check: %s\n", e.what());
    return 1;
  }
}
