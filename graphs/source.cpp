#include "graphs/source.h"

#include <cctype>
#include <cstdint>
#include <fstream>
#include <vector>

#include "graphs/generate.h"
#include "graphs/generator_hash.h"
#include "graphs/hash.h"

namespace csrgat::graphs {
namespace {

// As the spec parser trims (std::isspace).
std::string trimmed(const std::string& s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::string graph_source_hash(const std::string& spec_in) {
  const std::string spec = trimmed(spec_in);
  const size_t colon = spec.find(':');
  const std::string kind = colon == std::string::npos ? "" : spec.substr(0, colon);
  Fnv1a f;
  if (kind == "seed" || kind == "uniform" || kind == "powerlaw" || kind == "rmat") {
    estimate_edges(spec);  // GraphError on keys make_graph would refuse
    const std::string text = std::string(CSRGAT_GENERATOR_SHA256) + "\n" + spec;
    f.add(text.data(), text.size());
    return "gen:" + f.hex();
  }
  std::ifstream in(kind == "file" ? spec.substr(5) : spec, std::ios::binary);
  if (!in) return "";
  const std::string readers = std::string(CSRGAT_READER_SHA256) + "\n";
  f.add(readers.data(), readers.size());
  std::vector<char> buf(1 << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
    f.add(buf.data(), static_cast<size_t>(in.gcount()));
  if (in.bad()) return "";
  return "file:" + f.hex();
}

}  // namespace csrgat::graphs
