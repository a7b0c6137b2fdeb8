// Runs the built tuner executable (CSRGAT_TUNER_EXE) from a unit test: for the commands that
// live in the executable only (bench, compare, compile, report), checked end to end.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <utility>

namespace csrgat::testing_tuner {

// A command line through bash (stdout and stderr merged) under a time limit, so that a command
// that blocks (on a FIFO, say) fails its test instead of hanging the suite: (exit status,
// output); 124 when the limit ended it, -1 when it did not exit normally.
inline std::pair<int, std::string> shell(const std::string& line, int limit_s = 600) {
  std::string quoted;
  for (char c : line) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  const std::string cmd = "timeout " + std::to_string(limit_s) + " bash -c '" + quoted + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// `tuner <args>` through the shell, as shell() runs it.
inline std::pair<int, std::string> tuner(const std::string& args, int limit_s = 600) {
  return shell(std::string(CSRGAT_TUNER_EXE) + " " + args, limit_s);
}

}  // namespace csrgat::testing_tuner
