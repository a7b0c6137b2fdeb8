// The kernel sources, embedded at build time (cmake/embed_sources.cmake), so NVRTC needs no
// source tree at run time. Names are the paths the sources #include each other by.
#pragma once

#include <string>
#include <vector>

namespace csrgat {

struct EmbeddedSource {
  const char* name;     // e.g. "variants/csrgat_fused.cuh"
  const char* content;
};
const std::vector<EmbeddedSource>& embedded_sources();

}  // namespace csrgat
