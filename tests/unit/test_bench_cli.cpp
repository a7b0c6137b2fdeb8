// tuner bench's --impl list and storages are checked before anything needs a GPU: a bad item
// fails with its reason on any machine, and a good list gets as far as the GPU check.
#include <gtest/gtest.h>

#include <string>

#include "tuner/device_problem.h"
#include "tuner_exe.h"

using csrgat::testing_tuner::tuner;

TEST(BenchCli, OverlapIsRefusedForKernelsThatDoNotWait) {
  for (const char* impl : {"seed:pdl", "cusparse:pdl", "tuned,seed:pdl"}) {
    const auto [rc, out] = tuner(std::string("bench --graph seed:n=64,deg=4,seed=1 --impl ") + impl);
    EXPECT_EQ(rc, 1) << impl << ": " << out;
    EXPECT_NE(out.find("only the tuned dispatch, fused variants and empty can overlap"), std::string::npos)
        << impl << ": " << out;
  }
}

TEST(BenchCli, UnknownImplOptionIsNamed) {
  const auto [rc, out] = tuner("bench --graph seed:n=64,deg=4,seed=1 --impl tuned:fast");
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("tuned:fast: the only option after ':' is pdl"), std::string::npos) << out;
}

TEST(BenchCli, UnknownStorageIsNamed) {
  for (const char* args : {"--out f32,bf17", "--value fp8", "--out ''"}) {
    const auto [rc, out] = tuner(std::string("bench --graph seed:n=64,deg=4,seed=1 ") + args);
    EXPECT_EQ(rc, 1) << args << ": " << out;
    EXPECT_TRUE(out.find("expected f32, bf16 or f16") != std::string::npos ||
                out.find("give f32, bf16 or f16") != std::string::npos)
        << args << ": " << out;
  }
}

TEST(BenchCli, OverlappedImplsPassTheCheckAndMeetTheGpuCheck) {
  const auto [rc, out] = tuner(
      "bench --graph seed:n=64,deg=4,seed=1 --impl "
      "tuned:pdl,empty:pdl,csrgat.tpr32.fl8.rpb4.vec4.t2.g8.smem0.online.split0.pf.i32.f32:pdl");
  // On a machine with a GPU the same list runs (the GPU tests time it); without one it was
  // accepted and the command stops at the GPU check (exit 2), not at the list.
  if (csrgat::tuner::gpu_available()) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("needs a CUDA GPU"), std::string::npos) << out;
  EXPECT_EQ(out.find("can overlap"), std::string::npos) << out;
}
