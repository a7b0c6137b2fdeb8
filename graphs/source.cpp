#include "graphs/source.h"

#include <fstream>
#include <vector>

#include "graphs/generate.h"
#include "graphs/generator_hash.h"
#include "graphs/hash.h"

namespace csrgat::graphs {

std::string graph_source_hash(const std::string& spec_in) {
  const SpecForm form = spec_form(spec_in);
  Fnv1a f;
  if (!form.generator.empty()) {
    estimate_edges(form.spec);  // GraphError on keys make_graph would refuse
    f.add(std::string(CSRGAT_GENERATOR_SHA256) + "\n" + form.spec);
    return "gen:" + f.hex();
  }
  return file_source_hash(form.path, CSRGAT_READER_SHA256);
}

const char* reader_code_hash() {
  return CSRGAT_READER_SHA256;
}
const char* generator_code_hash() {
  return CSRGAT_GENERATOR_SHA256;
}

std::string file_source_hash(const std::string& path, const std::string& reader_hash) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  Fnv1a f;
  f.add(reader_hash + "\n");
  std::vector<char> buf(1 << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
    f.add(buf.data(), static_cast<size_t>(in.gcount()));
  if (in.bad()) return "";
  return "file:" + f.hex();
}

}  // namespace csrgat::graphs
