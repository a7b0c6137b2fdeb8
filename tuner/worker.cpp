#include "tuner/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "graphs/features.h"
#include "graphs/generate.h"
#include "profiler/ceilings.h"
#include "profiler/check.h"
#include "profiler/counters.h"
#include "profiler/nvml.h"
#include "profiler/nvtx.h"
#include "profiler/timer.h"
#include "tuner/device_problem.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/store.h"
#include "tuner/verify.h"
#include "variants/reference.h"

namespace csrgat::tuner {
namespace {

// One problem at a time stays resident: graph, inputs, device copy (with the reference).
struct Resident {
  std::string key;
  graphs::Csr64 graph;
  graphs::Inputs inputs;
  std::unique_ptr<DeviceProblem> device;
};

struct WorkerState {
  int device = 0;
  std::string uuid;  // this worker's GPU, read once (stamped into every measurement reply)
  std::unique_ptr<Resident> problem;
  std::map<std::string, std::unique_ptr<LoadedKernel>> kernels;
  std::unique_ptr<profiler::Timer> timer;
  std::unique_ptr<profiler::CounterSession> counters;
  bool announce = false;  // a worker process (worker_main) prints progress lines; in-process use does not
};

WorkerState& state() {
  static WorkerState s;
  return s;
}

// The phases of a trial, announced on stdout before each starts ({"progress": PHASE}) so that the
// parent can say where a worker it had to kill was, and timed, into the trial's raw.phase_s.
class Phases {
 public:
  void enter(const char* phase) {
    close();
    if (state().announce) std::cout << nlohmann::json{{"progress", phase}}.dump() << "\n" << std::flush;
    current_ = phase;
    t0_ = std::chrono::steady_clock::now();
  }
  nlohmann::json seconds() {
    close();
    return seconds_;
  }

 private:
  void close() {
    if (current_.empty()) return;
    seconds_[current_] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    current_.clear();
  }
  std::string current_;
  std::chrono::steady_clock::time_point t0_;
  nlohmann::json seconds_ = nlohmann::json::object();
};

// Read at the start of each measurement request, while the context is healthy (kept once read;
// "" when the device cannot say, which never throws).
const std::string& gpu_uuid_of_worker() {
  auto& st = state();
  cudaDeviceProp prop{};
  if (st.uuid.empty() && cudaGetDeviceProperties(&prop, st.device) == cudaSuccess)
    st.uuid = profiler::format_gpu_uuid(prop.uuid.bytes);
  return st.uuid;
}

Resident& resident(const nlohmann::json& r) {
  auto& st = state();
  const std::string key = r.at("spec").get<std::string>() + "|F" + std::to_string(r.at("feat").get<int>()) +
                          "|H" + std::to_string(r.at("heads").get<int>()) + "|S" +
                          std::to_string(r.value("seed", uint64_t{1}));
  if (st.problem && st.problem->key == key) return *st.problem;
  st.problem.reset();  // free the old device copy first
  // And the old problem's kernels: a worker that kept every module it ever loaded had ~700 of
  // them by its third problem, and each hardware-counter pass then took ~2 s per kernel
  // (fourteenth session); a kernel needed again is loaded from the compile cache.
  st.kernels.clear();
  auto p = std::make_unique<Resident>();
  p->key = key;
  p->graph = graphs::make_graph(r.at("spec").get<std::string>());
  p->inputs = graphs::make_inputs(p->graph, r.at("heads").get<int>(), r.at("feat").get<int>(),
                                  r.value("seed", uint64_t{1}));
  p->device = std::make_unique<DeviceProblem>(p->graph, p->inputs);
  p->device->set_reference(reference_aggregate(p->graph, p->inputs));
  st.problem = std::move(p);
  return *st.problem;
}

const LoadedKernel& kernel_for(const VariantParams& p, const nlohmann::json& r) {
  auto& st = state();
  auto it = st.kernels.find(p.id());
  if (it != st.kernels.end()) return *it->second;
  NvrtcCompiler compiler(r.value("arch", "sm_90"), r.value("cache_dir", ""),
                         test_knob_defines(r.value("slow_percent", 0u)));
  auto k = std::make_unique<LoadedKernel>(compiler.compile(p));
  return *st.kernels.emplace(p.id(), std::move(k)).first->second;
}

profiler::TimingOptions timing_options(const nlohmann::json& t) {
  profiler::TimingOptions o;
  o.cache = t.value("cache", "cold") == "warm" ? profiler::CacheMode::warm : profiler::CacheMode::cold;
  o.graph_replay = t.value("graph_replay", false);
  o.graph_batch = t.value("graph_batch", 50);
  o.warmup = t.value("warmup", 3);
  o.stop.max_rel_noise = t.value("max_rel_noise", 0.005);
  o.stop.min_samples = t.value("min_samples", 10);
  o.stop.max_samples = t.value("max_samples", 300);
  o.stop.max_seconds = t.value("max_seconds", 0.5);
  o.stop.cutoff = t.value("cutoff_us", 0.0);  // a screening's early exit (tuner run); 0: off
  return o;
}

// Whether the timed launches of p overlap the previous kernel (timing.overlap_previous): the
// fused family only; the baselines do not wait for the previous kernel themselves.
bool overlapped(const nlohmann::json& timing, const VariantParams& p) {
  return timing.value("overlap_previous", false) && p.family == Family::fused;
}

void fill_timing(TrialRecord& t, const profiler::TimingResult& r) {
  t.median_us = r.gpu.median;
  t.q1_us = r.gpu.q1;
  t.q3_us = r.gpu.q3;
  t.min_us = r.gpu.min;
  t.max_us = r.gpu.max;
  t.mean_us = r.gpu.mean;
  t.stddev_us = r.gpu.stddev;
  t.rel_noise = r.gpu.rel_noise;
  t.event_median_us = r.event.median;
  t.samples = static_cast<int>(r.gpu.n);
  t.timer = r.timer;
  t.throttled = r.throttled_any;
  t.raw = profiler::to_json(r);
}

nlohmann::json trial(const nlohmann::json& r) {
  auto& st = state();
  gpu_uuid_of_worker();
  TrialRecord t;
  t.graph = r.at("graph");
  t.spec = r.at("spec");
  t.feat = r.at("feat");
  t.heads = r.at("heads");
  t.variant = r.at("variant");
  t.stage = r.value("stage", 0);
  const VariantParams p = VariantParams::parse(t.variant);
  Phases phases;
  phases.enter("prepare");
  Resident& res = resident(r);
  res.device->set_slow_percent(r.value("slow_percent", 0u));
  nlohmann::json reply;
  const LoadedKernel* k = nullptr;
  try {
    phases.enter("load");
    k = &kernel_for(p, r);
    t.registers = k->registers();
  } catch (const CompileError& e) {
    t.status = to_string(TrialStatus::compile_failed);
    t.detail = std::string(e.what()) + "\n" + e.log();
  } catch (const std::exception& e) {
    // A context lost earlier (by another variant) fails every load after it: restart the
    // worker rather than blame each following variant.
    const bool lost = context_lost();
    t.status = to_string(lost ? TrialStatus::crashed : TrialStatus::launch_failed);
    t.detail = e.what();
    if (lost) reply["fatal"] = true;
  }
  if (k) {
    const double tol = r.value("rel_tol", default_tolerance(p.value));
    VerifyResult v;
    phases.enter("verify");
    {
      profiler::ScopedRange range(t.graph, t.variant, profiler::Phase::verify);
      v = verify_variant(*res.device, *k, p, tol);
    }
    const nlohmann::json timing = r.value("timing", nlohmann::json::object());
    if (v.status == TrialStatus::ok && overlapped(timing, p)) {
      // Timed overlapped: checked overlapped too, after a previous kernel that writes late.
      profiler::ScopedRange range(t.graph, t.variant, profiler::Phase::verify);
      const VerifyResult o = verify_after_late_producer(
          *res.device, p.value, [&](cudaStream_t s) { res.device->launch(p, *k, s, true); }, tol);
      if (o.status != TrialStatus::ok) v = o;
    }
    t.rel_error = v.rel_error;
    t.detail = v.detail;
    t.status = to_string(v.status);
    if (v.status == TrialStatus::launch_failed && context_lost()) {
      t.status = to_string(TrialStatus::crashed);
      reply["fatal"] = true;
    } else if (v.status == TrialStatus::ok && r.value("measure", true)) {
      if (!st.timer) st.timer = std::make_unique<profiler::Timer>(st.device);
      phases.enter("measure");
      try {
        profiler::ScopedRange range(t.graph, t.variant, profiler::Phase::measure);
        const bool ov = overlapped(timing, p);
        const profiler::TimingOptions opts = timing_options(timing);
        const auto tr =
            st.timer->measure([&](cudaStream_t s, int) { res.device->launch(p, *k, s, ov); }, opts);
        fill_timing(t, tr);
        if (tr.stop == profiler::StopReason::cutoff) {
          char buf[200];
          std::snprintf(
              buf, sizeof buf,
              "screening cut after %lld samples: the faster %.2f us, over the cutoff of %.2f us",
              static_cast<long long>(tr.gpu.n), tr.gpu.min, opts.stop.cutoff);
          t.detail += (t.detail.empty() ? "" : "; ") + std::string(buf);
        }
        if (ov) {
          // Checked again on what the timed (overlapped) launches left in out, as tuner bench
          // does: races among the variant's own launches (the split rows' counters). A read
          // before the wait is verify_after_late_producer's to catch (above): inside a replay the
          // previous kernel is the same variant, which writes neither scores nor values.
          const VerifyResult after = check_output(*res.device, tol);
          if (after.status != TrialStatus::ok) {
            t.status = to_string(after.status);
            t.detail = "after the timed (overlapped) launches: " + after.detail;
          }
        }
      } catch (const std::exception& e) {
        t.status = to_string(context_lost() ? TrialStatus::crashed : TrialStatus::launch_failed);
        t.detail = std::string("while timing: ") + e.what();
        if (t.status == "crashed") reply["fatal"] = true;
      }
      if (t.status == "ok" && r.value("counters", false)) {
        phases.enter("counters");
        if (!st.counters)
          st.counters = std::make_unique<profiler::CounterSession>(
              st.device, profiler::default_metrics(), profiler::tool_counter_options());
        profiler::ScopedRange range(t.graph, t.variant, profiler::Phase::counters);
        t.counters = profiler::to_json(collect_counters(
            *st.counters, p.family, [&](cudaStream_t s) { res.device->launch(p, *k, s); }));
        if (context_lost()) {  // the timing stands; the worker does not
          t.counters = {{"ok", false}, {"reason", "the CUDA context was lost during the counter replay"}};
          reply["fatal"] = true;
        }
      }
    }
  }
  // The GPU that measured it: a run on several GPUs records only GPU 0 in its runs row.
  if (!t.raw.is_object()) t.raw = nlohmann::json::object();
  t.raw["gpu_uuid"] = gpu_uuid_of_worker();
  t.raw["phase_s"] = phases.seconds();
  reply["ok"] = true;
  reply["trial"] = to_json(t);
  return reply;
}

nlohmann::json interleaved(const nlohmann::json& r) {
  gpu_uuid_of_worker();
  auto& st = state();
  Resident& res = resident(r);
  res.device->set_slow_percent(r.value("slow_percent", 0u));
  if (!st.timer) st.timer = std::make_unique<profiler::Timer>(st.device);
  const nlohmann::json timing = r.value("timing", nlohmann::json::object());
  auto opts = timing_options(timing);
  const int rounds = r.value("rounds", 5);
  opts.stop.min_samples = r.value("samples_per_round", 10);
  opts.stop.max_samples = opts.stop.min_samples;
  opts.stop.max_seconds = 1e9;
  std::vector<VariantParams> vs;
  for (const auto& v : r.at("variants")) vs.push_back(VariantParams::parse(v.get<std::string>()));
  // Each variant's rounds, interleaved, pooled at the end. Selection sets the leaders against
  // each other, so one timer under one condition must time them all: where a round lost CUPTI
  // (its timer "events"), every leader's rounds are timed again by events, untraced (a traced
  // launch's event time carries CUPTI's per-launch cost, an untraced one's does not).
  std::vector<std::vector<profiler::TimingResult>> rounds_of;
  std::set<std::string> timers;
  const auto time_rounds = [&](const profiler::TimingOptions& o) {
    rounds_of.assign(vs.size(), {});
    timers.clear();
    for (int round = 0; round < rounds; ++round) {
      for (size_t i = 0; i < vs.size(); ++i) {
        const LoadedKernel& k = kernel_for(vs[i], r);
        const bool ov = overlapped(timing, vs[i]);
        rounds_of[i].push_back(st.timer->measure(
            [&](cudaStream_t s, int) { res.device->launch(vs[i], k, s, ov); }, o));
        timers.insert(rounds_of[i].back().timer);
      }
    }
  };
  time_rounds(opts);
  std::string again;
  if (timers.size() > 1 && opts.use_cupti) {
    again = "the leaders' rounds were timed by " + profiler::timer_names(timers) +
            ": every leader timed again by events, untraced";
    opts.use_cupti = false;
    time_rounds(opts);
  }
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < vs.size(); ++i) {
    std::set<std::string> own;  // the timers of its own rounds (run.cpp records them)
    for (const auto& tr : rounds_of[i]) own.insert(tr.timer);
    // Still two timers (a graph that did not capture in one round): event times, and said so.
    const profiler::TimingResult all =
        profiler::pool_rounds(std::move(rounds_of[i]), timers.size() > 1);
    std::vector<std::string> notes;
    if (!again.empty()) notes.push_back(again);
    if (!all.note.empty()) notes.push_back(all.note);
    out.push_back({{"variant", vs[i].id()},
                   {"summary", profiler::to_json(all.gpu)},
                   {"throttled", all.throttled_any},
                   {"timers", own},
                   {"timer", all.timer},
                   {"notes", notes}});
  }
  return {{"ok", true}, {"results", out}, {"gpu_uuid", gpu_uuid_of_worker()}};
}

// Unloads every kernel not named in `variants` (the ids a problem still needs after its
// screening: finalists and baselines); a released kernel is loaded again if asked for.
nlohmann::json keep_kernels(const nlohmann::json& r) {
  auto& st = state();
  std::set<std::string> keep;
  for (const auto& v : r.at("variants")) keep.insert(v.get<std::string>());
  size_t released = 0;
  for (auto it = st.kernels.begin(); it != st.kernels.end();) {
    if (keep.count(it->first)) {
      ++it;
    } else {
      it = st.kernels.erase(it);
      ++released;
    }
  }
  return {{"ok", true}, {"kept", st.kernels.size()}, {"released", released}};
}

nlohmann::json info(const nlohmann::json& r) {
  auto& st = state();
  if (!st.timer) st.timer = std::make_unique<profiler::Timer>(st.device);
  nlohmann::json out{{"ok", true}, {"device", profiler::to_json(profiler::device_info(st.device))}};
  if (r.value("ceilings", true)) {
    const auto c = profiler::load_or_measure_ceilings(st.device, *st.timer, r.value("cache_dir", ""));
    out["ceilings"] = profiler::to_json(c);
  }
  return out;
}

}  // namespace

nlohmann::json handle_request(int device, const nlohmann::json& request) {
  state().device = device;
  try {
    CSRGAT_CUDA_CHECK(cudaSetDevice(device));
    const std::string op = request.at("op");
    if (op == "trial") return trial(request);
    if (op == "interleaved") return interleaved(request);
    if (op == "info") return info(request);
    if (op == "keep_kernels") return keep_kernels(request);
    if (op == "prepare") {
      const Resident& res = resident(request);
      return {{"ok", true}, {"features", nlohmann::json::parse(graphs::to_json(graphs::describe(res.graph)))}};
    }
    return {{"ok", false}, {"error", "unknown op '" + op + "'"}};
  } catch (const std::exception& e) {
    nlohmann::json reply{{"ok", false}, {"error", e.what()}};
    if (context_lost()) reply["fatal"] = true;
    return reply;
  }
}

int worker_main(int device) {
  state().announce = true;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json reply;
    try {
      reply = handle_request(device, nlohmann::json::parse(line));
    } catch (const std::exception& e) {
      reply = {{"ok", false}, {"error", std::string("bad request: ") + e.what()}};
    }
    std::cout << reply.dump() << "\n" << std::flush;
    if (reply.value("fatal", false)) return 3;
  }
  return 0;
}

// ---------------------------------------------------------------- parent side

std::vector<std::pair<double, std::string>> phases_longest_first(const nlohmann::json& phase_s) {
  std::vector<std::pair<double, std::string>> phases;
  if (!phase_s.is_object()) return phases;
  for (const auto& [name, v] : phase_s.items())
    if (v.is_number()) phases.emplace_back(v.get<double>(), name);
  std::sort(phases.begin(), phases.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  return phases;
}

std::string slow_trial_note(const nlohmann::json& phase_s, double limit_s) {
  if (limit_s <= 0) return "";
  const auto phases = phases_longest_first(phase_s);
  double total = 0;
  for (const auto& ph : phases) total += ph.first;
  if (phases.empty() || total < limit_s / 4) return "";
  char head[96];
  std::snprintf(head, sizeof head, "slow trial: %.1f s of the %g s limit (", total, limit_s);
  std::string out = head;
  for (size_t i = 0; i < phases.size(); ++i) {
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.1f", i ? ", " : "", phases[i].second.c_str(), phases[i].first);
    out += part;
  }
  return out + ")";
}

void open_standard_descriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number, which is fd (those below it are open by now).
    const int got = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (got >= 0 && got != fd) {
      dup2(got, fd);
      close(got);
    }
  }
}

WorkerProcess::WorkerProcess(int device, std::string executable)
    : device_(device), executable_(std::move(executable)), self_(executable_.empty()) {
  open_standard_descriptors();
  if (self_) {
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) throw std::runtime_error("cannot find this executable (/proc/self/exe)");
    executable_.assign(exe, static_cast<size_t>(n));
  }
  start();
}
WorkerProcess::~WorkerProcess() { stop(false); }

void WorkerProcess::start() {
  // Close-on-exec: a worker started later does not inherit this one's pipe ends (which kept
  // its death from showing as end of file, and made every shutdown wait for the kill).
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe2() failed for a worker");
  const char* exe = executable_.c_str();
  const char* image = self_ ? "/proc/self/exe" : exe;
  const std::string dev = std::to_string(device_);
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork() failed for a worker");
  if (pid_ == 0) {
    // A worker outlives no tuner: killed when the thread that started it ends (the tuner killed,
    // or done with it), so a hung kernel does not keep the GPU from the next run.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the tuner died before the line above
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]); close(in[1]); close(out[0]); close(out[1]);
    execl(image, exe, "worker", "--device", dev.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  buffer_.clear();
  signal(SIGPIPE, SIG_IGN);
}

std::string WorkerProcess::stop(bool kill_it) {
  if (pid_ <= 0) return "";
  if (to_child_ >= 0) close(to_child_);
  if (kill_it) kill(pid_, SIGKILL);
  int status = 0;
  // A well-behaved worker exits on EOF; give it a moment, then insist.
  pid_t done = 0;
  for (int i = 0; i < 50 && (done = waitpid(pid_, &status, WNOHANG)) == 0; ++i) usleep(20000);
  if (done == 0) {
    kill(pid_, SIGKILL);
    done = waitpid(pid_, &status, 0);
  }
  if (from_child_ >= 0) close(from_child_);
  pid_ = -1;
  to_child_ = from_child_ = -1;
  if (done < 0) return "ended (status unknown)";
  return WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                             : "exited with code " + std::to_string(WEXITSTATUS(status));
}

const std::string& WorkerProcess::gpu_uuid() {
  if (gpu_uuid_.empty()) {  // a failed answer is not kept: the next call asks again
    const auto r = call({{"op", "info"}, {"ceilings", false}}, 120);
    if (r.json && r.json->value("ok", false)) gpu_uuid_ = (*r.json)["device"].value("uuid", std::string());
  }
  return gpu_uuid_;
}

WorkerProcess::Reply WorkerProcess::call(const nlohmann::json& request, double timeout_s) {
  Reply reply;
  if (pid_ <= 0) start();
  const std::string line = request.dump() + "\n";
  if (write(to_child_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    // It died before reading (a worker that cannot start may be gone already): say how.
    reply.failure = "worker died before the request: worker " + stop(false);
    start();
    return reply;
  }
  const auto sent = std::chrono::steady_clock::now();
  // Where the worker was when it died or was killed: ", in phase verify (entered 0.3 s after
  // the request)".
  const auto in_phase = [&reply] {
    if (reply.phase.empty()) return std::string();
    char at[32];
    std::snprintf(at, sizeof at, "%.1f", reply.phase_at_s);
    return ", in phase " + reply.phase + " (entered " + at + " s after the request)";
  };
  const auto deadline = sent + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      const std::string msg = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      try {
        reply.json = nlohmann::json::parse(msg);
      } catch (const std::exception& e) {
        reply.failure = "worker sent a malformed reply: " + msg.substr(0, 200);
        stop(true);
        start();
        return reply;
      }
      if (!reply.json->is_object()) {
        reply.json.reset();
        reply.failure = "worker sent a reply that is not a JSON object: " + msg.substr(0, 200);
        stop(true);
        start();
        return reply;
      }
      if (reply.json->contains("progress") && !reply.json->contains("ok")) {
        const auto& ph = (*reply.json)["progress"];
        reply.phase = ph.is_string() ? ph.get<std::string>() : ph.dump();
        reply.phase_at_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
        reply.json.reset();  // a progress line, not the reply
        continue;
      }
      if (reply.json->value("fatal", false)) {
        stop(true);
        start();
      }
      return reply;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      reply.timed_out = true;
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", timeout_s);
      reply.failure = std::string("no reply within ") + limit + " s (killed)" + in_phase();
      stop(true);
      start();
      return reply;
    }
    pollfd pfd{from_child_, POLLIN, 0};
    const int pr = poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (pr > 0) {
      char buf[65536];
      const ssize_t got = read(from_child_, buf, sizeof buf);
      if (got <= 0) {  // it closed its end: it is ending, or gone
        reply.failure = "worker " + stop(false) + in_phase();
        start();
        return reply;
      }
      buffer_.append(buf, static_cast<size_t>(got));
    }
  }
}

}  // namespace csrgat::tuner
