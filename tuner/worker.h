// Trials run in a worker process, one per GPU: a crash that poisons the CUDA context (an
// illegal address) or a hang costs one trial and a restart, never the run. The parent talks to
// a worker over pipes, one JSON object per line; the worker writes nothing else to stdout.
//
// Requests (op):
//   trial        verify one variant on one problem, then time it and read its counters
//   interleaved  time several variants round-robin (A B C A B C ...) so drift hits all alike
//   info         device description and measured ceilings
// Every reply has "ok" and, for a failed request, "error". A reply with "fatal": true means
// the worker's context is unusable and it exits after replying.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace csrgat::tuner {

// The worker's main loop (`tuner worker --device N`): stdin requests, stdout replies.
int worker_main(int device);

// Handles one request in this process (the worker loop and in-process tests use it).
nlohmann::json handle_request(int device, const nlohmann::json& request);

// A trial's phase times (its raw.phase_s, seconds by phase) as (seconds, phase), longest first
// (ties by name); numbers only, empty when phase_s is not an object.
std::vector<std::pair<double, std::string>> phases_longest_first(const nlohmann::json& phase_s);

// A trial's phase times (its raw.phase_s, seconds by phase) in one line when together they take
// at least a quarter of the trial's time limit: "slow trial: 42.1 s of the 60 s limit (counters
// 40.3, measure 1.2, ...)", phases longest first; "" for a quicker trial or no phase times.
std::string slow_trial_note(const nlohmann::json& phase_s, double limit_s);

// Opens /dev/null on each of stdin, stdout and stderr that is closed (a tuner started with
// `<&-` or `>&-`, or by a launcher that closes them): otherwise the next file or pipe opened
// takes that number, and what the process prints would go into it (a worker's request pipe,
// a store). WorkerProcess calls it before its first pipe; tuner's main() first of all.
void open_standard_descriptors();

class WorkerProcess {
 public:
  // Spawns `<executable> worker --device N`; by default this process's own executable, the
  // image that is running (through /proc/self/exe, so a worker restarted after the tuner's file
  // was rebuilt or removed still runs the build that started the run).
  explicit WorkerProcess(int device, std::string executable = "");
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  struct Reply {
    std::optional<nlohmann::json> json;  // absent: the worker died or timed out
    bool timed_out = false;
    std::string failure;                 // what happened when json is absent
    // The last phase the worker announced before its reply, death or kill ({"progress": PHASE}
    // lines: prepare, load, verify, measure, counters) and when, in seconds after the request;
    // empty and -1 when it announced none. A timeout's failure names it.
    std::string phase;
    double phase_at_s = -1;
  };
  // Sends a request and waits up to timeout_s for the reply, reading the worker's progress
  // lines on the way. On a timeout or death the worker is killed and restarted before returning.
  Reply call(const nlohmann::json& request, double timeout_s);
  int device() const { return device_; }
  // The UUID of this worker's GPU ("GPU-..."), asked by an info request without ceilings the
  // first time it succeeds, then kept; empty while the worker cannot answer. Ask it before
  // preparing a problem: a worker restarted by a failed request loses its resident problem.
  // (Measurement replies carry the UUID themselves; tuner run uses this one to keep each
  // problem on one GPU across a resume, and for records of trials that got no reply.)
  const std::string& gpu_uuid();
  const std::string& known_gpu_uuid() const { return gpu_uuid_; }
  // Ends the worker now, releasing its GPU context (the next call starts a new one); says how
  // it ended, as stop() below.
  std::string end() { return stop(false); }

 private:
  void start();
  // Ends the worker (closes its input; kill: SIGKILL at once, else after a second) and says
  // how it ended ("exited with code N", "killed by signal N"; "" when none was running).
  std::string stop(bool kill);
  int device_;
  std::string executable_;  // the worker's argv[0]
  bool self_ = false;       // executable_ is this process's own: exec /proc/self/exe
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  std::string gpu_uuid_;
};

}  // namespace csrgat::tuner
