// Deterministic generators (same spec + seed -> same graph on every machine) and the
// spec language shared by configs and the CLI:
//   seed:n=384,deg=18            the seed problem: degree clamp(deg + (i mod 7) - 3, 1), uniform sources
//   uniform:n=1000000,deg=16     every row has degree deg, uniform sources
//   powerlaw:n=1000000,deg=16,alpha=2.1[,maxdeg=200000]   Chung-Lu expected degrees (Pareto weights)
//   rmat:scale=20,ef=16[,a=0.57,b=0.19,c=0.19]              R-MAT, Graph500 parameters
//   file:PATH or a path ending in .mtx/.mtx.gz/.txt/.txt.gz/.el/.el.gz
// Every generator takes seed=S (default 1). Defaults: powerlaw alpha=2.1, maxdeg=n-1; rmat
// ef=16 and the Graph500 a, b, c. Unknown kinds, unknown or repeated keys, missing keys and
// unparsable values are GraphErrors that name them. "file:PATH" reads PATH whatever its
// extension (.mtx[.gz] as Matrix Market, anything else as SNAP).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graphs/csr.h"

namespace csrgat::graphs {

// All generators sort the sources within each row (as the readers do) and name the graph by
// its full spec, defaults included. Seed and uniform draw sources uniformly in [0, n), with
// repeats (multi-edges and self-loops are kept).
Csr64 generate_seed_shape(int64_t n, int64_t avg_degree, uint64_t seed);
Csr64 generate_uniform(int64_t n, int64_t degree, uint64_t seed);
// Power law, Chung-Lu style. Rank i (0-based) gets the expected degree
// x_i = clamp(c * (i+1)^(-1/(alpha-1)), 1, max_degree), where c is found by bisection so that
// the x_i sum to n * avg_degree (so the mean is avg_degree even with the cap). The degree is
// x_i rounded up or down at random (keeping the mean), the degrees are shuffled over the rows
// by a seeded permutation (hubs are not the lowest ids), and the sources are uniform.
// max_degree 0 means n - 1 (below 0 is an error). Example: n=1e6, deg=16, alpha=2.1, maxdeg=200000
// gives mean 16 with the first few ranks at 200000.
std::vector<int64_t> powerlaw_degrees(int64_t n, double avg_degree, double alpha,
                                      int64_t max_degree, uint64_t seed);
Csr64 generate_powerlaw(int64_t n, double avg_degree, double alpha, int64_t max_degree, uint64_t seed);
// R-MAT: N = 2^scale, E = edge_factor * N; each edge descends `scale` levels picking quadrant
// a, b, c or d = 1 - a - b - c (32-bit thresholds). Quadrant row bit = source, column bit =
// destination; stored as row = destination, col = source. The node labels are scrambled by a
// seeded permutation (as in Graph500). Self-loops and duplicate edges are kept.
Csr64 generate_rmat(int scale, int64_t edge_factor, double a, double b, double c, uint64_t seed);

// How make_graph reads a spec before it parses one: trimmed, then a generator when the part
// before its first ':' (all of it, without one) is a generator kind (seed, uniform, powerlaw,
// rmat), else a file path ("file:" dropped). Checks nothing: make_graph and estimate_edges
// refuse what does not parse.
struct SpecForm {
  std::string spec;        // trimmed
  std::string generator;   // its kind, or "" for a file
  std::string path;        // a file's path ("" for a generator)
};
SpecForm spec_form(const std::string& spec);

// Whether a spec is a path with a graph file's extension (.mtx, .mtx.gz, .txt, .txt.gz, .el,
// .el.gz), as the readers take them: make_graph reads a spec of no generator kind as a file only
// then (or with "file:"); the tuner's config and commands check graph paths by it.
bool has_graph_file_extension(std::string_view spec);

// Builds a graph from a spec (above); GraphError on an unknown kind or bad key.
Csr64 make_graph(const std::string& spec);

// The edge count a spec will have, without building the graph (for ordering work by size):
// n * deg for seed, uniform and powerlaw (their means), 2^scale * ef for rmat, and for a file
// graph_file_edges_hint (graphs/io.h), -1 when the file does not say. GraphError on a bad spec.
int64_t estimate_edges(const std::string& spec);

// Scores (E, H) and values (N, H, F) drawn from a seeded normal distribution N(0, 1).
// Box-Muller on std::mt19937_64 in fixed blocks: the same on every thread count, and on every
// machine whose libm rounds log/sin/cos alike (the graphs themselves use integers only, apart
// from std::pow in the power-law weights).
template <class Index>
Inputs make_inputs(const Csr<Index>& g, int heads, int feat, uint64_t seed);

}  // namespace csrgat::graphs
