// The results stores recorded on a GPU and committed under tests/data/recorded: <name>.sqlite,
// <name>.sqlite.gz, or a folder <name>/ of such stores, one a run (the recorded H200 runs: the
// store reads the last two in memory, read-only).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace csrgat::testing_recorded {

inline const std::filesystem::path& recorded_dir() {
  static const std::filesystem::path dir =
      std::filesystem::path(CSRGAT_SOURCE_DIR) / "tests" / "data" / "recorded";
  return dir;
}

// "h200" for h200.sqlite.gz, h200.sqlite or a folder h200/ holding stores; empty for anything
// else.
inline std::string recorded_store_name(const std::filesystem::path& p) {
  const std::string f = p.filename().string();
  if (std::filesystem::is_directory(p)) {
    for (const auto& e : std::filesystem::directory_iterator(p))
      if (!recorded_store_name(e.path()).empty()) return f;
    return "";
  }
  for (const std::string ext : {".sqlite.gz", ".sqlite"})
    if (f.size() > ext.size() && f.compare(f.size() - ext.size(), ext.size(), ext) == 0)
      return f.substr(0, f.size() - ext.size());
  return "";
}

// Every recorded store as (name, path), sorted by name.
inline std::vector<std::pair<std::string, std::filesystem::path>> recorded_stores() {
  std::vector<std::pair<std::string, std::filesystem::path>> out;
  if (std::filesystem::is_directory(recorded_dir()))
    for (const auto& e : std::filesystem::directory_iterator(recorded_dir()))
      if (const std::string name = recorded_store_name(e.path()); !name.empty())
        out.emplace_back(name, e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The path of a named recorded store, compressed or not; empty when there is none.
inline std::filesystem::path recorded_store(const std::string& name) {
  for (const auto& [n, p] : recorded_stores())
    if (n == name) return p;
  return {};
}

}  // namespace csrgat::testing_recorded
