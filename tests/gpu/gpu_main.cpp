// GPU tests: skipped (exit 77, which ctest reports as "Skipped") when no CUDA device is present.
#include <gtest/gtest.h>

#include <cstdio>

#include "tuner/device_problem.h"

int main(int argc, char** argv) {
  std::string why;
  if (!csrgat::tuner::gpu_available(&why)) {
    std::printf("SKIPPED: the gpu tests need a CUDA device (%s)\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
