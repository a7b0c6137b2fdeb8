// Scratch folders for the unit tests: one per test file and process, one sub-folder per test,
// removed when the tests end.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace csrgat::testing_scratch {

// This process's scratch folder for the test file tagged `tag`.
inline std::filesystem::path root(const std::string& tag) {
  return std::filesystem::path(::testing::TempDir()) / ("csrgat_" + tag + "." + std::to_string(::getpid()));
}

class Cleanup : public ::testing::Environment {
 public:
  explicit Cleanup(std::string tag) : tag_(std::move(tag)) {}
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(root(tag_), ec);
  }

 private:
  std::string tag_;
};

// Registers the removal of root(tag) when the tests end (call once per file, at namespace scope).
inline ::testing::Environment* remove_at_end(const std::string& tag) {
  return ::testing::AddGlobalTestEnvironment(new Cleanup(tag));
}

// A fresh, empty folder for the current test.
inline std::filesystem::path test_dir(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = root(tag) / (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace csrgat::testing_scratch
