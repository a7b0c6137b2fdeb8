// The worker protocol and its supervision, without a GPU: the tuner binary's worker answers
// every request with one JSON line, reports a lost context as fatal (no driver here), and the
// parent restarts a worker that dies or says fatal, so the next call is served again.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

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
