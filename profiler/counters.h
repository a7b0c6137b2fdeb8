// Hardware counters through the CUPTI Range Profiler. By default AutoRange + KernelReplay, i.e.
// one range per kernel, and CUPTI replays each kernel (saving and restoring device memory) as
// many times as the metrics need passes. The launch callback therefore runs once, and a launch
// need not be idempotent. CounterOptions selects user replay (the session repeats an idempotent
// launch) and a range profiler kept enabled between collections instead; which of them costs
// least per collection is measured by `prof_check --counter-cost`. Counter values of a replayed
// kernel are not timings: time with Timer.
//
// Order with Timer: the tuner times first, then collects counters in a separate, untimed pass.
// collect() pauses the process's CUPTI activity tracing while it runs (replayed kernels must
// not reach a measurement) and resumes it afterwards.
//
// Counters can be unavailable: no privileges (RmProfilingAdminOnly=1), a virtualised or MIG
// GPU, a profiler already attached (ncu, nsys, DCGM profiling), CUPTI errors. Then available()
// is false, why_unavailable() carries CUPTI's reason, and collect() returns ok = false with it.
// collect() never throws.
#pragma once

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace csrgat::profiler {

struct CounterResult {
  bool ok = false;
  std::string reason;  // why !ok, or a caveat ("" when none)
  // Keyed by the requested metric name. Metrics ending in ".sum" are summed over the kernels of
  // the launch; every other metric (rates, .max, .avg) is the value of the kernel with the
  // longest gpu__time_duration.sum (the first kernel when that metric is not collected).
  std::map<std::string, double> values;
  int kernels = 0;                                        // kernels (ranges) in the launch
  std::vector<std::map<std::string, double>> per_kernel;  // raw values, launch order
  // Host wall time of collect()'s steps, seconds: "pause" (activity tracing paused: its buffers
  // flushed), "enable" (range profiler object), "configure" (counter data image and config),
  // "replay" (the launch and CUPTI's passes, to the stream's end), "decode" (decoding and
  // evaluating the ranges), "disable", "resume" (activity tracing on again). Where a
  // collection's cost goes, which the tuner's counter trials record with their values. A failed
  // collection keeps the steps it took.
  std::map<std::string, double> wall_s;
};

// dram__bytes_read.sum, dram__bytes_write.sum, lts__t_bytes.sum,
// sm__sass_thread_inst_executed_op_{ffma,fadd,fmul}_pred_on.sum, gpu__time_duration.sum,
// gpc__cycles_elapsed.max, gpc__cycles_elapsed.avg.per_second.
std::vector<std::string> default_metrics();

struct CounterOptions;
// How the tuner's worker and `tuner bench` collect: kernel replay with the range profiler kept
// enabled between collections. On the H200 (sixteenth session, prof_check --counter-cost) a
// collection on a small kernel took 64 ms against 465 ms enabled per collection (the first
// pass after an enable costs ~350 ms), and a kernel timed meanwhile took the same time.
CounterOptions tool_counter_options();

using CounterLaunchFn = std::function<void(cudaStream_t stream)>;

struct CounterOptions {
  // kernel: CUPTI replays each kernel of the launch (AutoRange: one range per kernel); the launch
  //   callback runs once and need not be idempotent, and CUPTI saves and restores device memory
  //   around the passes.
  // user: collect() calls the launch once per pass (UserRange: the whole launch is one range, so
  //   per_kernel has one entry and gpu__time_duration spans the launch's kernels); the launch must
  //   be idempotent. collect()'s `before_pass` runs before each pass, outside the range (an L2
  //   flush, so that every pass starts cold).
  enum class Replay { kernel, user } replay = Replay::kernel;
  // false: the range profiler is enabled and disabled around each collection. true: it is
  // enabled at the first collection and stays enabled until the session ends (or a collection
  // fails), and each collection only configures, starts and stops it; meanwhile no other
  // CounterSession can collect on the device's context.
  bool stay_enabled = false;
};

class CounterSession {
 public:
  // Metrics unknown on this chip are dropped (dropped_metrics() says which); an sm__sass_*
  // metric the chip lacks is retried as smsp__sass_*. Never throws.
  explicit CounterSession(int device, std::vector<std::string> metrics = default_metrics(),
                          CounterOptions options = {});
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  bool available() const;
  std::string why_unavailable() const;
  const std::vector<std::string>& metrics() const;          // collected (requested names)
  const std::vector<std::string>& dropped_metrics() const;  // "name: reason"
  std::string chip() const;                                 // e.g. "GH100"
  size_t passes() const;                                    // replay passes per kernel

  // The callback enqueues one launch on `stream` (one or several kernels, at most 256).
  // `before_pass` (user replay only; may be empty) enqueues what each pass needs first.
  CounterResult collect(const CounterLaunchFn& launch, const CounterLaunchFn& before_pass = {});
  const CounterOptions& options() const;
  // collect() with the range profiler enabled for this collection only, also in a session that
  // keeps it enabled: for launches of libraries' kernels (cuSPARSE). On the H200 one such
  // collection with the profiler kept enabled killed the process (SIGSEGV inside the
  // collection, sixteenth session's run 8), where seven runs enabling per collection had not.
  CounterResult collect_enabled_once(const CounterLaunchFn& launch);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// dram__bytes_read.sum + dram__bytes_write.sum (NaN when not collected).
double dram_bytes(const CounterResult& r);
// 2 * FFMA + FADD + FMUL thread instructions: an FFMA counts as two flops, as in Nsight Compute
// (NaN when one of the three was not collected).
double fp32_flops(const CounterResult& r);

// The collection's host time: its steps' wall_s summed (0 when it recorded none).
double wall_seconds(const CounterResult& r);

nlohmann::json to_json(const CounterResult& r);

}  // namespace csrgat::profiler
