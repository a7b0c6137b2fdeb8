#include "profiler/nvtx.h"

#include <array>
#include <stdexcept>

namespace csrgat::profiler {

namespace {

constexpr std::array<Phase, 5> all_phases{Phase::verify, Phase::warmup, Phase::measure,
                                          Phase::counters, Phase::profile};

// See nvtx.h: characters that Nsight Compute's NVTX filter reads as delimiters or quantifiers.
std::string sanitize(std::string_view component) {
  std::string out(component);
  for (char& c : out) {
    const bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    if (control || c == '/' || c == '\\' || c == '@' || c == ',' || c == '[' || c == ']' ||
        c == '*' || c == '+')
      c = '_';
  }
  return out.empty() ? std::string("_") : out;
}

}  // namespace

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::verify:
      return "verify";
    case Phase::warmup:
      return "warmup";
    case Phase::measure:
      return "measure";
    case Phase::counters:
      return "counters";
    case Phase::profile:
      return "profile";
  }
  return "unknown";
}

std::string range_name(std::string_view graph, std::string_view variant, Phase phase) {
  return "csrgat/" + sanitize(graph) + "/" + sanitize(variant) + "/" +
         std::string(to_string(phase));
}

std::string range_name(std::string_view graph, std::string_view variant, std::string_view phase) {
  for (Phase p : all_phases)
    if (to_string(p) == phase) return range_name(graph, variant, p);
  throw std::invalid_argument("range_name: unknown phase \"" + std::string(phase) +
                              "\" (expected verify, warmup, measure, counters or profile)");
}

}  // namespace csrgat::profiler
