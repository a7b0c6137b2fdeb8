// Runs the graph readers over a folder under AddressSanitizer/UBSan.
//   asan_readers --expect-fail DIR   every graph file in DIR must throw GraphError
//   asan_readers --expect-ok DIR     every *.mtx.gz in DIR must read and validate
// Exit 0 only when every file behaves as expected.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "graphs/csr.h"
#include "graphs/io.h"

namespace fs = std::filesystem;
using csrgat::graphs::GraphError;

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name == "README.md" || name == "manifest.txt") continue;
    out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::string(argv[1]) != "--expect-fail" && std::string(argv[1]) != "--expect-ok")) {
    std::fprintf(stderr, "usage: %s --expect-fail DIR | --expect-ok DIR\n", argv[0]);
    return 2;
  }
  const bool expect_fail = std::string(argv[1]) == "--expect-fail";
  const fs::path dir = argv[2];
  if (!fs::is_directory(dir)) {
    if (expect_fail) {
      std::fprintf(stderr, "no such folder: %s\n", dir.c_str());
      return 1;
    }
    // Skipped, visibly (ctest's SKIP_RETURN_CODE), rather than passed with nothing read.
    std::printf("skipped: %s does not exist; no real graphs to read\n", dir.c_str());
    return 77;
  }
  int checked = 0;
  int wrong = 0;
  for (const auto& path : files_in(dir)) {
    if (!expect_fail && !ends_with(path.string(), ".mtx.gz")) continue;
    ++checked;
    try {
      const auto g = csrgat::graphs::read_graph_file(path.string());
      csrgat::graphs::validate(g);
      if (expect_fail) {
        std::printf("WRONG  %s: read without error (N = %lld, E = %lld)\n", path.c_str(),
                    static_cast<long long>(g.num_nodes), static_cast<long long>(g.num_edges()));
        ++wrong;
      } else {
        std::printf("ok     %s: N = %lld, E = %lld\n", path.c_str(),
                    static_cast<long long>(g.num_nodes), static_cast<long long>(g.num_edges()));
      }
    } catch (const GraphError& e) {
      std::printf("%s %s\n", expect_fail ? "ok    " : "WRONG ", e.what());
      wrong += expect_fail ? 0 : 1;
    } catch (const std::exception& e) {
      std::printf("WRONG  %s: not a GraphError: %s\n", path.c_str(), e.what());
      ++wrong;
    }
  }
  std::printf("%d files, %d as expected, %d not\n", checked, checked - wrong, wrong);
  if (checked == 0) {  // a folder with nothing to read checks nothing
    std::fprintf(stderr, "%s holds no %s\n", dir.c_str(),
                 expect_fail ? "files" : "*.mtx.gz graphs");
    return 1;
  }
  return wrong == 0 ? 0 : 1;
}
