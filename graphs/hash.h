// 64-bit FNV-1a: a fingerprint that is the same on every run, machine and compiler (not a
// cryptographic hash). Graph sources (source.cpp), the tuner's cache keys and config
// fingerprints, and its sampling seeds use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace csrgat {

struct Fnv1a {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(const char* p, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 0x100000001b3ull;
  }
  void add(const std::string& s) { add(s.data(), s.size()); }
  // One step for a whole 64-bit value (FNV-1a-style, not FNV-1a over its bytes): ~8x faster
  // over large arrays (graphs::csr_hash).
  void add_value(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
  // As 16 lower-case hex digits.
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

inline std::string fnv1a_hex(const std::string& text) {
  Fnv1a f;
  f.add(text);
  return f.hex();
}

}  // namespace csrgat
