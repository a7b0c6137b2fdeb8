// Readers: Matrix Market coordinate (.mtx, .mtx.gz) and SNAP edge lists (.txt, .txt.gz).
// Every malformed file fails with GraphError "<file>:<line>: <what>". Both stream the file
// (zlib reads plain files too), parse every number as int64 with overflow checks, accept
// counts up to 2^40, keep duplicate entries and self-loops, and sort the sources within each
// row. Lines may end in CRLF. tests/data/bad holds one file per failure.
#pragma once

#include <string>

#include "graphs/csr.h"

namespace csrgat::graphs {

// Matrix Market: pattern/real/integer, general/symmetric. row = destination, col = source.
// Symmetric files are expanded (both directions, diagonal once; an entry above the diagonal is
// mirrored too). Values, if any, are checked to be numbers and otherwise ignored. '%' comment
// and blank lines may appear anywhere after the banner.
Csr64 read_matrix_market(const std::string& path);
// SNAP: "src dst" per line (exactly two non-negative integers), '#' comments, blank lines; ids
// compacted to 0..N-1 in increasing id order; src -> dst is stored in row dst. A file without
// edges is an error.
Csr64 read_snap(const std::string& path);
// By extension: .mtx[.gz] -> Matrix Market, anything else -> SNAP.
Csr64 read_graph_file(const std::string& path);

// The stored edge count a file states without reading its edges: a Matrix Market size line
// (doubled for symmetric files, whose diagonal entries then count twice), or the "Edges: N"
// of a SNAP file's leading '#' comments; -1 when a SNAP file has none. GraphError for a
// malformed Matrix Market header.
int64_t graph_file_edges_hint(const std::string& path);

}  // namespace csrgat::graphs
