// Generators and the spec language (see generate.h). Randomness comes only from
// std::mt19937_64 (its output sequence is fixed by the standard) turned into integers and
// normals by the code below, never by std::*_distribution, whose algorithms differ between
// standard libraries. Work is cut into fixed blocks, each with its own generator seeded from
// (seed, stream, block), so the result does not depend on the number of threads.
#include "graphs/generate.h"

#include "graphs/detail.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#include "graphs/io.h"

namespace csrgat::graphs {
namespace {

using detail::fail;

// What make_graph reads as a graph file (has_graph_file_extension), and its error lists.
constexpr std::string_view kGraphFileExtensions[] = {".mtx",    ".mtx.gz", ".txt",
                                                     ".txt.gz", ".el",     ".el.gz"};

// Streams: one per use, so that e.g. the scores never share draws with the values.
enum Stream : uint64_t {
  stream_sources = 1,
  stream_powerlaw_degrees = 2,
  stream_rmat_edges = 3,
  stream_rmat_labels = 4,
  stream_scores = 5,
  stream_values = 6,
};

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::mt19937_64 block_rng(uint64_t seed, uint64_t stream, uint64_t block) {
  return std::mt19937_64(splitmix64(splitmix64(splitmix64(seed) ^ stream) ^ block));
}

// Uniform integer in [0, range), range >= 1: Lemire's multiply-shift with rejection.
uint64_t bounded(std::mt19937_64& rng, uint64_t range) {
  __uint128_t m = static_cast<__uint128_t>(rng()) * range;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < range) {
    const uint64_t threshold = (0 - range) % range;
    while (low < threshold) {
      m = static_cast<__uint128_t>(rng()) * range;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

// [0, 1) with 53 random bits.
double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// N(0, 1) by Box-Muller; both outputs of a pair are used.
class Normal {
 public:
  explicit Normal(std::mt19937_64& rng) : rng_(rng) {}
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = static_cast<double>((rng_() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
    const double u2 = uniform01(rng_);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double t = 6.283185307179586 * u2;
    spare_ = r * std::sin(t);
    has_spare_ = true;
    return r * std::cos(t);
  }

 private:
  std::mt19937_64& rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// Every block on all hardware threads (graphs/detail.h).
template <class F>
void parallel_blocks(int64_t num_blocks, const F& f) {
  detail::parallel_blocks(num_blocks, 0, f);
}

constexpr int64_t rows_per_block = 1 << 12;
constexpr int64_t edges_per_block = 1 << 20;
constexpr int64_t elements_per_block = 1 << 16;
constexpr int64_t max_nodes = int64_t{1} << 40;

int64_t num_blocks(int64_t count, int64_t per_block) {
  return (count + per_block - 1) / per_block;
}

// Fills col with uniform sources in [0, n) given row_ptr, sorting each row.
void fill_uniform_sources(Csr64& g, uint64_t seed) {
  const int64_t n = g.num_nodes;
  g.col.resize(g.row_ptr[n]);
  parallel_blocks(num_blocks(n, rows_per_block), [&](int64_t b) {
    auto rng = block_rng(seed, stream_sources, b);
    const int64_t end = std::min(n, (b + 1) * rows_per_block);
    for (int64_t r = b * rows_per_block; r < end; ++r) {
      const auto first = g.col.begin() + g.row_ptr[r];
      const auto last = g.col.begin() + g.row_ptr[r + 1];
      for (auto it = first; it != last; ++it) *it = static_cast<int64_t>(bounded(rng, n));
      std::sort(first, last);
    }
  });
}

void check_nodes(const char* kind, int64_t n) {
  if (n < 1 || n > max_nodes) fail(kind, ": n = ", n, " is out of range 1..2^40");
}

int64_t checked_edges(const char* kind, int64_t n, int64_t degree) {
  int64_t e = 0;
  if (__builtin_mul_overflow(n, degree, &e) || e > max_nodes * 64)
    fail(kind, ": n * deg = ", n, " * ", degree, " edges is too many");
  return e;
}

// Each generator's arguments, checked alike by the generator and by parse_spec (a spec with a
// value out of range is refused when it is read: a config or a command line names it before any
// graph is built).
constexpr int64_t kMaxDegree = max_nodes * 64;

void check_seed_args(int64_t n, int64_t avg_degree) {
  check_nodes("seed", n);
  if (avg_degree < 1 || avg_degree > kMaxDegree)
    fail("seed: deg = ", avg_degree, ", expected 1..2^46");
  checked_edges("seed", n, avg_degree + 3);
}

void check_uniform_args(int64_t n, int64_t degree) {
  check_nodes("uniform", n);
  if (degree < 0 || degree > kMaxDegree) fail("uniform: deg = ", degree, ", expected 0..2^46");
  checked_edges("uniform", n, degree);
}

// Returns the maximum degree the generator caps at (maxdeg 0 or left out: n - 1).
int64_t check_powerlaw_args(int64_t n, double avg_degree, double alpha, int64_t max_degree) {
  check_nodes("powerlaw", n);
  if (max_degree < 0)
    fail("powerlaw: maxdeg = ", max_degree, ", expected >= 1 (0 or left out: n - 1)");
  if (max_degree == 0) max_degree = std::max<int64_t>(1, n - 1);
  if (!(alpha > 1.0) || !std::isfinite(alpha))
    fail("powerlaw: alpha = ", alpha, ", expected a finite value > 1");
  if (!(avg_degree >= 1.0) || !(avg_degree <= static_cast<double>(max_degree)))
    fail("powerlaw: deg = ", avg_degree, " must lie in [1, maxdeg = ", max_degree, "]");
  // Before the cast below: a double past int64's range converts to nothing defined.
  if (!(avg_degree <= static_cast<double>(kMaxDegree)))
    fail("powerlaw: deg = ", avg_degree, ", expected at most 2^46");
  checked_edges("powerlaw", n, static_cast<int64_t>(std::ceil(avg_degree)));
  return max_degree;
}

void check_rmat_args(int64_t scale, int64_t edge_factor, double a, double b, double c) {
  if (scale < 1 || scale > 32) fail("rmat: scale = ", scale, " is out of range 1..32");
  if (edge_factor < 1) fail("rmat: ef = ", edge_factor, ", expected >= 1");
  if (!(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1.0 + 1e-12))
    fail("rmat: a, b, c = ", a, ", ", b, ", ", c, " must be >= 0 with a + b + c <= 1");
  checked_edges("rmat", int64_t{1} << scale, edge_factor);
}

std::string number(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

Csr64 generate_seed_shape(int64_t n, int64_t avg_degree, uint64_t seed) {
  check_seed_args(n, avg_degree);
  Csr64 g;
  g.name = "seed:n=" + std::to_string(n) + ",deg=" + std::to_string(avg_degree) +
           ",seed=" + std::to_string(seed);
  g.num_nodes = n;
  g.row_ptr.resize(n + 1);
  g.row_ptr[0] = 0;
  for (int64_t i = 0; i < n; ++i)
    g.row_ptr[i + 1] = g.row_ptr[i] + std::max<int64_t>(1, avg_degree + i % 7 - 3);
  fill_uniform_sources(g, seed);
  return g;
}

Csr64 generate_uniform(int64_t n, int64_t degree, uint64_t seed) {
  check_uniform_args(n, degree);
  Csr64 g;
  g.name = "uniform:n=" + std::to_string(n) + ",deg=" + std::to_string(degree) +
           ",seed=" + std::to_string(seed);
  g.num_nodes = n;
  g.row_ptr.resize(n + 1);
  for (int64_t i = 0; i <= n; ++i) g.row_ptr[i] = i * degree;
  fill_uniform_sources(g, seed);
  return g;
}

namespace {

// powerlaw_degrees with its arguments checked and max_degree resolved (check_powerlaw_args).
std::vector<int64_t> checked_powerlaw_degrees(int64_t n, double avg_degree, double alpha,
                                              int64_t max_degree, uint64_t seed) {
  const double beta = 1.0 / (alpha - 1.0);
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i) w[i] = std::pow(static_cast<double>(i + 1), -beta);
  const double hi_deg = static_cast<double>(max_degree);
  auto total = [&](double c) {
    double s = 0;
    for (const double x : w) s += std::clamp(c * x, 1.0, hi_deg);
    return s;
  };
  const double target = static_cast<double>(n) * avg_degree;
  double lo = 0;
  double hi = 1;
  while (total(hi) < target && hi < 1e300) hi *= 2;
  for (int it = 0; it < 100 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (total(mid) < target ? lo : hi) = mid;
  }
  const double c = hi;
  // With alpha near 1 (beta in the hundreds) the weights underflow to 0 past the first few
  // nodes and no c reaches the mean: then the scale is searched in log space, where every
  // node's weight stays finite (a node's expected degree exp(log c - beta ln(i + 1)), clamped).
  // Other alphas keep the search above, so their graphs are unchanged.
  std::vector<double> x(n);
  if (total(c) < target * (1 - 1e-9)) {
    std::vector<double> lw(n);
    for (int64_t i = 0; i < n; ++i) lw[i] = -beta * std::log(static_cast<double>(i + 1));
    auto at = [&](double logc, int64_t i) {
      return std::clamp(std::exp(std::min(logc + lw[i], 700.0)), 1.0, hi_deg);
    };
    auto log_total = [&](double logc) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += at(logc, i);
      return s;
    };
    double llo = 0, lhi = beta * std::log(static_cast<double>(n)) + std::log(hi_deg) + 1;
    for (int it = 0; it < 200 && lhi - llo > 1e-12 * std::max(1.0, lhi); ++it) {
      const double mid = 0.5 * (llo + lhi);
      (log_total(mid) < target ? llo : lhi) = mid;
    }
    for (int64_t i = 0; i < n; ++i) x[i] = at(lhi, i);
  } else {
    for (int64_t i = 0; i < n; ++i) x[i] = std::clamp(c * w[i], 1.0, hi_deg);
  }

  auto rng = block_rng(seed, stream_powerlaw_degrees, 0);
  std::vector<int64_t> deg(n);
  for (int64_t i = 0; i < n; ++i) {
    const double f = std::floor(x[i]);
    deg[i] = static_cast<int64_t>(f) + (uniform01(rng) < x[i] - f ? 1 : 0);
  }
  for (int64_t i = n - 1; i > 0; --i) std::swap(deg[i], deg[bounded(rng, i + 1)]);
  return deg;
}

}  // namespace

std::vector<int64_t> powerlaw_degrees(int64_t n, double avg_degree, double alpha,
                                      int64_t max_degree, uint64_t seed) {
  max_degree = check_powerlaw_args(n, avg_degree, alpha, max_degree);
  return checked_powerlaw_degrees(n, avg_degree, alpha, max_degree, seed);
}

Csr64 generate_powerlaw(int64_t n, double avg_degree, double alpha, int64_t max_degree,
                        uint64_t seed) {
  max_degree = check_powerlaw_args(n, avg_degree, alpha, max_degree);
  std::vector<int64_t> deg = checked_powerlaw_degrees(n, avg_degree, alpha, max_degree, seed);
  Csr64 g;
  g.name = "powerlaw:n=" + std::to_string(n) + ",deg=" + number(avg_degree) +
           ",alpha=" + number(alpha) + ",maxdeg=" + std::to_string(max_degree) +
           ",seed=" + std::to_string(seed);
  g.num_nodes = n;
  g.row_ptr.resize(n + 1);
  g.row_ptr[0] = 0;
  for (int64_t i = 0; i < n; ++i) g.row_ptr[i + 1] = g.row_ptr[i] + deg[i];
  std::vector<int64_t>().swap(deg);
  fill_uniform_sources(g, seed);
  return g;
}

Csr64 generate_rmat(int scale, int64_t edge_factor, double a, double b, double c, uint64_t seed) {
  check_rmat_args(scale, edge_factor, a, b, c);
  const int64_t n = int64_t{1} << scale;
  const int64_t e = checked_edges("rmat", n, edge_factor);

  // Quadrant thresholds on 32-bit draws: two levels of the recursion per 64-bit output.
  const auto scaled = [](double p) {
    return static_cast<uint64_t>(std::min(std::round(p * 0x1.0p32), 0x1.0p32));
  };
  const uint64_t t_a = scaled(a);
  const uint64_t t_ab = scaled(a + b);
  const uint64_t t_abc = scaled(a + b + c);

  // Graph500 scrambles the labels so that the hubs are not the lowest ids.
  std::vector<int64_t> label(n);
  for (int64_t i = 0; i < n; ++i) label[i] = i;
  {
    auto rng = block_rng(seed, stream_rmat_labels, 0);
    for (int64_t i = n - 1; i > 0; --i) std::swap(label[i], label[bounded(rng, i + 1)]);
  }

  // Edge k, drawn from its block's generator: (matrix row, matrix col) = (src, dst), packed as
  // src << 32 | dst. Storing the draws (8 bytes an edge) is cheaper than drawing them twice.
  std::vector<uint64_t> edges(e);
  const int64_t blocks = num_blocks(e, edges_per_block);
  parallel_blocks(blocks, [&](int64_t blk) {
    auto rng = block_rng(seed, stream_rmat_edges, blk);
    const int64_t end = std::min(e, (blk + 1) * edges_per_block);
    for (int64_t k = blk * edges_per_block; k < end; ++k) {
      uint64_t i = 0;
      uint64_t j = 0;
      uint64_t bits = 0;
      for (int level = 0; level < scale; ++level) {
        bits = (level % 2 == 0) ? rng() : bits >> 32;
        const uint64_t r = bits & 0xffffffffu;
        // Quadrants a | b | c | d by the thresholds: row bit for c, d; column bit for b, d.
        const uint64_t ge_a = r >= t_a, ge_ab = r >= t_ab, ge_abc = r >= t_abc;
        i = (i << 1) | ge_ab;
        j = (j << 1) | (ge_a ^ ge_ab ^ ge_abc);
      }
      edges[k] = static_cast<uint64_t>(label[i]) << 32 | static_cast<uint64_t>(label[j]);
    }
  });
  std::vector<int64_t>().swap(label);

  Csr64 g;
  g.name = "rmat:scale=" + std::to_string(scale) + ",ef=" + std::to_string(edge_factor) +
           ",a=" + number(a) + ",b=" + number(b) + ",c=" + number(c) +
           ",seed=" + std::to_string(seed);
  g.num_nodes = n;
  g.row_ptr.assign(n + 1, 0);
  parallel_blocks(blocks, [&](int64_t blk) {
    const int64_t end = std::min(e, (blk + 1) * edges_per_block);
    for (int64_t k = blk * edges_per_block; k < end; ++k) {
      const auto dst = static_cast<int64_t>(edges[k] & 0xffffffffu);
      std::atomic_ref<int64_t>(g.row_ptr[dst + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  for (int64_t i = 0; i < n; ++i) g.row_ptr[i + 1] += g.row_ptr[i];
  std::vector<int64_t> cursor(g.row_ptr.begin(), g.row_ptr.end() - 1);
  g.col.resize(e);
  parallel_blocks(blocks, [&](int64_t blk) {
    const int64_t end = std::min(e, (blk + 1) * edges_per_block);
    for (int64_t k = blk * edges_per_block; k < end; ++k) {
      const auto dst = static_cast<int64_t>(edges[k] & 0xffffffffu);
      const int64_t at =
          std::atomic_ref<int64_t>(cursor[dst]).fetch_add(1, std::memory_order_relaxed);
      g.col[at] = static_cast<int64_t>(edges[k] >> 32);
    }
  });
  std::vector<uint64_t>().swap(edges);
  // The placement order within a row depends on thread timing; sorting makes it canonical.
  parallel_blocks(num_blocks(n, rows_per_block), [&](int64_t blk) {
    const int64_t end = std::min(n, (blk + 1) * rows_per_block);
    for (int64_t r = blk * rows_per_block; r < end; ++r)
      std::sort(g.col.begin() + g.row_ptr[r], g.col.begin() + g.row_ptr[r + 1]);
  });
  return g;
}

template <class Index>
Inputs make_inputs(const Csr<Index>& g, int heads, int feat, uint64_t seed) {
  if (heads < 1 || feat < 1)
    fail("make_inputs: heads = ", heads, ", feat = ", feat, ", expected >= 1");
  Inputs in;
  in.heads = heads;
  in.feat = feat;
  in.scores.resize(g.num_edges() * heads);
  in.values.resize(g.num_nodes * heads * feat);
  auto fill = [seed](std::vector<float>& v, uint64_t stream) {
    const int64_t size = static_cast<int64_t>(v.size());
    parallel_blocks(num_blocks(size, elements_per_block), [&](int64_t b) {
      auto rng = block_rng(seed, stream, b);
      Normal normal(rng);
      const int64_t end = std::min(size, (b + 1) * elements_per_block);
      for (int64_t k = b * elements_per_block; k < end; ++k)
        v[k] = static_cast<float>(normal.next());
    });
  };
  fill(in.scores, stream_scores);
  fill(in.values, stream_values);
  return in;
}

template Inputs make_inputs(const Csr32&, int, int, uint64_t);
template Inputs make_inputs(const Csr64&, int, int, uint64_t);

// ---- spec language -------------------------------------------------------------------------

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// key=value pairs of one generator, each consumed at most once; leftovers are errors.
class Keys {
 public:
  Keys(const std::string& spec, std::string_view kind, std::string_view body)
      : spec_(spec), kind_(kind) {
    // Every comma-separated part, the one after a trailing comma too.
    for (bool more = !body.empty(); more;) {
      const size_t comma = body.find(',');
      const std::string_view part = trim(body.substr(0, comma));
      more = comma != std::string_view::npos;
      if (more) body.remove_prefix(comma + 1);
      // Refused as a config refuses it: one graph has one spec text (its source hash is the
      // text's), and `n=10,,deg=3` or a trailing comma is more likely a lost key than style.
      if (part.empty())
        fail("graph spec '", spec_, "': an empty part (two commas, or a comma at an end)");
      const size_t eq = part.find('=');
      if (eq == std::string_view::npos)
        fail("graph spec '", spec_, "': expected key=value, found '", part, "'");
      const std::string key(trim(part.substr(0, eq)));
      if (!kv_.emplace(key, std::string(trim(part.substr(eq + 1)))).second)
        fail("graph spec '", spec_, "': key '", key, "' given twice");
    }
  }

  template <class T>
  T get(const std::string& key, std::optional<T> fallback = std::nullopt) {
    known_.push_back(key);
    const auto it = kv_.find(key);
    if (it == kv_.end()) {
      if (!fallback) fail("graph spec '", spec_, "': ", kind_, " needs key '", key, "'");
      return *fallback;
    }
    const std::string v = it->second;
    kv_.erase(it);
    T out{};
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || ptr != v.data() + v.size() || v.empty())
      fail("graph spec '", spec_, "': bad value '", v, "' for key '", key, "'");
    return out;
  }

  // Call after every get(): names the first key that no get() asked for.
  void finish() const {
    if (kv_.empty()) return;
    std::string known;
    for (const auto& k : known_) known += (known.empty() ? "" : ", ") + k;
    fail("graph spec '", spec_, "': unknown key '", kv_.begin()->first, "' for ", kind_,
         " (known: ", known, ")");
  }

 private:
  const std::string& spec_;
  std::string kind_;
  std::map<std::string, std::string> kv_;
  std::vector<std::string> known_;
};

}  // namespace

namespace {

// A spec, parsed and checked: a generator with every key (defaults filled in) or a file path.
struct ParsedSpec {
  std::string kind;  // seed, uniform, powerlaw, rmat or file
  std::string path;  // file
  int64_t n = 0, maxdeg = 0, scale = 0, ef = 16;
  int64_t ideg = 0;  // seed's and uniform's integer degree
  double deg = 0, alpha = 2.1, a = 0.57, b = 0.19, c = 0.19;
  uint64_t seed = 1;
};

ParsedSpec parse_spec(const std::string& spec_in) {
  const SpecForm form = spec_form(spec_in);
  const std::string& spec = form.spec;
  if (spec.empty()) fail("graph spec is empty");
  ParsedSpec p;
  if (spec.rfind("file:", 0) == 0) {
    p.kind = "file";
    p.path = form.path;
    return p;
  }
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string_view body =
      colon == std::string::npos ? std::string_view() : std::string_view(spec).substr(colon + 1);
  if (!form.generator.empty()) {
    Keys k(spec, kind, body);
    p.kind = kind;
    if (kind == "rmat") {
      p.scale = k.get<int64_t>("scale");
      p.ef = k.get<int64_t>("ef", 16);
      p.a = k.get<double>("a", 0.57);
      p.b = k.get<double>("b", 0.19);
      p.c = k.get<double>("c", 0.19);
    } else {
      p.n = k.get<int64_t>("n");
      // seed and uniform take an integer degree, powerlaw a real mean degree.
      if (kind == "powerlaw")
        p.deg = k.get<double>("deg");
      else
        p.deg = static_cast<double>(p.ideg = k.get<int64_t>("deg"));
      if (kind == "powerlaw") {
        p.alpha = k.get<double>("alpha", 2.1);
        p.maxdeg = k.get<int64_t>("maxdeg", 0);
      }
    }
    p.seed = k.get<uint64_t>("seed", 1);
    k.finish();
    try {  // the generator's own checks, here so that a spec is refused when it is read
      if (kind == "seed")
        check_seed_args(p.n, p.ideg);
      else if (kind == "uniform")
        check_uniform_args(p.n, p.ideg);
      else if (kind == "powerlaw")
        check_powerlaw_args(p.n, p.deg, p.alpha, p.maxdeg);
      else
        check_rmat_args(p.scale, p.ef, p.a, p.b, p.c);
    } catch (const GraphError& e) {
      fail("graph spec '", spec, "': ", e.what());
    }
    return p;
  }
  if (has_graph_file_extension(spec)) {
    p.kind = "file";
    p.path = spec;
    return p;
  }
  if (colon != std::string::npos)
    fail("graph spec '", spec, "': unknown kind '", kind,
         "' (known: seed, uniform, powerlaw, rmat, file)");
  std::string endings(kGraphFileExtensions[0]);
  for (size_t i = 1; i < std::size(kGraphFileExtensions); ++i)
    endings += (i + 1 < std::size(kGraphFileExtensions) ? ", " : " or ") +
               std::string(kGraphFileExtensions[i]);
  fail("graph spec '", spec, "' is neither kind:key=value,... nor a path ending in ", endings);
}

}  // namespace

bool has_graph_file_extension(std::string_view spec) {
  for (const std::string_view ext : kGraphFileExtensions)
    if (spec.size() > ext.size() && detail::ends_with(spec, ext)) return true;
  return false;
}

SpecForm spec_form(const std::string& spec_in) {
  SpecForm f;
  f.spec = std::string(trim(spec_in));
  const std::string kind = f.spec.substr(0, f.spec.find(':'));
  if (kind == "seed" || kind == "uniform" || kind == "powerlaw" || kind == "rmat")
    f.generator = kind;
  else
    f.path = kind == "file" ? f.spec.substr(5) : f.spec;
  return f;
}

Csr64 make_graph(const std::string& spec) {
  const ParsedSpec p = parse_spec(spec);
  if (p.kind == "file") return read_graph_file(p.path);
  // As the file readers do from a size line: on Linux an allocation past the memory there is
  // succeeds (overcommit) and the OOM killer ends the process while it is filled, so a spec too
  // large for this machine is refused before it is built, not left to bad_alloc.
  const int64_t nodes = p.kind == "rmat" ? int64_t{1} << p.scale : p.n;
  const int64_t edges = estimate_edges(spec);
  // The peak a generator holds: seed, uniform and powerlaw fill row_ptr and col in place
  // (powerlaw's degree array is freed before col is made); rmat holds its packed edge list, then
  // col beside it and a cursor a row.
  const long double peak =
      p.kind == "rmat" ? 16.0L * edges + 24.0L * nodes : 8.0L * edges + 16.0L * nodes;
  const int64_t peak_bytes = peak > 9.0e18L ? INT64_MAX : static_cast<int64_t>(peak);
  detail::require_memory(peak_bytes, "graph spec '", spec, "' (~", edges, " edges over ", nodes,
                         " nodes)");
  try {
    if (p.kind == "seed") return generate_seed_shape(p.n, p.ideg, p.seed);
    if (p.kind == "uniform") return generate_uniform(p.n, p.ideg, p.seed);
    if (p.kind == "powerlaw") return generate_powerlaw(p.n, p.deg, p.alpha, p.maxdeg, p.seed);
    return generate_rmat(static_cast<int>(p.scale), p.ef, p.a, p.b, p.c, p.seed);
  } catch (const std::bad_alloc&) {
    // A spec's size is the user's to choose; what it costs is ours to say (a limit below the
    // machine's memory, ulimit -v, fails here rather than at the check above).
    throw std::runtime_error("graph spec '" + spec + "': not enough host memory to generate it (~" +
                             std::to_string(edges) + " edges over " + std::to_string(nodes) +
                             " nodes, ~" + std::to_string((peak_bytes >> 30) + 1) +
                             " GiB while it is built)");
  }
}

int64_t estimate_edges(const std::string& spec) {
  const ParsedSpec p = parse_spec(spec);
  if (p.kind == "file") return graph_file_edges_hint(p.path);
  if (p.kind == "rmat") return (int64_t{1} << p.scale) * p.ef;
  return static_cast<int64_t>(static_cast<double>(p.n) * p.deg);
}

}  // namespace csrgat::graphs
