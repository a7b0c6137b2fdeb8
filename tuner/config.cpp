#include "tuner/config.h"

// GCC 12 warns that yaml-cpp's map iterators may read an uninitialised node where they are
// inlined into with_base below (a false positive of -Wmaybe-uninitialized on yaml-cpp's
// iterator proxy); the warning's location is yaml-cpp's header, so the pragma wraps it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <yaml-cpp/yaml.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "graphs/generate.h"
#include "graphs/hash.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/store.h"

namespace csrgat::tuner {

namespace fs = std::filesystem;

namespace {

std::string compose(const std::string& file, const std::string& key_path, int line, int column,
                    const std::string& detail) {
  std::string s = file.empty() ? "<config>" : file;
  if (line > 0) {
    s += ": line " + std::to_string(line);
    if (column > 0) s += ", column " + std::to_string(column);
  }
  if (!key_path.empty()) s += ": " + key_path;
  // A detail quotes the value it refuses: a 15 MB scalar would make a 15 MB message.
  constexpr size_t kMaxDetail = 1000;
  if (detail.size() > kMaxDetail)
    return s + ": " + detail.substr(0, kMaxDetail) + "... (" +
           std::to_string(detail.size() - kMaxDetail) + " more characters)";
  return s + ": " + detail;
}

}  // namespace

ConfigError::ConfigError(std::string file, std::string key_path, int line, int column,
                         std::string detail)
    : std::runtime_error(compose(file, key_path, line, column, detail)),
      file_(std::move(file)),
      key_path_(std::move(key_path)),
      line_(line),
      column_(column),
      detail_(std::move(detail)) {}

const char* to_string(StrategyKind k) {
  switch (k) {
    case StrategyKind::exhaustive:
      return "exhaustive";
    case StrategyKind::random:
      return "random";
    case StrategyKind::halving:
      return "halving";
  }
  return "?";
}

const char* to_string(CacheMode m) {
  return m == CacheMode::warm ? "warm" : "cold";
}

std::string closest_match(const std::string& word, const std::vector<std::string>& known) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        const size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
      }
      std::swap(prev, cur);
    }
    return prev[b.size()];
  };
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const auto& k : known) {
    const size_t d = distance(word, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  // Beyond a third of the word's length a suggestion is more confusing than helpful.
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_d <= limit ? best : "";
}

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

const char* type_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Scalar:
      return "a scalar";
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Undefined:
      return "nothing";
  }
  return "?";
}

// A value in the document with the path and position used in its error messages.
struct Item {
  YAML::Node node;
  std::string path;
  int line = 0, column = 0;  // 1-based
};

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// The file a key path's lines are in: the base's for a top-level key taken from it (`base:`).
std::string file_of_path(const std::map<std::string, std::string>& inherited,
                         const std::string& path, const std::string& own) {
  const auto it = inherited.find(path.substr(0, path.find_first_of(".[")));
  return it != inherited.end() ? it->second : own;
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  // A top-level key this config took from its base (`base:`): errors under it name that file.
  void inherit(const std::string& key, const std::string& file) { inherited_[key] = file; }
  const std::map<std::string, std::string>& inherited() const { return inherited_; }

  [[noreturn]] void fail(const Item& at, const std::string& msg) const {
    const std::string file = file_of_path(inherited_, at.path, file_);
    throw ConfigError(file, at.path, at.line, at.column,
                      file == file_ ? msg : msg + " (inherited by " + file_ + ")");
  }

  // yaml-cpp puts a null value's mark on the next token; the key's mark is the honest one.
  Item item(const YAML::Node& n, const std::string& path, const YAML::Mark& fallback) const {
    Item it{n, path, 0, 0};
    YAML::Mark m = fallback;
    if (n.IsDefined() && !n.IsNull() && !n.Mark().is_null()) m = n.Mark();
    if (!m.is_null()) {
      it.line = m.line + 1;
      it.column = m.column + 1;
    }
    return it;
  }

  // The entries of a map, after rejecting duplicate and unknown keys. `named` (e.g. "graph"):
  // the keys are the names of the config's such things, and an unknown one is said as such.
  std::map<std::string, Item> fields(const Item& map, const std::vector<std::string>& known,
                                     const char* named = nullptr) const {
    if (!map.node.IsMap()) fail(map, std::string("expected a map, found ") + type_name(map.node));
    std::map<std::string, Item> out;
    for (auto it = map.node.begin(); it != map.node.end(); ++it) {
      const YAML::Node& k = it->first;
      const Item key_item = item(k, map.path, k.Mark());
      if (!k.IsScalar())
        fail(key_item, std::string("keys must be plain names, found ") + type_name(k));
      const std::string key = k.Scalar();
      // A map or list value points at its key's line: block ones begin on the next line.
      const YAML::Node& v = it->second;
      Item value = item(v, child(map.path, key), k.Mark());
      if (v.IsMap() || v.IsSequence()) {
        value.line = key_item.line;
        value.column = key_item.column;
      }
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        const std::string near = closest_match(key, known);
        Item at = value;
        at.line = key_item.line;
        at.column = key_item.column;
        const std::string hint = near.empty() ? "" : " (did you mean '" + near + "'?)";
        if (named)
          fail(at, std::string("no ") + named + " of this config is named '" + key + "'" + hint +
                       "; its " + named + "s: " + join(known));
        fail(at, "unknown key '" + key + "'" + hint + "; known keys here: " + join(known));
      }
      if (out.count(key)) {
        fail(value, "duplicate key '" + key + "' (first at line " +
                        std::to_string(out.at(key).line) + ")");
      }
      out.emplace(key, value);
    }
    return out;
  }

  std::vector<Item> list(const Item& at, bool allow_empty) const {
    if (!at.node.IsSequence())
      fail(at, std::string("expected a list, found ") + type_name(at.node));
    if (at.node.size() == 0 && !allow_empty) fail(at, "the list is empty");
    std::vector<Item> out;
    for (size_t i = 0; i < at.node.size(); ++i) {
      const YAML::Mark fallback = at.line > 0 ? mark_of(at) : YAML::Mark::null_mark();
      out.push_back(item(at.node[i], at.path + "[" + std::to_string(i) + "]", fallback));
    }
    return out;
  }

  // Quoted scalars are strings even when they look like numbers.
  static bool is_string(const YAML::Node& n) {
    return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str";
  }

  std::string scalar(const Item& at, const char* expected) const {
    if (!at.node.IsScalar())
      fail(at, std::string("expected ") + expected + ", found " + type_name(at.node));
    return at.node.Scalar();
  }

  std::string string(const Item& at) const {
    std::string s = scalar(at, "a string");
    if (s.empty()) fail(at, "the string is empty");
    return s;
  }

  int64_t integer(const Item& at, int64_t lo, int64_t hi) const {
    const std::string s = scalar(at, "an integer");
    if (is_string(at.node)) fail(at, "expected an integer, found the string \"" + s + "\"");
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
      fail(at, "expected an integer, found '" + s + "'");
    if (v < lo || v > hi)
      fail(at, std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
    return v;
  }

  uint64_t unsigned_integer(const Item& at) const {
    const std::string s = scalar(at, "a non-negative integer");
    if (is_string(at.node))
      fail(at, "expected a non-negative integer, found the string \"" + s + "\"");
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
      fail(at, "expected a non-negative integer, found '" + s + "'");
    return v;
  }

  // A finite number.
  double number(const Item& at) const {
    const std::string s = scalar(at, "a number");
    if (is_string(at.node)) fail(at, "expected a number, found the string \"" + s + "\"");
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      fail(at, "expected a number, found '" + s + "'");
    return v;
  }

  // lo < v <= hi (exclusive below: tolerances and times must be positive).
  double positive(const Item& at, double hi) const {
    const double v = number(at);
    const std::string s = at.node.Scalar();
    if (!(v > 0) || v > hi) {
      std::ostringstream os;
      os << s << " is out of range (0, " << hi << "]";
      fail(at, os.str());
    }
    return v;
  }

  bool boolean(const Item& at) const {
    const std::string s = scalar(at, "true or false");
    if (!is_string(at.node)) {
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    fail(at,
         std::string("expected true or false, found ") +
             (is_string(at.node) ? "the string '" + s + "' (write it unquoted)" : "'" + s + "'"));
  }

  // One of a few names; the message suggests the closest.
  template <class T>
  T choice(const Item& at, const std::vector<std::pair<std::string, T>>& names,
           const char* what) const {
    const std::string s = scalar(at, what);
    std::vector<std::string> known;
    for (const auto& [name, v] : names) {
      if (name == s) return v;
      known.push_back(name);
    }
    const std::string near = closest_match(s, known);
    fail(at, "unknown " + std::string(what) + " '" + s + "'" +
                 (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                 "; known: " + join(known));
  }

 private:
  static YAML::Mark mark_of(const Item& at) {
    YAML::Mark m;
    m.line = at.line - 1;
    m.column = at.column - 1;
    return m;
  }
  std::string file_;
  std::map<std::string, std::string> inherited_;  // top-level key -> the base file
};

const std::vector<std::pair<std::string, Softmax>> kSoftmaxNames{{"twopass", Softmax::two_pass},
                                                                 {"online", Softmax::online}};
const std::vector<std::pair<std::string, IndexType>> kIndexNames{{"i32", IndexType::i32},
                                                                 {"i64", IndexType::i64}};
const std::vector<std::pair<std::string, ValueType>> kValueNames{
    {"f32", ValueType::f32}, {"bf16", ValueType::bf16}, {"f16", ValueType::f16}};

bool is_pow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

// A space entry as (value, where it came from): list elements carry their own position, range
// values the range's.
struct Raw {
  int64_t value;
  Item at;
};

// Integers of a space key: a list, or {from, to, mul} / {from, to, step}.
// The most values one space key may list or a range may give: a typo like step: 1 over a huge
// span, or a generated list of millions (a review's 1.5 M split values took the duplicate check
// minutes), is named at its key; a real space has a few values a key.
constexpr size_t kMaxValues = 4096;

std::vector<Raw> space_integers(const Reader& r, const Item& at, int64_t lo, int64_t hi) {
  std::vector<Raw> out;
  if (at.node.IsMap()) {
    auto f = r.fields(at, {"from", "to", "mul", "step"});
    for (const char* k : {"from", "to"})
      if (!f.count(k)) r.fail(at, std::string("a range needs '") + k + "' (and 'mul' or 'step')");
    if (f.count("mul") == f.count("step"))
      r.fail(at, "a range needs exactly one of 'mul' (geometric) or 'step' (arithmetic)");
    const int64_t from = r.integer(f.at("from"), lo, hi);
    const int64_t to = r.integer(f.at("to"), lo, hi);
    if (to < from)
      r.fail(f.at("to"),
             "'to' (" + std::to_string(to) + ") is below 'from' (" + std::to_string(from) + ")");
    const bool geometric = f.count("mul") > 0;
    const int64_t by = geometric ? r.integer(f.at("mul"), 2, 1 << 20)
                                 : r.integer(f.at("step"), 1, int64_t{1} << 40);
    if (geometric && from < 1) r.fail(f.at("from"), "a geometric range starts at 1 or more");
    for (int64_t v = from; v <= to; v = geometric ? v * by : v + by) {
      if (out.size() == kMaxValues) r.fail(at, "the range gives more than 4096 values");
      out.push_back({v, at});
    }
    return out;
  }
  if (!at.node.IsSequence())
    r.fail(at, std::string("expected a list or a range {from, to, mul|step}, found ") +
                   type_name(at.node));
  if (at.node.size() > kMaxValues)
    r.fail(at, "a list of " + std::to_string(at.node.size()) + " values: at most " +
                   std::to_string(kMaxValues));
  for (const Item& e : r.list(at, false)) out.push_back({r.integer(e, lo, hi), e});
  return out;
}

template <class T>
void reject_duplicates(const Reader& r, const std::vector<T>& values,
                       const std::vector<Item>& where) {
  std::map<T, size_t> first;  // each value's first index
  for (size_t i = 0; i < values.size(); ++i)
    if (const auto [it, fresh] = first.emplace(values[i], i); !fresh)
      r.fail(where[i], "duplicate value (also at " + where[it->second].path + ")");
}

std::vector<int> int_key(const Reader& r, const Item& at, int64_t lo, int64_t hi,
                         const std::function<std::string(int64_t)>& domain) {
  std::vector<int> out;
  std::vector<Item> where;
  for (const Raw& raw : space_integers(r, at, lo, hi)) {
    const std::string why = domain ? domain(raw.value) : "";
    if (!why.empty()) r.fail(raw.at, std::to_string(raw.value) + ": " + why);
    out.push_back(static_cast<int>(raw.value));
    where.push_back(raw.at);
  }
  reject_duplicates(r, out, where);
  return out;
}

template <class T>
std::vector<T> name_key(const Reader& r, const Item& at,
                        const std::vector<std::pair<std::string, T>>& names, const char* what) {
  std::vector<T> out;
  const auto items = r.list(at, false);
  for (const Item& e : items) out.push_back(r.choice(e, names, what));
  reject_duplicates(r, out, items);
  return out;
}

// The keys `at` gives replace base's; *given (when asked) lists them.
SpaceSpec read_space(const Reader& r, const Item& at, SpaceSpec s = {},
                     std::vector<std::string>* given = nullptr) {
  const auto f = r.fields(at, {"tpr", "fl", "rpb", "vec", "tiles", "epl", "ilp", "minb", "smem", "softmax",
                               "split", "lpt", "prefetch", "bm", "slices", "colblock", "index", "value"});
  if (given)
    for (const auto& kv : f) given->push_back(kv.first);
  auto pow2_up_to = [](int64_t hi) {
    return [hi](int64_t v) {
      return is_pow2(v) && v <= hi ? std::string()
                                   : "must be a power of two in [1, " + std::to_string(hi) + "]";
    };
  };
  if (f.count("tpr")) s.tpr = int_key(r, f.at("tpr"), 1, 1024, pow2_up_to(1024));
  if (f.count("fl")) s.fl = int_key(r, f.at("fl"), 1, 32, pow2_up_to(32));
  if (f.count("rpb")) s.rpb = int_key(r, f.at("rpb"), 1, 1024, {});
  if (f.count("vec"))
    s.vec = int_key(r, f.at("vec"), 1, 8, [](int64_t v) {
      return is_pow2(v) ? std::string() : std::string("vec must be one of 1, 2, 4, 8");
    });
  if (f.count("tiles")) s.tiles = int_key(r, f.at("tiles"), 1, 8, {});
  if (f.count("epl"))
    s.epl = int_key(r, f.at("epl"), 1, 4, [](int64_t v) {
      return v == 1 || v == 2 || v == 4 ? std::string() : std::string("epl must be 1, 2 or 4");
    });
  if (f.count("ilp")) s.ilp = int_key(r, f.at("ilp"), 1, 32, pow2_up_to(32));
  if (f.count("minb")) s.minb = int_key(r, f.at("minb"), 0, 32, {});
  if (f.count("smem")) {
    const Item& sm = f.at("smem");
    s.smem.clear();
    std::vector<Item> where;
    for (const Item& e : r.list(sm, false)) {
      const std::string v = r.scalar(e, "0, 1, 2, 3, true or false");
      if (v == "0" || v == "false")
        s.smem.push_back(0);
      else if (v == "1" || v == "true")
        s.smem.push_back(1);
      else if (v == "2")
        s.smem.push_back(2);
      else if (v == "3")
        s.smem.push_back(3);
      else
        r.fail(e, "expected 0, 1, 2, 3, true or false, found '" + v + "'");
      where.push_back(e);
    }
    reject_duplicates(r, s.smem, where);
  }
  if (f.count("softmax")) s.softmax = name_key(r, f.at("softmax"), kSoftmaxNames, "softmax");
  if (f.count("split")) {
    s.split.clear();
    std::vector<Item> where;
    for (const Raw& raw : space_integers(r, f.at("split"), 0, int64_t{1} << 40)) {
      s.split.push_back(raw.value);
      where.push_back(raw.at);
    }
    reject_duplicates(r, s.split, where);
  }
  if (f.count("lpt")) s.lpt = int_key(r, f.at("lpt"), 0, 1, {});
  if (f.count("prefetch")) s.prefetch = int_key(r, f.at("prefetch"), 0, 1, {});
  if (f.count("bm")) s.bm = int_key(r, f.at("bm"), 0, 1, {});
  if (f.count("slices")) s.slices = int_key(r, f.at("slices"), 1, 8, pow2_up_to(8));
  if (f.count("colblock")) {
    s.colblock.clear();
    std::vector<Item> where;
    for (const Item& e : r.list(f.at("colblock"), false)) {
      const std::string g = r.scalar(
          e, "a column-blocked sweep's geometry, r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma]");
      // Checked with the values it is compiled for (.mma: bfloat16; .l1p<N>: float32); the
      // space prunes it, with the reason, for the other value type.
      std::string why;
      try {
        VariantParams v = VariantParams::parse("colblock." + g + ".i32.f32");
        if (v.cb_mma != 0) v.value = ValueType::bf16;
        why = v.invalid_reason();
        v.value = ValueType::f32;
        if (why.empty() && v.id() != "colblock." + g + ".i32.f32")
          why = "write it as " + v.id().substr(9, v.id().size() - 9 - 8);
      } catch (const std::invalid_argument& ex) {
        why = ex.what();
      }
      if (!why.empty())
        r.fail(e, "colblock '" + g +
                      "': expected r<R>.ps<S>.lag<L>[.pp<N>][.l1p<N>][.mma] (r19.ps16.lag8, "
                      "r19.ps16.lag8.pp1024, r19.ps16.lag8.l1p2, r24.ps16.lag8.mma): " +
                      why);
      s.colblock.push_back(g);
      where.push_back(e);
    }
    reject_duplicates(r, s.colblock, where);
  }
  if (f.count("index")) s.index = name_key(r, f.at("index"), kIndexNames, "index type");
  if (f.count("value")) s.value = name_key(r, f.at("value"), kValueNames, "value type");
  return s;
}

// Letters, digits, '_', '-' and '.', and not only dots: a name becomes a folder or file name
// (runs/<name>), where "." or ".." would be the config's own folder or its parent.
bool is_name(const std::string& s) {
  return s.find_first_not_of('.') != std::string::npos &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
         });
}

std::string resolve(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal().string();
}

// Generator specs pass through (the graphs room checks their keys); file paths are resolved.
std::string resolve_spec(const Reader& r, const Item& at, const std::string& spec,
                         const fs::path& base) {
  static const std::vector<std::string> kinds{"seed", "uniform", "powerlaw", "rmat", "file"};
  const size_t colon = spec.find(':');
  // A word before a colon names a kind, unless the spec is a graph file's path whose name has a
  // colon (`data:v1/graph.mtx`, as graphs::spec_form and the command line read it).
  const bool known_kind =
      colon != std::string::npos &&
      std::find(kinds.begin(), kinds.end(), spec.substr(0, colon)) != kinds.end();
  const bool has_kind =
      colon != std::string::npos && colon > 0 &&
      std::all_of(spec.begin(), spec.begin() + colon,
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) &&
      (known_kind || !graphs::has_graph_file_extension(spec));
  if (has_kind) {
    const std::string kind = spec.substr(0, colon);
    const std::string body = spec.substr(colon + 1);
    if (kind == "file") {
      if (body.empty()) r.fail(at, "'file:' needs a path");
      const std::string path = resolve(base, body);
      if (fs::is_directory(path)) r.fail(at, "graph file '" + path + "' is a folder");
      return "file:" + path;
    }
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
      const std::string near = closest_match(kind, kinds);
      r.fail(at, "unknown graph kind '" + kind + "'" +
                     (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; known: " +
                     join(kinds) + ", or a path ending in .mtx, .mtx.gz, .txt, .txt.gz, .el or .el.gz");
    }
    std::stringstream ss(body);
    std::string part;
    while (std::getline(ss, part, ',')) {
      const size_t eq = part.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
        r.fail(at, "graph spec '" + spec + "': expected key=value, found '" + part + "'");
    }
    // The generator's own checks (keys it knows, values in range), so that a bad spec stops
    // the config here rather than fail after the run measured every other graph.
    try {
      graphs::estimate_edges(spec);
    } catch (const std::exception& e) {
      r.fail(at, e.what());
    }
    return spec;
  }
  if (!graphs::has_graph_file_extension(spec))
    r.fail(at, "graph spec '" + spec +
                   "' is neither a generator (seed:, uniform:, powerlaw:, rmat:) "
                   "nor a path ending in .mtx, .mtx.gz, .txt, .txt.gz, .el or .el.gz (write "
                   "file:PATH for others)");
  const std::string path = resolve(base, spec);
  if (fs::is_directory(path)) r.fail(at, "graph file '" + path + "' is a folder");
  return path;
}

std::vector<int> shape_list(const Reader& r, const Item& at, int64_t hi) {
  std::vector<int> out;
  const auto items = r.list(at, false);
  for (const Item& e : items) out.push_back(static_cast<int>(r.integer(e, 1, hi)));
  reject_duplicates(r, out, items);
  return out;
}

Constraint read_constraint(const Reader& r, const Item& at);

// `space` is the config's, which the graph's own `space` keys replace.
GraphEntry read_graph(const Reader& r, const Item& at, const fs::path& base, const SpaceSpec& space) {
  GraphEntry g;
  g.at = {at.line, at.column};
  const auto f = r.fields(at, {"name", "spec", "feat", "heads", "value", "space", "constraints"});
  for (const char* k : {"name", "spec", "feat"})
    if (!f.count(k)) r.fail(at, std::string("missing required key '") + k + "'");
  g.name = r.string(f.at("name"));
  if (!is_name(g.name))
    r.fail(f.at("name"), "graph names use only letters, digits, '_', '-' and '.' (not only dots)");
  // Spaces around the spec are no part of it: read as the command line reads a spec.
  g.spec_text = graphs::spec_form(r.string(f.at("spec"))).spec;
  g.spec = resolve_spec(r, f.at("spec"), g.spec_text, base);
  g.feat = shape_list(r, f.at("feat"), 1 << 16);
  if (f.count("heads")) g.heads = shape_list(r, f.at("heads"), 64);
  if (f.count("value")) g.value = name_key(r, f.at("value"), kValueNames, "value type");
  if (f.count("space")) g.space = read_space(r, f.at("space"), space, &g.space_keys);
  if (f.count("constraints")) {
    const Item& c = f.at("constraints");
    g.constraints_at = {c.line, c.column};
    g.constraints.emplace();
    for (const Item& e : r.list(c, true)) g.constraints->push_back(read_constraint(r, e));
  }
  return g;
}

Constraint read_constraint(const Reader& r, const Item& at) {
  Constraint c;
  c.text = r.scalar(at, "an expression string");
  c.at = {at.line, at.column};
  // The expression's columns count from the text; a quoted scalar starts one later.
  const int offset = at.column + (at.node.Tag() == "!" ? 1 : 0);
  try {
    c.expr = Expr::parse(c.text);
  } catch (const ExprError& e) {
    throw ConfigError(r.file(), at.path, at.line,
                      e.column() > 0 ? offset + e.column() - 1 : at.column,
                      std::string("constraint does not parse: ") + e.what());
  }
  for (const auto& [name, col] : c.expr.identifier_uses()) {
    if (std::find(kConstraintVariables.begin(), kConstraintVariables.end(), name) !=
        kConstraintVariables.end())
      continue;
    const std::string near = closest_match(name, kConstraintVariables);
    throw ConfigError(r.file(), at.path, at.line, offset + col - 1,
                      "constraint '" + c.text + "' reads unknown variable '" + name + "'" +
                          (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                          "; known: " + join(kConstraintVariables));
  }
  return c;
}

std::vector<VariantParams> read_test_variants(const Reader& r, const Item& at, bool fault) {
  std::vector<VariantParams> out;
  for (const Item& e : r.list(at, true)) {
    const std::string id = r.string(e);
    VariantParams p;
    try {
      p = VariantParams::parse(id);
    } catch (const std::invalid_argument& ex) {
      r.fail(e, ex.what());
    }
    const std::string why = p.invalid_reason();
    if (!why.empty()) r.fail(e, "variant '" + id + "' is invalid: " + why);
    if (fault && p.fault == 0)
      r.fail(e, "variant '" + id + "' has no fault part (.fault1 or .fault2)");
    if (!fault && p.delay_ns == 0) r.fail(e, "variant '" + id + "' has no delay part (.delayN)");
    out.push_back(p);
  }
  return out;
}

// "base" is read (and dropped) before the rest: with_base.
const std::vector<std::string> kTopKeys{
    "base",     "name",        "arch",   "allow_other_arch", "output",
    "graphs",   "graph_space", "space",  "constraints",      "baselines",
    "strategy", "timing",      "verify", "counters",         "test_only"};

Config read_config(const Reader& r, const YAML::Node& root, const std::string& source) {
  Config c;
  c.source = source;
  std::error_code ec;
  fs::path base = fs::path(source).parent_path();
  base = fs::absolute(base.empty() ? fs::path(".") : base, ec).lexically_normal();
  // "a/b/" normalises with an empty last element; drop it so joins stay clean.
  if (!base.empty() && !base.has_filename()) base = base.parent_path();
  c.base_dir = base.string();

  const Item top = r.item(root, "", YAML::Mark());
  if (!root.IsMap())
    r.fail(top, std::string("the config must be a map of keys, found ") + type_name(root));
  const auto f = r.fields(top, kTopKeys);
  for (const char* k : {"arch", "graphs", "space"}) {
    if (!f.count(k)) {
      Item at = top;
      at.path = k;
      r.fail(at, std::string("missing required key '") + k + "'");
    }
  }

  c.name = f.count("name") ? r.string(f.at("name")) : fs::path(source).stem().string();
  if (!is_name(c.name)) {
    Item at = f.count("name") ? f.at("name") : top;
    at.path = "name";
    r.fail(at, "the run name '" + c.name +
                   "' may use only letters, digits, '_', '-' and '.' (not only dots)");
  }

  c.arch = r.string(f.at("arch"));
  // A target NVRTC compiles for: anything else would fail every compile, far from this key.
  if (const std::string why = NvrtcCompiler::arch_problem(c.arch); !why.empty())
    r.fail(f.at("arch"), why);
  if (f.count("allow_other_arch")) c.allow_other_arch = r.boolean(f.at("allow_other_arch"));

  c.output_text = f.count("output") ? r.string(f.at("output")) : "runs/" + c.name;
  c.output = resolve(base, c.output_text);

  // The space first: a graph's own space keys replace its keys.
  c.space_at = {f.at("space").line, f.at("space").column};
  c.space = read_space(r, f.at("space"));

  std::set<std::string> names;
  // Each space is bounded per problem (space.cpp), the problems here: `feat` and `heads` lists
  // multiply, and 12,800 problems (a review's config) take `tuner list` hours and a tune days.
  constexpr size_t kMaxProblems = 4096;
  size_t problems = 0;
  for (const Item& e : r.list(f.at("graphs"), false)) {
    GraphEntry g = read_graph(r, e, base, c.space);
    if (!names.insert(g.name).second) r.fail(e, "duplicate graph name '" + g.name + "'");
    problems += g.feat.size() * g.heads.size();
    if (problems > kMaxProblems)
      r.fail(e, "the graphs up to '" + g.name + "' make " + std::to_string(problems) +
                    " problems (each graph's feat x heads), more than " +
                    std::to_string(kMaxProblems) +
                    ": each is tuned whole; give fewer feat or heads values, or split the config");
    c.graphs.push_back(std::move(g));
  }
  // `graph_space`: by graph name, space keys that replace that graph's (its own `space` over the
  // config's), as if its entry gave them; for a config whose graphs come whole from its base.
  if (f.count("graph_space")) {
    std::vector<std::string> known;
    for (const GraphEntry& g : c.graphs) known.push_back(g.name);
    for (const auto& [name, at] : r.fields(f.at("graph_space"), known, "graph")) {
      GraphEntry& g = *std::find_if(c.graphs.begin(), c.graphs.end(),
                                    [&name = name](const GraphEntry& e) { return e.name == name; });
      std::vector<std::string> given;
      g.space = read_space(r, at, g.space.value_or(c.space), &given);
      for (const std::string& k : given)
        if (std::find(g.space_keys.begin(), g.space_keys.end(), k) == g.space_keys.end())
          g.space_keys.push_back(k);
    }
  }

  if (f.count("constraints")) {
    const Item& at = f.at("constraints");
    c.constraints_at = {at.line, at.column};
    for (const Item& e : r.list(at, true)) c.constraints.push_back(read_constraint(r, e));
  }

  if (f.count("baselines")) {
    c.baselines.clear();
    const std::vector<std::pair<std::string, Family>> kinds{{"seed", Family::seed},
                                                            {"cusparse", Family::cusparse}};
    const auto items = r.list(f.at("baselines"), true);
    for (const Item& e : items) c.baselines.push_back(r.choice(e, kinds, "baseline"));
    reject_duplicates(r, c.baselines, items);
  }

  if (f.count("strategy")) {
    const Item& at = f.at("strategy");
    const auto s = r.fields(at, {"kind", "budget", "seed", "eta", "cutoff"});
    if (s.count("kind"))
      c.strategy.kind = r.choice(s.at("kind"),
                                 std::vector<std::pair<std::string, StrategyKind>>{
                                     {"exhaustive", StrategyKind::exhaustive},
                                     {"random", StrategyKind::random},
                                     {"halving", StrategyKind::halving}},
                                 "strategy");
    if (s.count("budget"))
      c.strategy.budget = static_cast<int>(r.integer(s.at("budget"), 0, 1 << 24));
    if (s.count("seed")) c.strategy.seed = r.unsigned_integer(s.at("seed"));
    if (s.count("eta")) c.strategy.eta = static_cast<int>(r.integer(s.at("eta"), 2, 64));
    if (s.count("cutoff")) {
      const Item& cut = s.at("cutoff");
      // One message for the whole range: 0 is not "off" here (leave the key out for that).
      c.strategy.cutoff = r.number(cut);
      if (!(c.strategy.cutoff >= 1.5 && c.strategy.cutoff <= 1000))
        r.fail(cut,
               r.scalar(cut, "a number") +
                   " is out of range [1.5, 1000] (times the screening's best so far: under 1.5 "
                   "would cut variants within its noise); leave the key out to screen every "
                   "variant to the end");
      if (c.strategy.kind != StrategyKind::halving)
        r.fail(cut, "cutoff cuts short the halving strategy's screening; the " +
                        std::string(to_string(c.strategy.kind)) + " strategy has none");
    }
    if (c.strategy.kind == StrategyKind::random && c.strategy.budget <= 0) {
      Item where = s.count("budget") ? s.at("budget") : at;
      where.path = "strategy.budget";
      r.fail(where, "the random strategy needs budget > 0 (variants sampled per problem)");
    }
  }

  if (f.count("timing")) {
    const auto t =
        r.fields(f.at("timing"), {"cache", "warmup", "max_rel_noise", "min_samples", "max_samples",
                                  "max_seconds", "graph_replay", "overlap_previous", "timeout_seconds"});
    auto& T = c.timing;
    if (t.count("cache"))
      T.cache = r.choice(t.at("cache"),
                         std::vector<std::pair<std::string, CacheMode>>{{"cold", CacheMode::cold},
                                                                        {"warm", CacheMode::warm}},
                         "cache mode");
    if (t.count("warmup")) T.warmup = static_cast<int>(r.integer(t.at("warmup"), 0, 10000));
    if (t.count("max_rel_noise")) T.max_rel_noise = r.positive(t.at("max_rel_noise"), 1.0);
    if (t.count("min_samples"))
      T.min_samples = static_cast<int>(r.integer(t.at("min_samples"), 1, 1000000));
    if (t.count("max_samples"))
      T.max_samples = static_cast<int>(r.integer(t.at("max_samples"), 1, 1000000));
    if (t.count("max_seconds")) T.max_seconds = r.positive(t.at("max_seconds"), 3600);
    if (t.count("graph_replay")) T.graph_replay = r.boolean(t.at("graph_replay"));
    if (t.count("overlap_previous")) {
      T.overlap_previous = r.boolean(t.at("overlap_previous"));
      if (T.overlap_previous && !T.graph_replay)
        r.fail(t.at("overlap_previous"),
               "overlap_previous needs graph_replay: true (a single launch has no previous kernel to overlap)");
    }
    if (t.count("timeout_seconds")) T.timeout_seconds = r.positive(t.at("timeout_seconds"), 86400);
    if (T.max_samples < T.min_samples) {
      const Item& at = t.count("max_samples") ? t.at("max_samples") : t.at("min_samples");
      r.fail(at, "max_samples (" + std::to_string(T.max_samples) + ") is below min_samples (" +
                     std::to_string(T.min_samples) + ")");
    }
  }

  if (f.count("verify")) {
    const auto v = r.fields(f.at("verify"), {"rel_tol_f32", "rel_tol_16bit"});
    if (v.count("rel_tol_f32")) c.verify.rel_tol_f32 = r.positive(v.at("rel_tol_f32"), 1.0);
    if (v.count("rel_tol_16bit")) c.verify.rel_tol_16bit = r.positive(v.at("rel_tol_16bit"), 1.0);
  }

  if (f.count("counters")) c.counters = r.boolean(f.at("counters"));

  if (f.count("test_only")) {
    const auto t = r.fields(f.at("test_only"),
                            {"fault_variants", "delay_variants", "slow_percent", "fail_reprepare"});
    if (t.count("fault_variants"))
      c.test_only.fault_variants = read_test_variants(r, t.at("fault_variants"), true);
    if (t.count("delay_variants"))
      c.test_only.delay_variants = read_test_variants(r, t.at("delay_variants"), false);
    if (t.count("slow_percent"))
      c.test_only.slow_percent = static_cast<unsigned>(r.integer(t.at("slow_percent"), 0, 100));
    if (t.count("fail_reprepare")) c.test_only.fail_reprepare = r.boolean(t.at("fail_reprepare"));
  }
  return c;
}

template <class T>
nlohmann::json names(const std::vector<T>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& x : v) out.push_back(to_string(x));
  return out;
}

nlohmann::json ids(const std::vector<VariantParams>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : v) out.push_back(p.id());
  return out;
}

}  // namespace

namespace {

// One document's root; ConfigError on a syntax error or a second document.
YAML::Node load_root(const std::string& yaml_text, const std::string& source_name) {
  YAML::Node root;
  try {
    // One document: a second one (after `---`) would otherwise be dropped without a word.
    const std::vector<YAML::Node> docs = YAML::LoadAll(yaml_text);
    if (docs.size() > 1)
      throw ConfigError(source_name, "", docs[1].Mark().is_null() ? 0 : docs[1].Mark().line + 1, 0,
                        "a second YAML document: a config is one document (" +
                            std::to_string(docs.size()) + " found)");
    if (!docs.empty()) root = docs.front();
  } catch (const YAML::ParserException& e) {
    throw ConfigError(source_name, "", e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + e.msg);
  }
  return root;
}

// f(), with a yaml-cpp exception it lets through reported as a config error of `file`.
template <class F>
auto yaml_errors_named(const std::string& file, F&& f) {
  try {
    return f();
  } catch (const YAML::Exception& e) {
    // The checks should leave nothing to yaml-cpp; still report it as a config error.
    throw ConfigError(file, "", e.mark.is_null() ? 0 : e.mark.line + 1,
                      e.mark.is_null() ? 0 : e.mark.column + 1, e.msg);
  }
}

// A config file's text (refused: a folder, what is not a regular file (a FIFO with no writer
// would block the command: input_file_problem), an unreadable file, one over 16 MiB).
std::string read_text(const std::string& path) {
  if (std::filesystem::is_directory(path))
    throw ConfigError(path, "", 0, 0, "is a folder, not a config file");
  if (const std::string why = input_file_problem(path, "config file"); !why.empty())
    throw ConfigError(path, "", 0, 0, why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "", 0, 0, "cannot open the config file");
  // At most 16 MiB (a config is a few KB): a wrong file (a log, a data file) is named, not read
  // until memory runs out; a device such as /dev/zero was refused above.
  constexpr size_t kMaxBytes = size_t{16} << 20;
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxBytes)
      throw ConfigError(path, "", 0, 0, "is larger than 16 MiB: not a config file");
  }
  return text;
}

// `base: FILE` (a config in the same folder): the base's top-level keys, each replaced whole by
// this config's own (a map is not merged key by key: `strategy: {...}` here is the whole
// strategy). The base must be a valid config by itself and name no base of its own. Errors
// under a key taken from the base name the base file.
YAML::Node with_base(Reader& r, const YAML::Node& root, const std::string& source_name) {
  if (!root.IsMap() || !root["base"]) return root;
  const Item top = r.item(root, "", YAML::Mark());
  const auto f = r.fields(top, kTopKeys);  // unknown and duplicate keys, with this file's lines
  const Item& at = f.at("base");
  const std::string name = r.string(at);
  if (name.find('/') != std::string::npos || name == "." || name == "..")
    r.fail(at, "base names a config file in this config's folder (a file name, not a path): '" +
                   name + "'");
  const fs::path dir = fs::path(source_name).parent_path();
  const fs::path path = dir / name;
  std::error_code ec;
  if (fs::equivalent(path, fs::path(source_name), ec))
    r.fail(at, "a config cannot be its own base");
  if (const std::string why = input_file_problem(path.string(), "base config", Folders::refused);
      !why.empty())
    r.fail(at, why);
  const std::string text = read_text(path.string());
  const YAML::Node base = load_root(text, path.string());
  if (base.IsMap() && base["base"])
    r.fail(at, "base config '" + path.string() + "' names a base of its own; one level only");
  // Valid by itself, its errors naming its own file (its YAML parsed once, above).
  yaml_errors_named(path.string(),
                    [&] { return read_config(Reader(path.string()), base, path.string()); });
  // force_insert keeps each key node, and with it the line later errors report (a key made
  // anew by operator[] has none). The base's name and output are not taken: a run of this
  // config must not write into the base's store.
  YAML::Node merged(YAML::NodeType::Map);
  for (auto it = root.begin(); it != root.end(); ++it) {
    const YAML::Node& k = it->first;
    if (k.Scalar() != "base") merged.force_insert(k, it->second);
  }
  for (auto it = base.begin(); it != base.end(); ++it) {
    const YAML::Node& k = it->first;
    const std::string key = k.Scalar();
    if (f.count(key) || key == "name" || key == "output") continue;
    merged.force_insert(k, it->second);
    r.inherit(key, path.string());
  }
  return merged;
}

}  // namespace

Config parse_config(const std::string& yaml_text, const std::string& source_name) {
  Reader r(source_name);
  return yaml_errors_named(source_name, [&] {
    const YAML::Node root = with_base(r, load_root(yaml_text, source_name), source_name);
    Config c = read_config(r, root, source_name);
    c.inherited = r.inherited();
    return c;
  });
}

std::string file_of(const Config& c, const std::string& key_path) {
  return file_of_path(c.inherited, key_path, c.source);
}

std::string store_path(const Config& c) {
  return c.output + "/results.sqlite";
}

Config load_config(const std::string& path) {
  return parse_config(read_text(path), path);
}

namespace {

// every_key: lpt and prefetch even at their defaults (a graph's own space lists the keys it
// was given, whatever their values).
nlohmann::json space_json(const SpaceSpec& s, bool every_key = false) {
  nlohmann::json space{{"tpr", s.tpr},           {"fl", s.fl},
                       {"rpb", s.rpb},           {"vec", s.vec},
                       {"tiles", s.tiles},       {"epl", s.epl},           {"ilp", s.ilp},
                       {"minb", s.minb},
                       {"smem", s.smem},         {"softmax", names(s.softmax)},
                       {"split", s.split},       {"index", names(s.index)},
                       {"value", names(s.value)}};
  // Only when set, so that configs without the key keep their hash (recorded runs match them).
  if (every_key || s.lpt != std::vector<int>{0}) space["lpt"] = s.lpt;
  if (every_key || s.prefetch != std::vector<int>{0}) space["prefetch"] = s.prefetch;
  if (every_key || s.bm != std::vector<int>{0}) space["bm"] = s.bm;
  if (every_key || s.slices != std::vector<int>{1}) space["slices"] = s.slices;
  if (every_key || !s.colblock.empty()) space["colblock"] = s.colblock;
  return space;
}

nlohmann::json constraints_json(const std::vector<Constraint>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& k : list) out.push_back(k.text);
  return out;
}

}  // namespace

const SpaceSpec& space_of(const Config& c, const GraphEntry& g) { return g.space ? *g.space : c.space; }

const std::vector<Constraint>& constraints_of(const Config& c, const GraphEntry& g) {
  return g.constraints ? *g.constraints : c.constraints;
}

nlohmann::json to_json(const Config& c) {
  using nlohmann::json;
  json graphs = json::array();
  for (const auto& g : c.graphs) {
    json e{{"name", g.name},
           {"spec", g.spec},
           {"spec_text", g.spec_text},
           {"feat", g.feat},
           {"heads", g.heads}};
    if (!g.value.empty()) e["value"] = names(g.value);
    // Only when given (configs without them keep their hash), and only the keys given.
    if (g.space) {
      const json all = space_json(*g.space, true);
      json own = json::object();
      for (const auto& k : g.space_keys) own[k] = all.at(k);
      e["space"] = own;
    }
    if (g.constraints) e["constraints"] = constraints_json(*g.constraints);
    graphs.push_back(e);
  }
  const json space = space_json(c.space);
  const json constraints = constraints_json(c.constraints);
  const auto& t = c.timing;
  json out{
      {"source", c.source},
      {"base_dir", c.base_dir},
      {"name", c.name},
      {"arch", c.arch},
      {"allow_other_arch", c.allow_other_arch},
      {"output", c.output},
      {"output_text", c.output_text},
      {"graphs", graphs},
      {"space", space},
      {"constraints", constraints},
      {"baselines", names(c.baselines)},
      {"strategy",
       {{"kind", to_string(c.strategy.kind)},
        {"budget", c.strategy.budget},
        {"seed", c.strategy.seed},
        {"eta", c.strategy.eta}}},
      {"timing",
       {{"cache", to_string(t.cache)},
        {"warmup", t.warmup},
        {"max_rel_noise", t.max_rel_noise},
        {"min_samples", t.min_samples},
        {"max_samples", t.max_samples},
        {"max_seconds", t.max_seconds},
        {"graph_replay", t.graph_replay},
        {"timeout_seconds", t.timeout_seconds}}},
      {"verify",
       {{"rel_tol_f32", c.verify.rel_tol_f32}, {"rel_tol_16bit", c.verify.rel_tol_16bit}}},
      {"counters", c.counters},
      {"test_only",
       {{"fault_variants", ids(c.test_only.fault_variants)},
        {"delay_variants", ids(c.test_only.delay_variants)},
        {"slow_percent", c.test_only.slow_percent}}},
  };
  // Only when on: configs without them keep their hash and their problems' fingerprints.
  if (t.overlap_previous) out["timing"]["overlap_previous"] = true;
  if (c.strategy.cutoff > 0) out["strategy"]["cutoff"] = c.strategy.cutoff;
  // Not test_only.fail_reprepare: a simulated loss of the GPU changes no measurement, and the
  // run it stopped resumes without it (scripts/check-lost-gpu.sh), so it is neither part of the
  // config's identity nor kept with a run whose later invocations may not have had it.
  return out;
}

std::string config_hash(const Config& c) {
  nlohmann::json j = to_json(c);
  j.erase("source");
  j.erase("base_dir");
  j.erase("output");
  j.erase("output_text");  // where the results go is not what is measured
  for (auto& g : j["graphs"]) g.erase("spec");
  // nlohmann::json keeps object keys sorted, so the dump is canonical.
  return fnv1a_hex(j.dump());
}

std::string problem_fingerprint(const nlohmann::json& config, const std::string& graph, int feat, int heads) {
  using nlohmann::json;
  if (!config.is_object() || !config.contains("graphs") || !config["graphs"].is_array()) return "";
  const json* entry = nullptr;
  int index = 0;
  for (const auto& g : config["graphs"]) {
    if (g.is_object() && g.value("name", std::string()) == graph) {
      entry = &g;
      break;
    }
    ++index;
  }
  if (!entry) return "";
  const auto lists = [&](const char* key, int v, std::vector<int> dflt) {
    const std::vector<int> have = entry->contains(key) ? (*entry)[key].get<std::vector<int>>() : dflt;
    return std::find(have.begin(), have.end(), v) != have.end();
  };
  if (!lists("feat", feat, {}) || !lists("heads", heads, {1})) return "";
  json space = config.value("space", json::object());
  if (entry->contains("space"))
    for (const auto& [k, v] : (*entry)["space"].items()) space[k] = v;
  // Keys whose default a config may leave out or write: one form (lpt present, prefetch absent,
  // as in the fingerprints of runs before prefetch existed).
  if (!space.contains("lpt")) space["lpt"] = std::vector<int>{0};
  if (space.contains("prefetch") && space["prefetch"] == json(std::vector<int>{0})) space.erase("prefetch");
  if (space.contains("bm") && space["bm"] == json(std::vector<int>{0})) space.erase("bm");
  if (space.contains("slices") && space["slices"] == json(std::vector<int>{1})) space.erase("slices");
  if (space.contains("colblock") && space["colblock"] == json::array()) space.erase("colblock");
  const json value = entry->contains("value") ? (*entry)["value"] : space.value("value", json::array());
  space.erase("value");  // the problem's own value types below
  const json test_only = config.value("test_only", json::object());
  const json j{{"arch", config.value("arch", std::string())},
               {"graph", entry->value("name", std::string())},
               {"spec", entry->value("spec_text", std::string())},
               {"input_seed", problem_input_seed(index, feat, heads)},
               {"feat", feat},
               {"heads", heads},
               {"value", value},
               {"space", space},
               {"constraints", entry->contains("constraints") ? (*entry)["constraints"]
                                                              : config.value("constraints", json::array())},
               {"baselines", config.value("baselines", json::array())},
               {"strategy", config.value("strategy", json::object())},
               {"timing", config.value("timing", json::object())},
               {"verify", config.value("verify", json::object())},
               {"counters", config.value("counters", true)},
               {"test_only", test_only}};
  return fnv1a_hex(j.dump());
}

}  // namespace csrgat::tuner
