// tuner run's job queue: pinned problems first, the shared ones once each, a problem whose
// preparation failed handed to the other GPUs, a GPU that keeps failing retired (never the
// last), and take() waiting for a problem another worker may still give back.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <utility>
#include <vector>

#include "tuner/job_queue.h"

using csrgat::tuner::JobQueue;

namespace {

// Worker w takes each (worker, expected problem) in turn and prepares it or fails it.
void expect_takes(JobQueue& q, const std::vector<std::pair<int, size_t>>& steps, bool prepare) {
  for (const auto& [w, job] : steps) {
    EXPECT_EQ(q.take(w), job) << "worker " << w;
    if (prepare) q.prepared(w);
    else q.failed(w);
  }
}

// Everything worker w takes from now on, prepared, sorted.
std::vector<size_t> take_all(JobQueue& q, int w) {
  std::vector<size_t> done;
  while (auto j = q.take(w)) {
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
  EXPECT_EQ(q.take(1), std::nullopt);
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, AFailedPreparationGoesToAnotherGpuNotBackToItsOwn) {
  JobQueue q({{}, {}}, {1, 2});
  EXPECT_EQ(q.take(0), 1u);
  q.failed(0);
  EXPECT_EQ(q.take(0), 2u);  // problem 1 is not for worker 0 any more
  q.prepared(0);
  EXPECT_EQ(q.take(1), 1u);  // worker 1 gets it
  q.prepared(1);
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_EQ(q.take(1), std::nullopt);
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, AProblemEveryGpuFailedIsDropped) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(q.take(0), 1u);
  q.failed(0);
  EXPECT_EQ(q.take(1), 1u);
  q.failed(1);
  EXPECT_EQ(q.dropped(), std::vector<size_t>{1});
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_EQ(q.take(1), std::nullopt);
}

TEST(JobQueue, ABrokenGpuIsRetiredAndCannotDrainTheQueue) {
  // Worker 0 fails everything it takes; after three in a row it takes no more, and worker 1
  // measures every problem, the three it failed included.
  JobQueue q({{9}, {}}, {1, 2, 3, 4, 5, 6}, 3);
  expect_takes(q, {{0, 9}, {0, 1}, {0, 2}}, false);
  EXPECT_TRUE(q.retired(0));
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_EQ(take_all(q, 1), (std::vector<size_t>{1, 2, 3, 4, 5, 6, 9}));
  EXPECT_TRUE(q.dropped().empty());
}

TEST(JobQueue, ASuccessResetsTheFailuresInARow) {
  JobQueue q({{}, {}}, {1, 2, 3, 4, 5}, 3);
  expect_takes(q, {{0, 1}, {0, 2}}, false);
  expect_takes(q, {{0, 3}}, true);
  expect_takes(q, {{0, 4}, {0, 5}}, false);
  EXPECT_FALSE(q.retired(0));
}

TEST(JobQueue, TheLastGpuTakingProblemsIsNeverRetired) {
  // One GPU: each problem that cannot be prepared is dropped, and the others still measured.
  JobQueue q({{}}, {1, 2, 3, 4, 5}, 2);
  expect_takes(q, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}, false);
  EXPECT_FALSE(q.retired(0));
  EXPECT_EQ(q.take(0), 5u);
  q.prepared(0);
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_EQ(q.dropped(), (std::vector<size_t>{1, 2, 3, 4}));
}

TEST(JobQueue, TakeWaitsForAProblemAnotherGpuMayGiveBack) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(q.take(0), 1u);
  auto waiting = std::async(std::launch::async, [&] { return q.take(1); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  q.failed(0);  // worker 1 must now get it
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(waiting.get(), 1u);
  q.prepared(1);
  EXPECT_EQ(q.take(0), std::nullopt);
  EXPECT_EQ(q.take(1), std::nullopt);
}

TEST(JobQueue, TakeReturnsNothingOnceTheOtherGpuHasPrepared) {
  JobQueue q({{}, {}}, {1});
  EXPECT_EQ(q.take(0), 1u);
  auto waiting = std::async(std::launch::async, [&] { return q.take(1); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  q.prepared(0);
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(waiting.get(), std::nullopt);
}

TEST(JobQueue, AWorkerThatQuitsHandsOverWhatItHeldAndItsPinnedProblems) {
  JobQueue q({{5, 6}, {}}, {});
  EXPECT_EQ(q.take(0), 5u);
  q.quit(0);
  EXPECT_EQ(take_all(q, 1), (std::vector<size_t>{5, 6}));
  EXPECT_EQ(q.take(0), std::nullopt);
}
