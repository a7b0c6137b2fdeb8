// What a graph built from a spec depends on, without building it.
#pragma once

#include <string>

namespace csrgat::graphs {

// "file:" and a hash of the file's bytes and of the readers' source (io, csr), or "gen:" and a
// hash of the spec (trimmed) and of the generators' source (generate, detail, csr), as this
// binary was built. A spec is read as make_graph reads it (spec_form, graphs/generate.h); ""
// when it cannot be read. GraphError on a generator spec with bad keys. Runs store it with
// their graphs, and a measured problem is carried into another run only when its graph's
// source hash is the same (tuner run --continue, --reuse): a file replaced under the same
// path, or changed generator or reader code, is measured again. The hash is taken when a run
// starts; a file replaced while the run reads it is not caught.
std::string graph_source_hash(const std::string& spec);

// The code hashes graph_source_hash mixes in, as this binary was built (64 hex digits each).
const char* reader_code_hash();
const char* generator_code_hash();
// graph_source_hash of a graph file as a binary whose readers hashed to `reader_hash` would
// give it: what a run recorded before a change to the readers stored for the same bytes.
std::string file_source_hash(const std::string& path, const std::string& reader_hash);

}  // namespace csrgat::graphs
