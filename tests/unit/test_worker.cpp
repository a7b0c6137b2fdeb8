// The worker protocol and its supervision, without a GPU: the tuner binary's worker answers
// every request with one JSON line, reports a lost context as fatal (no driver here), and the
// parent restarts a worker that dies or says fatal, so the next call is served again.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "tuner/worker.h"

using csrgat::tuner::WorkerProcess;

TEST(Worker, AnswersAndIsRestartedAfterAFatalReply) {
  WorkerProcess w(0, CSRGAT_TUNER_EXE);
  for (int i = 0; i < 3; ++i) {
    const auto r = w.call({{"op", "info"}}, 30);
    ASSERT_TRUE(r.json.has_value()) << r.failure;
    EXPECT_FALSE(r.json->value("ok", true));
    // Without a driver cudaSetDevice fails and the worker declares its context lost.
    EXPECT_NE(r.json->value("error", std::string()).find("cudaSetDevice"), std::string::npos) << r.json->dump();
    EXPECT_TRUE(r.json->value("fatal", false));
  }
}

// A tuner started with stdin and stdout closed (`<&- >&-`, some launchers): the pipes to its
// worker would take descriptors 0 and 1, so the worker lost its stdin and stdout and every call
// failed ("worker died before the request"). The closed ones are opened on /dev/null first.
TEST(Worker, AnswersWhenTheCallerStartedWithStdinAndStdoutClosed) {
  std::fflush(stdout);
  const int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
  ASSERT_GE(saved_in, 0);
  ASSERT_GE(saved_out, 0);
  close(STDIN_FILENO);
  close(STDOUT_FILENO);
  std::optional<WorkerProcess::Reply> r;
  bool std_open = false;
  {
    WorkerProcess w(0, CSRGAT_TUNER_EXE);
    std_open = fcntl(STDIN_FILENO, F_GETFD) != -1 && fcntl(STDOUT_FILENO, F_GETFD) != -1;
    r = w.call({{"op", "info"}}, 30);
  }
  // The test's own stdin and stdout back before anything is printed.
  dup2(saved_in, STDIN_FILENO);
  dup2(saved_out, STDOUT_FILENO);
  close(saved_in);
  close(saved_out);
  EXPECT_TRUE(std_open);
  ASSERT_TRUE(r->json.has_value()) << r->failure;
  EXPECT_NE(r->json->value("error", std::string()).find("cudaSetDevice"), std::string::npos)
      << r->json->dump();
}

TEST(Worker, GpuUuidIsEmptyWhileTheWorkerCannotAnswer) {
  WorkerProcess w(0, CSRGAT_TUNER_EXE);
  EXPECT_EQ(w.gpu_uuid(), "");  // the info request fails here: no driver
  EXPECT_EQ(w.known_gpu_uuid(), "");
  // A failure is not kept as an answer: the worker is still served (and asked again).
  const auto r = w.call({{"op", "info"}}, 30);
  ASSERT_TRUE(r.json.has_value()) << r.failure;
  EXPECT_EQ(w.gpu_uuid(), "");
}

// The answer is read from the info reply's device.uuid: a stand-in worker that answers as a
// GPU worker would.
TEST(Worker, GpuUuidIsReadFromTheInfoReplyAndKept) {
  const std::string script = testing::TempDir() + "/csrgat-uuid-worker.sh";
  const std::string count = testing::TempDir() + "/csrgat-uuid-worker.count";
  std::remove(count.c_str());
  {
    FILE* f = std::fopen(script.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f,
                 "#!/bin/sh\nwhile read line; do echo x >> %s; "
                 "echo '{\"ok\": true, \"device\": {\"uuid\": \"GPU-1234\"}}'; done\n",
                 count.c_str());
    std::fclose(f);
  }
  ASSERT_EQ(std::system(("chmod +x " + script).c_str()), 0);
  WorkerProcess w(0, script);
  EXPECT_EQ(w.gpu_uuid(), "GPU-1234");
  EXPECT_EQ(w.gpu_uuid(), "GPU-1234");
  EXPECT_EQ(w.known_gpu_uuid(), "GPU-1234");
  FILE* c = std::fopen(count.c_str(), "r");
  ASSERT_NE(c, nullptr);
  int lines = 0;
  for (int ch; (ch = std::fgetc(c)) != EOF;) lines += ch == '\n';
  std::fclose(c);
  EXPECT_EQ(lines, 1);  // asked once
}

TEST(Worker, AWorkerThatCannotStartIsReportedNotFatalToTheCaller) {
  WorkerProcess w(0, "/nonexistent/tuner");
  const auto r = w.call({{"op", "info"}}, 10);
  EXPECT_FALSE(r.json.has_value());
  EXPECT_NE(r.failure.find("exited with code 127"), std::string::npos) << r.failure;
}

TEST(Worker, AHungWorkerIsKilledAtTheDeadline) {
  const std::string script = testing::TempDir() + "/csrgat-hung-worker.sh";
  {
    FILE* f = std::fopen(script.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#!/bin/sh\nexec sleep 60\n", f);
    std::fclose(f);
  }
  ASSERT_EQ(std::system(("chmod +x " + script).c_str()), 0);
  WorkerProcess w(0, script);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = w.call({{"op", "trial"}}, 1.0);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.json.has_value());
  EXPECT_LT(waited, 5.0);
}

// A worker announces each phase of a trial ({"progress": PHASE} lines) before its reply: the
// parent skips them, keeps the last, and a timeout's failure says where the worker was.
namespace {
std::string stand_in_worker(const std::string& name, const std::string& body) {
  const std::string script = testing::TempDir() + "/" + name;
  FILE* f = std::fopen(script.c_str(), "w");
  if (!f) return "";
  std::fprintf(f, "#!/bin/sh\n%s\n", body.c_str());
  std::fclose(f);
  return std::system(("chmod +x " + script).c_str()) == 0 ? script : "";
}

// One request to a fresh stand-in worker running `body`.
WorkerProcess::Reply call_stand_in(const std::string& name, const std::string& body, double timeout_s) {
  const std::string script = stand_in_worker(name, body);
  EXPECT_FALSE(script.empty());
  WorkerProcess w(0, script);
  return w.call({{"op", "trial"}}, timeout_s);
}
}  // namespace

TEST(Worker, ProgressLinesAreSkippedAndTheLastPhaseKept) {
  const std::string script = stand_in_worker(
      "csrgat-progress-worker.sh",
      "while read line; do echo '{\"progress\": \"verify\"}'; echo '{\"progress\": \"measure\"}'; "
      "echo '{\"ok\": true, \"n\": 7}'; done");
  ASSERT_FALSE(script.empty());
  WorkerProcess w(0, script);
  for (int i = 0; i < 2; ++i) {  // each request reads its own progress lines
    const auto r = w.call({{"op", "trial"}}, 10);
    ASSERT_TRUE(r.json.has_value()) << r.failure;
    EXPECT_EQ(r.json->value("n", 0), 7);
    EXPECT_EQ(r.phase, "measure");
    EXPECT_GE(r.phase_at_s, 0.0);
  }
}

TEST(Worker, ATimeoutNamesThePhaseTheWorkerWasIn) {
  const auto r = call_stand_in("csrgat-slow-phase-worker.sh",
                               "read line; echo '{\"progress\": \"counters\"}'; exec sleep 60", 1.0);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.json.has_value());
  EXPECT_EQ(r.phase, "counters");
  EXPECT_NE(r.failure.find("no reply within 1 s (killed), in phase counters (entered "), std::string::npos)
      << r.failure;
}

TEST(Worker, ADeathNamesThePhaseTheWorkerWasIn) {
  const auto r = call_stand_in("csrgat-dying-worker.sh", "read line; echo '{\"progress\": \"load\"}'; exit 5", 10);
  EXPECT_FALSE(r.json.has_value());
  EXPECT_NE(r.failure.find("exited with code 5, in phase load (entered "), std::string::npos) << r.failure;
}

TEST(Worker, SlowTrialNoteListsPhasesLongestFirstAboveAQuarterOfTheLimit) {
  using csrgat::tuner::slow_trial_note;
  const nlohmann::json quick = {{"prepare", 0.01}, {"verify", 0.2}, {"measure", 1.0}, {"counters", 13.0}};
  EXPECT_EQ(slow_trial_note(quick, 60), "");  // 14.2 s < 15 s
  const nlohmann::json slow = {{"prepare", 0.01}, {"verify", 0.2}, {"measure", 1.2}, {"counters", 40.3}};
  EXPECT_EQ(slow_trial_note(slow, 60),
            "slow trial: 41.7 s of the 60 s limit (counters 40.3, measure 1.2, verify 0.2, prepare 0.0)");
  EXPECT_EQ(slow_trial_note(nlohmann::json(), 60), "");
  EXPECT_EQ(slow_trial_note(nlohmann::json::object(), 60), "");
  EXPECT_EQ(slow_trial_note(slow, 0), "");
}

// A reply that is JSON but not an object is malformed, like one that is not JSON: the worker is
// restarted and the caller gets a failure, not an exception; a progress value that is not a
// string is still a progress line.
TEST(Worker, NonObjectRepliesAndOddProgressValuesDoNotThrow) {
  const auto r = call_stand_in("csrgat-odd-worker.sh",
                               "while read line; do echo '{\"progress\": 3}'; echo '[1, 2]'; done", 10);
  EXPECT_FALSE(r.json.has_value());
  EXPECT_EQ(r.phase, "3");
  EXPECT_NE(r.failure.find("not a JSON object"), std::string::npos) << r.failure;
}
