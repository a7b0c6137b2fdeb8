// A GPU architecture as NVRTC and nvcc name it (sm_90, sm_90a, sm_100f), and which devices its
// machine code runs on. Shared by the tuner (a config's arch, the GPU it tunes on) and the
// production library (which embedded cubin a device loads), so that both read a target alike.
#pragma once

#include <optional>
#include <string_view>

namespace csrgat {

// An architecture's compute capability and suffix ('a', 'f', or 0 for none).
struct ArchTarget {
  int cc = 0;  // 90 for sm_90a
  char suffix = 0;
};

// sm_<cc>[a|f] (2 or 3 digits, no leading zero, a lowercase suffix); nullopt for any other text.
inline std::optional<ArchTarget> parse_arch(std::string_view arch) {
  size_t i = 3;
  while (i < arch.size() && arch[i] >= '0' && arch[i] <= '9') ++i;
  const bool form =
      arch.size() > 3 && arch.substr(0, 3) == "sm_" && i > 3 && i - 3 <= 3 && arch[3] != '0' &&
      (i == arch.size() || (i + 1 == arch.size() && (arch[i] == 'a' || arch[i] == 'f')));
  if (!form) return std::nullopt;
  int cc = 0;
  for (size_t k = 3; k < i; ++k) cc = cc * 10 + (arch[k] - '0');
  return ArchTarget{cc, i < arch.size() ? arch[i] : '\0'};
}

// Whether code compiled for `t` runs on a device of compute capability major.minor: its
// major's same or later minors (sm_80 on 8.0 and 8.6, sm_100f on 10.0 and 10.3), an
// architecture-specific target's own capability alone (sm_90a on 9.0).
inline bool arch_runs_on(const ArchTarget& t, int major, int minor) {
  return t.suffix == 'a' ? major * 10 + minor == t.cc : major == t.cc / 10 && minor >= t.cc % 10;
}

}  // namespace csrgat
