// Small helpers shared by the graphs room's sources (and the CPU reference): error text
// assembly and a deterministic-by-construction parallel loop over fixed blocks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "graphs/csr.h"

namespace csrgat::graphs::detail {

template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  throw GraphError(os.str());
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
