// Runs the built tuner executable (CSRGAT_TUNER_EXE) from a unit test: for the commands that
// live in the executable only (bench, compare, compile, report), checked end to end.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <utility>

namespace csrgat::testing_tuner {

// `tuner <args>` through the shell: (exit status, stdout and stderr merged); -1 when it did not
// exit normally.
inline std::pair<int, std::string> tuner(const std::string& args) {
  const std::string cmd = std::string(CSRGAT_TUNER_EXE) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

}  // namespace csrgat::testing_tuner
