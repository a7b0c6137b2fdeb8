// Which problem each GPU's worker measures next in `tuner run`.
//
// Problems a stopped run had started are pinned to the GPU that measured them; the rest are
// shared, handed out in the order given (longest first). A problem whose preparation fails on a
// GPU (the worker could not build it there: out of memory, a lost context, a broken device)
// goes back to the queue for the other GPUs, and is dropped (left unfinished, the run says so)
// once every GPU still taking problems has failed it. A GPU that fails `retire_after`
// preparations in a row stops taking problems, unless it is the last one taking them, so a
// broken GPU cannot drain the shared queue; its pinned problems go to the others.
//
// take() blocks while nothing is left for the caller but another worker holds a problem whose
// preparation might still fail and come back. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

namespace csrgat::tuner {

class JobQueue {
 public:
  // pinned[w]: worker w's problems, in order; shared: the others, in order.
  JobQueue(std::vector<std::vector<size_t>> pinned, std::vector<size_t> shared,
           int retire_after = 3);

  // The next problem for worker w, or none when nothing is left for it (or it is retired).
  std::optional<size_t> take(int w);
  // Worker w prepared its problem (whatever the trials do next).
  void prepared(int w);
  // Worker w could not prepare the problem it holds: it goes to the other workers still taking
  // problems.
  void failed(int w);
  // Worker w stops (its thread failed): the problem it holds, if any, is treated as failed, and
  // its pinned problems go to the others.
  void quit(int w);

  bool retired(int w) const;
  // Problems every worker still taking problems has failed (in the order they were dropped).
  std::vector<size_t> dropped() const;

 private:
  bool taking(int v) const { return !retired_[v] && !exited_[v]; }
  bool others_taking(int w) const;
  std::optional<size_t> next_for(int w);
  void release(int w);  // the held problem back to the others, or dropped; wakes the waiters
  void hand_over_pinned(int w);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::vector<size_t>> pinned_;
  std::vector<size_t> next_pinned_;
  std::vector<size_t> shared_;
  size_t next_shared_ = 0;
  struct Retry {
    size_t job;
    std::set<int> failed_on;
  };
  std::vector<Retry> retry_;
  std::vector<bool> retired_, exited_;
  std::vector<int> failures_in_a_row_;
  std::vector<size_t> dropped_;
  std::vector<std::optional<size_t>> holding_;  // taken, not yet prepared or failed
  std::vector<std::set<int>> failed_on_;        // where the held problem failed before
  int retire_after_;
};

}  // namespace csrgat::tuner
