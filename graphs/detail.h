// Small helpers shared by the graphs room's sources (and the CPU reference): error text
// assembly and a deterministic-by-construction parallel loop over fixed blocks.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include "graphs/csr.h"

namespace csrgat::graphs::detail {

template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  throw GraphError(os.str());
}

// ASCII letters' case ignored: Matrix Market banners, and file extensions (`G.MTX.GZ` is read as
// `g.mtx.gz` is, and named as a graph file alike).
inline bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}
inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

// The memory this process may still fill: MemAvailable of /proc/meminfo, else the physical
// memory; 0 when neither can be read (then nothing is checked).
inline int64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page : 0;
}

// Linux lends memory it does not have: a graph far larger than the machine is an OOM kill
// while its arrays fill, not a bad_alloc. The bytes a CSR build of n nodes and e edges needs at
// its peak (csr_from_edges: the edge lists, the buckets, row_ptr, the cursors and col, 8 bytes
// each), rounded up; and a GraphError starting with `what` when that is more than is available.
inline int64_t csr_build_bytes(int64_t n, int64_t e, bool edge_lists_held = false) {
  // With edge_lists_held, the bytes beyond the two edge lists the caller already holds (which
  // the available memory no longer counts).
  const long double b = 8.0L * ((edge_lists_held ? 1.0L : 3.0L) * static_cast<long double>(e) +
                                3.0L * static_cast<long double>(n) + 3);
  return b > 9.0e18L ? INT64_MAX : static_cast<int64_t>(b);
}
template <class... Args>
void require_memory(int64_t bytes, const Args&... what) {
  const int64_t have = available_memory_bytes();
  if (have > 0 && bytes > have) {
    std::ostringstream os;
    (os << ... << what);
    os << " needs about " << (bytes + (int64_t{1} << 30) - 1) / (int64_t{1} << 30)
       << " GiB to build, more than the " << have / (int64_t{1} << 30)
       << " GiB of memory this machine has available";
    throw GraphError(os.str());
  }
}

inline int64_t hardware_threads() {
  return std::max<int64_t>(1, static_cast<int64_t>(std::thread::hardware_concurrency()));
}

// Calls f(block) for every block in [0, num_blocks) on up to `threads` threads (0: all
// hardware threads); the first exception of any thread is rethrown here. Results that depend
// only on the block index are the same for any thread count.
template <class F>
void parallel_blocks(int64_t num_blocks, int64_t threads, const F& f) {
  if (threads <= 0) threads = hardware_threads();
  threads = std::max<int64_t>(1, std::min(threads, num_blocks));
  if (threads <= 1) {
    for (int64_t b = 0; b < num_blocks; ++b) f(b);
    return;
  }
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      for (int64_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) < num_blocks;) f(b);
    } catch (...) {
      next = num_blocks;
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace csrgat::graphs::detail
