#include "tuner/job_queue.h"

#include <algorithm>
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
      failures_in_a_row_(pinned_.size(), 0),
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
  for (;;) {
    if (!taking(w)) return std::nullopt;
    if (auto job = next_for(w)) {
      holding_[w] = job;
      return job;
    }
    // Nothing for w now; a problem another worker is preparing may still come back.
    bool preparing = false;
    for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
      if (v != w && holding_[v]) preparing = true;
    if (!preparing) {
      exited_[w] = true;
      cv_.notify_all();
      return std::nullopt;
    }
    cv_.wait(lock);
  }
}

void JobQueue::prepared(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  holding_[w].reset();
  failures_in_a_row_[w] = 0;
  cv_.notify_all();
}

void JobQueue::hand_over_pinned(int w) {
  for (size_t k = next_pinned_[w]; k < pinned_[w].size(); ++k)
    retry_.push_back({pinned_[w][k], {}});
  next_pinned_[w] = pinned_[w].size();
}

void JobQueue::release(int w) {
  if (holding_[w]) {
    std::set<int> failed_on = std::move(failed_on_[w]);
    failed_on.insert(w);
    bool wanted = false;
    for (int v = 0; v < static_cast<int>(pinned_.size()); ++v)
      if (taking(v) && !failed_on.count(v)) wanted = true;
    if (wanted) retry_.push_back({*holding_[w], std::move(failed_on)});
    else dropped_.push_back(*holding_[w]);
    holding_[w].reset();
  }
  // Problems no worker still taking problems can try any more.
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
  cv_.notify_all();
}

void JobQueue::failed(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  if (++failures_in_a_row_[w] >= retire_after_ && others_taking(w)) {
    retired_[w] = true;
    hand_over_pinned(w);
  }
  release(w);
}

void JobQueue::quit(int w) {
  std::lock_guard<std::mutex> lock(mu_);
  exited_[w] = true;
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
