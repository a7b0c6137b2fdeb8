// Matrix Market and SNAP readers. Both stream the file through zlib (which reads plain files
// transparently), keep only the coordinate lists in memory, and build the CSR with counting
// sorts. Every count and index is parsed as int64 with overflow checks.
#include "graphs/io.h"

#include "graphs/detail.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace csrgat::graphs {
namespace {

// Counts beyond this are rejected before any allocation is sized by them.
constexpr int64_t max_count = int64_t{1} << 40;
constexpr size_t max_line_bytes = size_t{1} << 20;

template <class... Args>
[[noreturn]] void fail_at(const std::string& path, int64_t line, const Args&... args) {
  detail::fail(path, ':', line, ": ", args...);
}

// A token as it appears in a message: quoted, cut short when long.
std::string quote(std::string_view t) {
  std::string s = "'";
  for (const char ch : t.substr(0, 40)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      s += ch;
    } else {
      static const char hex[] = "0123456789abcdef";
      s += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    }
  }
  return s + (t.size() > 40 ? "...'" : "'");
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  return s.substr(i);
}

using detail::ends_with;
using detail::iequals;

// The bytes of a plain or gzip file (by its first two bytes, whatever its name), read in pieces.
// A gzip file is inflated member after member; what follows the last member must be nothing or
// zeros (as gzip itself takes it): other bytes are an error, where zlib's gzread would drop them
// without a word and read a damaged or concatenated-with-junk file as if it were whole.
class ByteSource {
 public:
  explicit ByteSource(const std::string& path) : path_(path) {
    errno = 0;
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) {
      std::ostringstream os;
      os << path << ": cannot open: " << (errno ? std::strerror(errno) : "out of memory");
      throw GraphError(os.str());
    }
    in_.resize(size_t{1} << 17);
    refill();  // (a folder opens, and its read fails here: file_ closes itself)
    gzip_ = avail_ >= 2 && static_cast<unsigned char>(in_[0]) == 0x1f &&
            static_cast<unsigned char>(in_[1]) == 0x8b;
    if (gzip_ && inflateInit2(&z_, 15 + 16) != Z_OK)  // 16: the gzip wrapper, CRC checked
      throw GraphError(path + ": cannot start zlib: out of memory");
  }
  ~ByteSource() {
    if (gzip_) inflateEnd(&z_);
  }
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Up to n bytes into dst; 0 at the end. `line` locates an error (the line being read).
  size_t read(char* dst, size_t n, int64_t line) {
    if (!gzip_) {
      const size_t from_buf = std::min(n, avail_);
      std::memcpy(dst, in_.data() + pos_, from_buf);
      pos_ += from_buf;
      avail_ -= from_buf;
      if (from_buf > 0) return from_buf;
      const size_t got = std::fread(dst, 1, n, file_.get());
      if (got == 0 && std::ferror(file_.get()))
        fail_at(path_, line, "read error: ", std::strerror(errno));
      return got;
    }
    const auto want = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = want;
    while (z_.avail_out == want && !done_) {
      if (member_ended_) {  // another member, trailing zeros, or trailing bytes that are an error
        if (!skip_zeros(line)) break;
        if (inflateReset(&z_) != Z_OK) fail_at(path_, line, "corrupt gzip stream (zlib: reset)");
        member_ended_ = false;
      }
      if (avail_ == 0 && !refill())
        fail_at(path_, line, "truncated gzip stream (the file ends inside a member)");
      z_.next_in = reinterpret_cast<Bytef*>(in_.data() + pos_);
      z_.avail_in = static_cast<uInt>(avail_);
      const int rc = inflate(&z_, Z_NO_FLUSH);
      const size_t used = avail_ - z_.avail_in;
      pos_ += used;
      avail_ -= used;
      if (rc == Z_STREAM_END) {
        member_ended_ = true;
      } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && avail_ == 0)) {
        fail_at(path_, line, "corrupt gzip stream (zlib: ",
                z_.msg ? std::string(z_.msg) : "error " + std::to_string(rc), ")");
      }
    }
    return want - z_.avail_out;
  }

 private:
  // More raw bytes into in_ (what is unread moved to the front); false at the end of the file.
  bool refill() {
    if (pos_ > 0) {
      std::memmove(in_.data(), in_.data() + pos_, avail_);
      pos_ = 0;
    }
    const size_t got = std::fread(in_.data() + avail_, 1, in_.size() - avail_, file_.get());
    if (got == 0 && std::ferror(file_.get()))
      throw GraphError(path_ + ": read error: " + std::strerror(errno));
    avail_ += got;
    raw_read_ += static_cast<int64_t>(got);
    return got > 0;
  }
  // After a member: true when another member starts; false (done_) when only zeros or nothing
  // is left; an error for anything else.
  bool skip_zeros(int64_t line) {
    while (avail_ < 2 && refill()) {
    }
    if (avail_ >= 2 && static_cast<unsigned char>(in_[pos_]) == 0x1f &&
        static_cast<unsigned char>(in_[pos_ + 1]) == 0x8b)
      return true;
    int64_t offset = raw_read_ - static_cast<int64_t>(avail_);  // (ftell cannot count a pipe)
    do {
      for (size_t k = 0; k < avail_; ++k)
        if (in_[pos_ + k] != 0)
          fail_at(path_, line, "trailing data after the gzip stream (byte ",
                  offset + static_cast<int64_t>(k),
                  " of the file is neither zero nor the start of another member)");
      offset += static_cast<int64_t>(avail_);
      pos_ += avail_;
      avail_ = 0;
    } while (refill());
    done_ = true;
    return false;
  }

  std::string path_;
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
  int64_t raw_read_ = 0;  // bytes read from the file so far
  std::vector<char> in_;
  size_t pos_ = 0, avail_ = 0;  // in_'s unread bytes
  bool gzip_ = false, member_ended_ = false, done_ = false;
  z_stream z_{};
};

// Reads lines from a plain or gzip file with a growing buffer, so lines of any length up to
// max_line_bytes work and the file is never held in memory as a whole.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), src_(path), buf_(size_t{1} << 18) {}

  // The next line without its end-of-line characters; false at the end of the file.
  bool next(std::string_view& line) {
    for (;;) {
      const char* first = buf_.data() + begin_;
      const void* nl = std::memchr(first, '\n', end_ - begin_);
      if (nl) {
        const size_t len = static_cast<const char*>(nl) - first;
        line = strip_cr(std::string_view(first, len));
        begin_ += len + 1;
        ++line_;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        line = strip_cr(std::string_view(first, end_ - begin_));
        begin_ = end_;
        ++line_;
        return true;
      }
      fill();
    }
  }
  int64_t line_number() const { return line_; }

 private:
  static std::string_view strip_cr(std::string_view s) {
    return (!s.empty() && s.back() == '\r') ? s.substr(0, s.size() - 1) : s;
  }

  void fill() {
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buf_.size()) {
      if (buf_.size() >= max_line_bytes)
        fail_at(path_, line_ + 1, "line is longer than ", max_line_bytes, " bytes");
      buf_.resize(buf_.size() * 2);
    }
    const size_t n = src_.read(buf_.data() + end_, buf_.size() - end_, line_ + 1);
    if (n == 0) eof_ = true;
    end_ += n;
  }

  std::string path_;
  ByteSource src_;
  std::vector<char> buf_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  int64_t line_ = 0;
};

// A number's text without one leading '+' (+1.5, +3): the Matrix Market reference reader
// (fscanf, strtod) takes it and writers emit it; std::from_chars does not. "+-3" stays as it is
// (and is refused).
std::string_view unsigned_part(std::string_view t) {
  return t.size() > 1 && t[0] == '+' && t[1] != '+' && t[1] != '-' ? t.substr(1) : t;
}

class Parser {
 public:
  Parser(const std::string& path, const LineReader& in) : path_(path), in_(in) {}

  template <class... Args>
  [[noreturn]] void fail(const Args&... args) const {
    fail_at(path_, in_.line_number(), args...);
  }

  int64_t integer(std::string_view t, const char* what) const {
    int64_t v = 0;
    const std::string_view u = unsigned_part(t);
    const auto [ptr, ec] = std::from_chars(u.data(), u.data() + u.size(), v);
    if (ec == std::errc::result_out_of_range)
      fail(what, ' ', quote(t), " is out of the int64 range");
    if (ec != std::errc() || ptr != u.data() + u.size())
      fail(what, ' ', quote(t), " is not an integer");
    return v;
  }

  // Values are ignored, so one beyond double's range (1e-400) still passes as a number.
  void real(std::string_view t, const char* what) const {
    double v = 0;
    const std::string_view u = unsigned_part(t);
    const auto [ptr, ec] = std::from_chars(u.data(), u.data() + u.size(), v);
    if ((ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != u.data() + u.size())
      fail(what, ' ', quote(t), " is not a number");
  }

 private:
  const std::string& path_;
  const LineReader& in_;
};

std::string stem(const std::string& path) {
  std::string s = path.substr(path.find_last_of('/') + 1);
  if (ends_with(s, ".gz")) s.resize(s.size() - 3);
  const size_t dot = s.find_last_of('.');
  if (dot != std::string::npos && dot > 0) s.resize(dot);
  return s;
}

Csr64 build(const std::string& path, int64_t line, int64_t n, std::vector<int64_t>&& dst,
            std::vector<int64_t>&& src) {
  try {
    Csr64 g = csr_from_edges(n, std::move(dst), std::move(src));
    g.name = stem(path);
    return g;
  } catch (const GraphError& e) {
    fail_at(path, line, e.what());
  }
}

}  // namespace

namespace {

// A carriage return inside a file's first line (not at its end, CRLF's) means lines ended by
// CR alone (classic Mac OS): the whole file reads as one line, whose fields no message would
// explain.
void refuse_cr_line_ends(std::string_view first_line, const Parser& p) {
  if (const size_t cr = first_line.find('\r');
      cr != std::string_view::npos && cr + 1 < first_line.size())
    p.fail(
        "lines end with a carriage return alone (classic Mac OS line ends): convert them to "
        "LF (or CRLF)");
}

// The banner and size line of a Matrix Market file, checked; the reader stands after them.
struct MtxHeader {
  bool pattern = false, integer = false, symmetric = false;
  int64_t rows = 0, nnz = 0;
};

MtxHeader read_mtx_header(const std::string& path, LineReader& in, const Parser& p) {
  std::string_view line;
  if (!in.next(line)) fail_at(path, 1, "empty file, expected the %%MatrixMarket banner");

  refuse_cr_line_ends(line, p);
  const auto banner = split(line);
  if (banner.empty() || !iequals(banner[0], "%%MatrixMarket"))
    p.fail("missing %%MatrixMarket banner, found ", quote(line));
  if (banner.size() != 5)
    p.fail("banner has ", banner.size(),
           " fields, expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (!iequals(banner[1], "matrix"))
    p.fail("unsupported object ", quote(banner[1]), " (only matrix)");
  if (iequals(banner[2], "array"))
    p.fail("unsupported format 'array' (dense); only coordinate is read");
  if (!iequals(banner[2], "coordinate")) p.fail("unknown format ", quote(banner[2]));
  const std::string_view field = banner[3];
  const bool pattern = iequals(field, "pattern");
  const bool integer = iequals(field, "integer");
  if (iequals(field, "complex")) p.fail("unsupported field 'complex'");
  if (!pattern && !integer && !iequals(field, "real")) p.fail("unknown field ", quote(field));
  const std::string_view symmetry = banner[4];
  const bool symmetric = iequals(symmetry, "symmetric");
  if (iequals(symmetry, "skew-symmetric") || iequals(symmetry, "hermitian"))
    p.fail("unsupported symmetry ", quote(symmetry), " (only general and symmetric)");
  if (!symmetric && !iequals(symmetry, "general")) p.fail("unknown symmetry ", quote(symmetry));

  // Comments and blank lines, then the size line.
  std::vector<std::string_view> tok;
  for (;;) {
    if (!in.next(line)) fail_at(path, in.line_number() + 1, "missing size line (header only)");
    const std::string_view t = trim_left(line);
    if (t.empty() || t[0] == '%') continue;
    tok = split(t);
    break;
  }
  if (tok.size() != 3)
    p.fail("size line has ", tok.size(), " fields, expected 'rows cols entries'");
  const int64_t rows = p.integer(tok[0], "size line: rows");
  const int64_t cols = p.integer(tok[1], "size line: cols");
  const int64_t nnz = p.integer(tok[2], "size line: entries");
  if (rows < 0 || cols < 0 || nnz < 0) p.fail("size line: negative count");
  if (rows != cols) p.fail("matrix is not square (", rows, " x ", cols, ")");
  if (rows > max_count || nnz > max_count)
    p.fail("size line: counts over the reader's limit of 2^40 (", rows, " nodes, ", nnz,
           " entries)");
  return {pattern, integer, symmetric, rows, nnz};
}

// By extension, as read_graph_file dispatches: .mtx[.gz] is Matrix Market, the rest SNAP.
bool is_matrix_market(const std::string& path) {
  return ends_with(path, ".mtx") || ends_with(path, ".mtx.gz");
}

}  // namespace

Csr64 read_matrix_market(const std::string& path) {
  LineReader in(path);
  const Parser p(path, in);
  const auto [pattern, integer, symmetric, n, nnz] = read_mtx_header(path, in, p);
  std::string_view line;
  std::vector<std::string_view> tok;
  const int64_t size_line = in.line_number();
  const size_t want = pattern ? 2 : 3;
  try {  // before reading a line of entries: a size line asking for more than the machine has
    detail::require_memory(detail::csr_build_bytes(n, symmetric ? 2 * nnz : nnz), "the size line (",
                           n, " nodes, ", nnz, " entries)");
  } catch (const GraphError& e) {
    fail_at(path, size_line, e.what());
  }

  std::vector<int64_t> dst;
  std::vector<int64_t> src;
  int64_t count = 0;
  // A symmetric file stores one triangle (the format's is the lower, row >= column; a file with
  // the upper one alone reads the same); entries on both sides would each be read twice, as
  // duplicate edges: the first line of each side, to name both.
  int64_t lower_line = 0, upper_line = 0;
  try {
    const int64_t guess = std::min<int64_t>(symmetric ? 2 * nnz : nnz, int64_t{1} << 24);
    dst.reserve(guess);
    src.reserve(guess);
    while (in.next(line)) {
      const std::string_view t = trim_left(line);
      if (t.empty() || t[0] == '%') continue;
      if (count == nnz)
        p.fail("more entries than the ", nnz, " declared on the size line (line ", size_line, ")");
      tok = split(t);
      if (tok.size() < want)
        p.fail("entry has ", tok.size(), " fields, expected ",
               pattern ? "2 (row col)" : "3 (row col value)",
               tok.size() == 1 ? ": missing column" : ": missing value");
      if (tok.size() > want) p.fail("trailing garbage ", quote(tok[want]), " after the entry");
      const int64_t r = p.integer(tok[0], "row index");
      const int64_t c = p.integer(tok[1], "column index");
      if (r < 1 || r > n) p.fail("row index ", r, " is out of range 1..", n);
      if (c < 1 || c > n) p.fail("column index ", c, " is out of range 1..", n);
      if (integer) p.integer(tok[2], "value");
      if (!pattern && !integer) p.real(tok[2], "value");
      ++count;
      dst.push_back(r - 1);
      src.push_back(c - 1);
      if (symmetric && r != c) {
        int64_t& side = r > c ? lower_line : upper_line;
        if (side == 0) side = in.line_number();
        if (lower_line != 0 && upper_line != 0)
          p.fail("entry (", r, ", ", c, ") lies ", r > c ? "below" : "above",
                 " the diagonal, and line ", r > c ? upper_line : lower_line, "'s ",
                 r > c ? "above" : "below",
                 " it: a symmetric file stores one triangle (the lower, row >= column), and each "
                 "edge given in both would be read twice (write the file as general)");
        dst.push_back(c - 1);
        src.push_back(r - 1);
      }
    }
  } catch (const std::bad_alloc&) {
    p.fail("out of memory after ", count, " entries");
  }
  if (count < nnz)
    fail_at(path, in.line_number(), "truncated: found ", count, " of the ", nnz,
            " entries declared on the size line (line ", size_line, ")");
  return build(path, in.line_number(), n, std::move(dst), std::move(src));
}

Csr64 read_snap(const std::string& path) {
  LineReader in(path);
  const Parser p(path, in);
  std::vector<int64_t> dst;
  std::vector<int64_t> src;
  std::string_view line;
  int64_t max_id = -1;
  try {
    while (in.next(line)) {
      if (in.line_number() == 1) refuse_cr_line_ends(line, p);
      const std::string_view t = trim_left(line);
      if (t.empty() || t[0] == '#') continue;
      const auto tok = split(t);
      if (tok.size() != 2)
        p.fail("expected 2 columns (src dst), found ", tok.size(),
               tok.size() > 2 ? ": trailing garbage " + quote(tok[2]) : std::string());
      const int64_t s = p.integer(tok[0], "source id");
      const int64_t d = p.integer(tok[1], "destination id");
      if (s < 0 || d < 0) p.fail("negative node id ", std::min(s, d));
      max_id = std::max({max_id, s, d});
      src.push_back(s);
      dst.push_back(d);
    }
  } catch (const std::bad_alloc&) {
    p.fail("out of memory after ", src.size(), " edges");
  }
  if (src.empty()) fail_at(path, in.line_number(), "no edges (only comments or blank lines)");

  // Compact the ids to 0..N-1 in increasing order: a dense table when the ids are not much
  // sparser than the edges, otherwise a sorted list of the distinct ids.
  int64_t n = 0;
  const int64_t e = static_cast<int64_t>(src.size());
  try {
    if (max_id < 2 * e + 1024) {
      std::vector<int64_t> id_map(max_id + 1, -1);
      for (int64_t k = 0; k < e; ++k) id_map[src[k]] = id_map[dst[k]] = 0;
      for (auto& m : id_map)
        if (m == 0) m = n++;
      for (int64_t k = 0; k < e; ++k) {
        src[k] = id_map[src[k]];
        dst[k] = id_map[dst[k]];
      }
    } else {
      std::vector<int64_t> ids(src);
      ids.insert(ids.end(), dst.begin(), dst.end());
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      n = static_cast<int64_t>(ids.size());
      auto rank = [&](int64_t id) {
        return std::lower_bound(ids.begin(), ids.end(), id) - ids.begin();
      };
      for (int64_t k = 0; k < e; ++k) {
        src[k] = rank(src[k]);
        dst[k] = rank(dst[k]);
      }
    }
  } catch (const std::bad_alloc&) {
    fail_at(path, in.line_number(), "out of memory while compacting ", e, " edges");
  }
  return build(path, in.line_number(), n, std::move(dst), std::move(src));
}

int64_t graph_file_edges_hint(const std::string& path) {
  if (is_matrix_market(path)) {
    LineReader in(path);
    const Parser p(path, in);
    const MtxHeader h = read_mtx_header(path, in, p);
    return h.symmetric ? 2 * h.nnz : h.nnz;
  }
  // SNAP's own files say "# Nodes: 82168 Edges: 948464" in their first comment lines.
  LineReader in(path);
  std::string_view line;
  while (in.next(line)) {
    const std::string_view t = trim_left(line);
    if (t.empty()) continue;
    if (t[0] != '#') break;
    const size_t at = t.find("Edges:");
    if (at == std::string_view::npos) continue;
    const std::string_view num = trim_left(t.substr(at + 6));
    int64_t edges = -1;
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), edges);
    if (ec == std::errc() && ptr != num.data() && edges >= 0) return edges;
  }
  return -1;
}

Csr64 read_graph_file(const std::string& path) {
  if (is_matrix_market(path)) return read_matrix_market(path);
  return read_snap(path);
}

}  // namespace csrgat::graphs
