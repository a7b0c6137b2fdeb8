#include "tuner/job_queue.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>

namespace csrgat::tuner {

JobQueue::JobQueue(std::vector<std::vector<size_t>> pinned, std::vector<size_t> shared,
                   int retire_after)
    : pinned_(std::move(pinned)),
      next_pinned_(pinned_.size(), 0),
      shared_(std::move(shared)),
      retired_(pinned_.size(), false),
      exited_(pinned_.size(), false),
      waiting_(pinned_.size(), false),
      streak_(pinned_.size()),
      holding_(pinned_.size()),
      failed_on_(pinned_.size()),
      retire_after_(std::max(1, retire_after)) {
  if (pinned_.empty()) throw std::invalid_argument("JobQueue: no workers");
}

bool JobQueue::others_taking(int w) const {
  for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
    if (v != w && taking(v)) return true;
  return false;
}

std::optional<size_t> JobQueue::next_for(int w) {
  failed_on_[w].clear();
  if (next_pinned_[w] < pinned_[w].size()) return pinned_[w][next_pinned_[w]++];
  for (auto it = retry_.begin(); it != retry_.end(); ++it)
    if (!it->failed_on.count(w)) {
      const size_t job = it->job;
      failed_on_[w] = std::move(it->failed_on);
      retry_.erase(it);
      return job;
    }
  if (next_shared_ < shared_.size()) return shared_[next_shared_++];
  return std::nullopt;
}

std::optional<size_t> JobQueue::take(int w) {
  std::unique_lock<std::mutex> lock(mu_);
  waiting_[w] = true;
  cv_.notify_all();  // w is no longer busy: a worker waiting on it may decide
  for (;;) {
    if (!taking(w)) {
      waiting_[w] = false;
      return std::nullopt;
    }
    if (auto job = next_for(w)) {
      waiting_[w] = false;
      holding_[w] = job;
      return job;
    }
    // Nothing for w now; a busy worker may still give problems back: one taking problems that
    // is preparing or measuring, or one retired while it held a problem still unprepared (its
    // preparation may fail, and that problem is then w's to try).
    bool busy = false;
    for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
      if (v != w && ((taking(v) && !waiting_[v]) || holding_[v])) busy = true;
    if (!busy) {
      waiting_[w] = false;
      exited_[w] = true;
      drop_unwanted();
      cv_.notify_all();
      return std::nullopt;
    }
    cv_.wait(lock);
  }
}

void JobQueue::retire_if_broken(int w) {
  if (retired_[w] || exited_[w] || static_cast<int>(streak_[w].size()) < retire_after_) return;
  bool prepared_elsewhere = false;
  for (const size_t job : streak_[w])
    if (prepared_.count(job)) prepared_elsewhere = true;
  if (!prepared_elsewhere || !others_taking(w)) return;
  retired_[w] = true;
  hand_over_pinned(w);
  drop_unwanted();
}

void JobQueue::prepared(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  if (holding_[w]) {
    prepared_.insert(*holding_[w]);
    for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
      if (v != w) retire_if_broken(v);
  }
  holding_[w].reset();
  streak_[w].clear();
  cv_.notify_all();
}

void JobQueue::hand_over_pinned(int w) {
  for (size_t k = next_pinned_[w]; k < pinned_[w].size(); ++k)
    retry_.push_back({pinned_[w][k], {}});
  next_pinned_[w] = pinned_[w].size();
}

void JobQueue::drop_unwanted() {
  for (auto it = retry_.begin(); it != retry_.end();) {
    bool wanted = false;
    for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
      if (taking(v) && !it->failed_on.count(v)) wanted = true;
    if (wanted) {
      ++it;
    } else {
      dropped_.push_back(it->job);
      it = retry_.erase(it);
    }
  }
}

bool JobQueue::release(int w) {
  const std::optional<size_t> job = holding_[w];
  holding_[w].reset();
  if (job) {
    std::set<int> failed_on = std::move(failed_on_[w]);
    failed_on.insert(w);
    retry_.push_back({*job, std::move(failed_on)});
  }
  const size_t before = dropped_.size();
  drop_unwanted();
  cv_.notify_all();
  return job && std::find(dropped_.begin() + static_cast<std::ptrdiff_t>(before), dropped_.end(),
                          *job) != dropped_.end();
}

bool JobQueue::failed(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  if (holding_[w]) streak_[w].insert(*holding_[w]);
  retire_if_broken(w);
  return release(w);
}

void JobQueue::quit(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  exited_[w] = true;
  waiting_[w] = false;
  hand_over_pinned(w);
  release(w);
}

bool JobQueue::retired(int w) const {
  std::lock_guard<std::mutex> lock(mu_);
  return retired_[w];
}

std::vector<size_t> JobQueue::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

}  // namespace csrgat::tuner
