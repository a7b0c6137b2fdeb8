// Which problem each GPU's worker measures next in `tuner run`.
//
// Problems a stopped run had started are pinned to the GPU that measured them; the rest are
// shared, handed out in the order given (longest first). A problem whose preparation fails on a
// GPU (the worker could not build it there: out of memory, a lost context, a broken device)
// goes back to the queue for the other GPUs, and is dropped (left unfinished; dropped() says
// which) once every GPU still taking problems has failed it.
//
// A GPU is retired (takes no more problems; its pinned ones go to the others) once it has
// failed `retire_after` preparations in a row and another GPU has prepared one of those same
// problems: the evidence that the GPU, not the problem, is at fault. Problems no GPU can
// prepare (too large for any) retire nobody. The last GPU taking problems is never retired.
//
// take() returns nothing only when nothing is left for the caller and no other worker is busy
// (one still taking problems that is preparing or measuring, or one retired while it held a
// problem it had not yet prepared), since a busy worker may yet give problems back (a failed
// preparation, a worker that quits); until then it waits. Thread-safe.
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
  // Worker w is busy from a problem's take() to its next take() (or quit()).
  std::optional<size_t> take(int w);
  // Worker w prepared the problem it holds (whatever the trials do next).
  void prepared(int w);
  // Worker w could not prepare the problem it holds: it goes to the other workers still taking
  // problems. True when it was dropped instead (every one of them has failed it).
  bool failed(int w);
  // Worker w stops (its thread failed): the problem it holds unprepared, if any, is treated as
  // failed, and its pinned problems go to the others. (One it had prepared is not given back:
  // its trials may have been what failed.)
  void quit(int w);

  bool retired(int w) const;
  // Problems every worker still taking problems has failed, in the order they were dropped.
  std::vector<size_t> dropped() const;

 private:
  bool taking(int v) const { return !retired_[v] && !exited_[v]; }
  bool others_taking(int w) const;
  std::optional<size_t> next_for(int w);
  // The held problem, if any, back to the others, or dropped (true); then drops what no worker
  // still taking problems can try, and wakes the waiters.
  bool release(int w);
  void drop_unwanted();  // retry entries no worker still taking problems can try
  void hand_over_pinned(int w);
  void retire_if_broken(int w);

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
  std::vector<bool> retired_, exited_, waiting_;
  std::vector<std::set<size_t>> streak_;  // problems failed in a row, since the last prepared
  std::set<size_t> prepared_;             // problems some worker prepared
  std::vector<size_t> dropped_;
  std::vector<std::optional<size_t>> holding_;  // taken, not yet prepared or failed
  std::vector<std::set<int>> failed_on_;        // where the held problem failed before
  int retire_after_;
};

}  // namespace csrgat::tuner
