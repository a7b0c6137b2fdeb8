// tuner run's job queue: pinned problems first, the shared ones once each, a problem whose
// preparation failed handed to the other GPUs, a GPU that keeps failing problems others can
// prepare retired (never the last, never for problems no GPU can prepare), and take() waiting
// while another worker is busy. Calls that may block run on their own thread with a deadline,
// so that a wrong block fails the test instead of hanging it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "tuner/job_queue.h"

using csrgat::tuner::JobQueue;

namespace {

// take(w) on its own thread, started at construction: checked while it blocks, and for its
// answer.
class PendingTake {
 public:
  PendingTake(JobQueue& q, int w)
      : w_(w), f_(std::async(std::launch::async, [&q, w] { return q.take(w); })) {}
  // Still blocked 100 ms on.
  void expect_blocked() {
    EXPECT_EQ(f_.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout)
        << "take(" << w_ << ") returned";
  }
  // Its answer, or a failure if it is still blocked after 10 s.
  std::optional<size_t> answer() {
    if (f_.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      ADD_FAILURE() << "take(" << w_ << ") still blocked after 10 s";
      std::abort();  // the thread would block the test binary's exit
    }
    return f_.get();
  }

 private:
  int w_;
  std::future<std::optional<size_t>> f_;
};

std::optional<size_t> take_within(JobQueue& q, int w) {
  return PendingTake(q, w).answer();
}

// Every worker named asks at once, as their threads would at the end of a run; all must get
// nothing (a worker idle in take() is not busy, so together they leave).
void expect_all_leave(JobQueue& q, const std::vector<int>& workers) {
  std::vector<PendingTake> asks;
  asks.reserve(workers.size());
  for (const int w : workers) asks.emplace_back(q, w);
  for (size_t k = 0; k < asks.size(); ++k)
    EXPECT_EQ(asks[k].answer(), std::nullopt) << "worker " << workers[k];
}

// Worker w takes each (worker, expected problem) in turn and prepares it or fails it.
void expect_takes(JobQueue& q, const std::vector<std::pair<int, size_t>>& steps, bool prepare) {
  for (const auto& [w, job] : steps) {
    EXPECT_EQ(take_within(q, w), job) << "worker " << w;
    if (prepare) q.prepared(w);
    else q.failed(w);
  }
}

// Everything worker w takes from now on, prepared, sorted.
std::vector<size_t> take_all(JobQueue& q, int w) {
  std::vector<size_t> done;
  while (auto j = take_within(q, w)) {
    done.push_back(*j);
    q.prepared(w);
  }
  std::sort(done.begin(), done.end());
  return done;
}

}  // namespace

TEST(JobQueue, PinnedProblemsFirstThenEachSharedOneOnce) {
  JobQueue q({{7}, {}}, {1, 2, 3});
  expect_takes(q, {{0, 7}, {1, 1}, {0, 2}, {0, 3}}, true);
  expect_all_leave(q, {0, 1});
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, AFailedPreparationGoesToAnotherGpuNotBackToItsOwn) {
  JobQueue q({{}, {}}, {1, 2});
  expect_takes(q, {{0, 1}}, false);
  expect_takes(q, {{0, 2}}, true);  // problem 1 is not for worker 0 any more
  expect_takes(q, {{1, 1}}, true);  // worker 1 gets it
  expect_all_leave(q, {0, 1});
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, AProblemEveryGpuFailedIsDropped) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(take_within(q, 0), 1u);
  EXPECT_FALSE(q.failed(0));  // worker 1 may still prepare it
  EXPECT_EQ(take_within(q, 1), 1u);
  EXPECT_TRUE(q.failed(1));
  EXPECT_EQ(q.dropped(), std::vector<size_t>{1});
  expect_all_leave(q, {0, 1});
}

TEST(JobQueue, ABrokenGpuIsRetiredAndCannotDrainTheQueue) {
  // Worker 0 fails everything it takes; once it has failed three in a row and worker 1 has
  // prepared one of them, it takes no more, and worker 1 measures every problem.
  JobQueue q({{9}, {}}, {1, 2, 3, 4, 5, 6}, 3);
  expect_takes(q, {{0, 9}, {0, 1}, {0, 2}}, false);
  EXPECT_FALSE(q.retired(0));  // no evidence yet that the GPU, not the problems, is at fault
  expect_takes(q, {{1, 9}}, true);
  EXPECT_TRUE(q.retired(0));
  EXPECT_EQ(take_within(q, 0), std::nullopt);
  EXPECT_EQ(take_all(q, 1), (std::vector<size_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, AGpuRetiredWhileItHoldsAProblemLeavesItToTheOthers) {
  // Worker 1 fails three problems in a row and takes a fourth (14); while it prepares 14,
  // worker 0 prepares one of the three, which retires worker 1. Worker 0, out of work, must
  // wait: 14 is not prepared yet, and when worker 1 fails it, it is worker 0's to try (it was
  // dropped, with worker 0 gone, as if no GPU could prepare it).
  JobQueue q({{}, {}}, {10, 11, 12, 13, 14}, 3);
  expect_takes(q, {{0, 10}}, true);
  expect_takes(q, {{1, 11}, {1, 12}, {1, 13}}, false);
  EXPECT_EQ(take_within(q, 1), 14u);
  expect_takes(q, {{0, 11}}, true);
  EXPECT_TRUE(q.retired(1));
  expect_takes(q, {{0, 12}, {0, 13}}, true);
  PendingTake waiting(q, 0);
  waiting.expect_blocked();
  EXPECT_FALSE(q.failed(1));
  EXPECT_EQ(waiting.answer(), 14u);
  q.prepared(0);
  expect_all_leave(q, {0, 1});
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, ProblemsNoGpuCanPrepareRetireNobody) {
  // The three largest problems fit no GPU: both GPUs fail them, they are dropped, and both
  // GPUs go on with the rest.
  JobQueue q({{}, {}}, {1, 2, 3, 4, 5, 6}, 3);
  expect_takes(q, {{0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {1, 3}}, false);
  EXPECT_FALSE(q.retired(0));
  EXPECT_FALSE(q.retired(1));
  EXPECT_EQ(q.dropped(), (std::vector<size_t>{1, 2, 3}));
  expect_takes(q, {{0, 4}, {1, 5}, {0, 6}}, true);
}

TEST(JobQueue, ASuccessResetsTheFailuresInARow) {
  JobQueue q({{}, {}}, {1, 2, 3, 4, 5}, 3);
  expect_takes(q, {{0, 1}, {0, 2}}, false);
  expect_takes(q, {{0, 3}}, true);
  expect_takes(q, {{0, 4}, {0, 5}}, false);
  expect_takes(q, {{1, 1}}, true);  // prepared elsewhere, but 0 failed only two in a row since
  EXPECT_FALSE(q.retired(0));
}

TEST(JobQueue, TheLastGpuTakingProblemsIsNeverRetired) {
  // One GPU: each problem that cannot be prepared is dropped, and the others still measured.
  JobQueue q({{}}, {1, 2, 3, 4, 5}, 2);
  expect_takes(q, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}, false);
  EXPECT_FALSE(q.retired(0));
  expect_takes(q, {{0, 5}}, true);
  EXPECT_EQ(take_within(q, 0), std::nullopt);
  EXPECT_EQ(q.dropped(), (std::vector<size_t>{1, 2, 3, 4}));
}

TEST(JobQueue, TakeWaitsForAProblemAnotherGpuMayGiveBack) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(take_within(q, 0), 1u);
  PendingTake waiting(q, 1);
  waiting.expect_blocked();
  q.failed(0);  // worker 1 must now get it
  EXPECT_EQ(waiting.answer(), 1u);
  q.prepared(1);
  expect_all_leave(q, {0, 1});
}

TEST(JobQueue, AnIdleWorkerWaitsForOneStillMeasuring) {
  // Worker 1 is measuring pinned problem 10 with 11 still to come; worker 0 has nothing left
  // but must not leave: 11 fails on worker 1 and is worker 0's to prepare.
  JobQueue q({{}, {10, 11}}, {1});
  expect_takes(q, {{0, 1}, {1, 10}}, true);
  PendingTake waiting(q, 0);
  waiting.expect_blocked();
  EXPECT_EQ(take_within(q, 1), 11u);
  EXPECT_FALSE(q.failed(1));
  EXPECT_EQ(waiting.answer(), 11u);
  q.prepared(0);
  expect_all_leave(q, {0, 1});
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, TakeReturnsNothingOnceTheOtherGpuIsIdleToo) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(take_within(q, 0), 1u);
  PendingTake waiting(q, 1);
  waiting.expect_blocked();
  q.prepared(0);  // worker 0 still measures: 1 waits on
  waiting.expect_blocked();
  EXPECT_EQ(take_within(q, 0), std::nullopt);  // both idle: both leave
  EXPECT_EQ(waiting.answer(), std::nullopt);
}

TEST(JobQueue, AWorkerThatQuitsHandsOverWhatItHeldAndItsPinnedProblems) {
  JobQueue q({{5, 6}, {}}, {});
  EXPECT_EQ(take_within(q, 0), 5u);
  q.quit(0);
  EXPECT_EQ(take_all(q, 1), (std::vector<size_t>{5, 6}));
  EXPECT_EQ(take_within(q, 0), std::nullopt);
}

TEST(JobQueue, WhatOnlyAWorkerThatQuitCouldTakeIsDropped) {
  // Three workers: problem 1 failed on workers 1 and 2; worker 0 quits before taking it.
  JobQueue q({{}, {}, {}}, {1});
  expect_takes(q, {{1, 1}, {2, 1}}, false);
  q.quit(0);
  EXPECT_EQ(q.dropped(), std::vector<size_t>{1});
  expect_all_leave(q, {1, 2});
}
