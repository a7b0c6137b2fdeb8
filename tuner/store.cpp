#include "tuner/store.h"

#include "tuner/config.h"
#include "tuner/space.h"

#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

namespace csrgat::tuner {
namespace {

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT, started TEXT, finished TEXT, config_hash TEXT NOT NULL, config_json TEXT,
  gpu_name TEXT, gpu_uuid TEXT NOT NULL, driver TEXT, cuda_runtime TEXT, nvrtc TEXT, arch TEXT,
  commit_id TEXT, host TEXT, device_json TEXT, ceilings_json TEXT, kernels_hash TEXT,
  continued_from INTEGER);
CREATE TABLE IF NOT EXISTS trials (
  run_id INTEGER NOT NULL REFERENCES runs(id), graph TEXT NOT NULL, spec TEXT, feat INTEGER NOT NULL,
  heads INTEGER NOT NULL, variant TEXT NOT NULL, stage INTEGER NOT NULL, status TEXT NOT NULL,
  detail TEXT, rel_error REAL, median_us REAL, q1_us REAL, q3_us REAL, min_us REAL, max_us REAL,
  mean_us REAL, stddev_us REAL, rel_noise REAL, event_median_us REAL, samples INTEGER, timer TEXT,
  throttled INTEGER, registers INTEGER, counters_json TEXT, raw_json TEXT, created TEXT,
  PRIMARY KEY (run_id, graph, feat, heads, variant, stage));
CREATE TABLE IF NOT EXISTS graphs (
  run_id INTEGER NOT NULL, graph TEXT NOT NULL, spec TEXT, features_json TEXT,
  PRIMARY KEY (run_id, graph));
CREATE TABLE IF NOT EXISTS problems (
  run_id INTEGER NOT NULL, graph TEXT NOT NULL, feat INTEGER NOT NULL, heads INTEGER NOT NULL,
  gpu_uuid TEXT, finished TEXT, from_run INTEGER, PRIMARY KEY (run_id, graph, feat, heads));
)sql";

// Columns added to `runs` after stores were first written: (name, type).
const char* const kLaterRunColumns[][2] = {{"kernels_hash", "TEXT"}, {"continued_from", "INTEGER"}};
// Columns added to `problems` later.
const char* const kLaterProblemColumns[][2] = {{"from_run", "INTEGER"}, {"prepare_s", "REAL"}};

struct Stmt {
  sqlite3_stmt* s = nullptr;
  Stmt(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite prepare failed: ") + sqlite3_errmsg(db) + " in: " + sql);
  }
  ~Stmt() { sqlite3_finalize(s); }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.c_str(), -1, SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    sqlite3_bind_int64(s, i, v);
    return *this;
  }
  Stmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(s, i, v);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("sqlite step failed: ") + sqlite3_errmsg(sqlite3_db_handle(s)));
  }
  std::string text(int c) const {
    const unsigned char* t = sqlite3_column_text(s, c);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int64_t i64(int c) const { return sqlite3_column_int64(s, c); }
  double dbl(int c) const { return sqlite3_column_double(s, c); }
  bool is_null(int c) const { return sqlite3_column_type(s, c) == SQLITE_NULL; }
};

nlohmann::json parse_or_null(const std::string& s) {
  if (s.empty()) return nullptr;
  return nlohmann::json::parse(s, nullptr, false);
}

// A JSON column of a row (`where`: "run 3: runs.config_json"), NULL or empty read as null. A
// damaged value is named rather than carried on as a discarded value, which nlohmann writes as
// the text <discarded> (an export that is not JSON) and reads as neither object nor null.
nlohmann::json parse_column(const std::string& s, const std::string& path,
                            const std::string& where) {
  nlohmann::json j = parse_or_null(s);
  if (j.is_discarded()) {
    std::string head = s.substr(0, 40);
    for (char& c : head)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    throw std::runtime_error(
        "results store '" + path + "': " + where + " is not JSON (it begins '" + head +
        (s.size() > head.size() ? "...'" : "'") + "); repair or delete that row");
  }
  return j;
}

const char* kRunCols =
    "id, name, started, finished, config_hash, config_json, gpu_name, gpu_uuid, driver, "
    "cuda_runtime, nvrtc, arch, commit_id, host, device_json, ceilings_json";

// The trials columns after run_id, in table order: what put_trial writes, trials() reads
// and copy_problems copies.
const char* kTrialCols =
    "graph, spec, feat, heads, variant, stage, status, detail, rel_error, median_us, q1_us, q3_us, "
    "min_us, max_us, mean_us, stddev_us, rel_noise, event_median_us, samples, timer, throttled, "
    "registers, counters_json, raw_json, created";

// path: the store's, for the message when a JSON column is damaged.
RunInfo read_run(const Stmt& q, const std::string& path) {
  RunInfo r;
  r.id = q.i64(0);
  const auto json_col = [&](int c, const char* column) {
    return parse_column(q.text(c), path, "run " + std::to_string(r.id) + ": runs." + column);
  };
  r.name = q.text(1);
  r.started = q.text(2);
  r.finished = q.text(3);
  r.config_hash = q.text(4);
  r.config = json_col(5, "config_json");
  r.gpu_name = q.text(6);
  r.gpu_uuid = q.text(7);
  r.driver = q.text(8);
  r.cuda_runtime = q.text(9);
  r.nvrtc = q.text(10);
  r.arch = q.text(11);
  r.commit = q.text(12);
  r.host = q.text(13);
  r.device = json_col(14, "device_json");
  r.ceilings = json_col(15, "ceilings_json");
  r.kernels_hash = q.text(16);
  r.continued_from = q.i64(17);
  return r;
}

// Names of a table's columns ({} when there is no such table).
std::vector<std::string> columns_of(sqlite3* db, const std::string& table) {
  std::vector<std::string> out;
  Stmt q(db, ("PRAGMA table_info(" + table + ")").c_str());
  while (q.step()) out.push_back(q.text(1));
  return out;
}

// Whether `n` bytes at `data` begin as an SQLite database file does.
bool sqlite_header(const void* data, size_t n) {
  static const char kMagic[] = "SQLite format 3";  // 16 bytes with its terminating zero
  return n >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

// The whole of a gzip-compressed store, inflated into memory that SQLite will own (it frees it
// when the connection closes). Throws naming the file on a read error, a truncated stream or
// content that is not an SQLite database.
struct Inflated {
  unsigned char* data = nullptr;
  sqlite3_int64 size = 0;
};

// Checks that db holds an SQLite database (else frees it and throws naming path, `not_store`
// saying why) and marks it a rollback-journal one. A store left in WAL mode has bytes 18-19 (file
// format read/write versions) 2, and an in-memory database cannot use a WAL; its content is whole
// after a checkpoint, which `gzip` of a closed store always follows.
Inflated as_rollback_store(Inflated db, const std::string& path, const char* not_store) {
  if (db.size < 100 || !sqlite_header(db.data, static_cast<size_t>(db.size))) {
    sqlite3_free(db.data);
    throw std::runtime_error("'" + path + "' " + not_store);
  }
  if (db.data[18] == 2) db.data[18] = 1;
  if (db.data[19] == 2) db.data[19] = 1;
  return db;
}

Inflated inflate_store(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open compressed results store '" + path + "'");
  Inflated out;
  sqlite3_int64 cap = 0;
  const auto fail = [&](const std::string& why) {
    gzclose(f);
    sqlite3_free(out.data);
    throw std::runtime_error("compressed results store '" + path + "': " + why);
  };
  while (true) {
    if (out.size == cap) {
      cap = cap ? cap * 2 : (sqlite3_int64{1} << 22);
      auto* grown = static_cast<unsigned char*>(sqlite3_realloc64(out.data, static_cast<sqlite3_uint64>(cap)));
      if (!grown) fail("out of memory inflating it");
      out.data = grown;
    }
    const unsigned want = static_cast<unsigned>(std::min<sqlite3_int64>(cap - out.size, 1 << 30));
    const int got = gzread(f, out.data + out.size, want);
    if (got < 0) {
      int err = 0;
      const char* msg = gzerror(f, &err);
      fail(std::string("cannot inflate it: ") + (msg ? msg : "zlib error"));
    }
    if (got == 0) break;
    out.size += got;
  }
  // gzread stops quietly at a truncated stream; gzclose_r reports it.
  const int closed = gzclose(f);
  if (closed != Z_OK) {
    sqlite3_free(out.data);
    throw std::runtime_error("compressed results store '" + path + "' is truncated or corrupt (zlib " +
                             std::to_string(closed) + ")");
  }
  return as_rollback_store(out, path, "inflates to something that is not an SQLite results store");
}

// A plain store file of a folder, read whole into memory that SQLite will own (so that reading it
// writes nothing beside it). One with a WAL beside it is refused: its content is not all in the
// file (a run still writing to it, or killed).
Inflated read_store_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)
    throw std::runtime_error("'" + path +
                             "' has a WAL beside it (a run still open on it?): close "
                             "it, or check it in with `sqlite3 " +
                             path + " 'PRAGMA wal_checkpoint'`");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open results store '" + path + "'");
  Inflated out;
  out.size = static_cast<sqlite3_int64>(in.tellg());
  out.data = static_cast<unsigned char*>(
      sqlite3_malloc64(static_cast<sqlite3_uint64>(std::max<sqlite3_int64>(out.size, 1))));
  if (!out.data) throw std::runtime_error("out of memory reading results store '" + path + "'");
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(out.data), out.size)) {
    sqlite3_free(out.data);
    throw std::runtime_error("cannot read results store '" + path + "'");
  }
  return as_rollback_store(out, path, "is not an SQLite results store");
}

bool is_gzip_path(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

// Whether a folder entry is named as a store (*.sqlite, *.sqlite.gz; hidden files are not).
bool is_store_name(const std::string& name) {
  return !name.empty() && name.front() != '.' &&
         (name.ends_with(".sqlite") || name.ends_with(".sqlite.gz"));
}

// The stores of a folder store, by file name: every *.sqlite and *.sqlite.gz in it (nothing
// below it; a WAL or journal beside a .sqlite is that store's, not one of its own). Throws
// naming an entry so named that is no regular file (a dangling link, a folder, a FIFO).
std::vector<std::filesystem::path> folder_parts(const std::string& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_store_name(it->path().filename().string())) continue;
    // A part named as a store that cannot be read as one is named, never skipped: its runs
    // would be missing from every report without a word.
    std::error_code ec2;
    if (it->is_regular_file(ec2)) {
      out.push_back(it->path());
    } else if (it->is_symlink(ec2) && !std::filesystem::exists(it->path(), ec2)) {
      throw std::runtime_error("'" + it->path().string() + "' is a symbolic link to '" +
                               std::filesystem::read_symlink(it->path(), ec2).string() +
                               "', which does not exist: restore its target or remove the link");
    } else {
      throw std::runtime_error("'" + it->path().string() +
                               "' is named as a store but is not a regular file (a folder, a FIFO "
                               "or a device); a folder of stores holds store files only");
    }
  }
  if (ec) throw std::runtime_error("cannot list the folder store '" + dir + "': " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

// Deserializes an inflated store into schema `schema` of db (which takes the memory, freed or
// not); throws naming `path`.
void deserialize_into(sqlite3* db, const char* schema, Inflated data, const std::string& path) {
  const int rc = sqlite3_deserialize(db, schema, data.data, data.size, data.size,
                                     SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK)
    throw std::runtime_error("cannot read results store '" + path + "': " + sqlite3_errmsg(db));
}

}  // namespace

std::string resolve_store_path(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const auto run_store = std::filesystem::path(path) / "results.sqlite";
    if (std::filesystem::is_regular_file(run_store, ec)) {
      std::vector<std::string> others;
      for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end;
           it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (is_store_name(name) && name != "results.sqlite") others.push_back(name);
      }
      std::sort(others.begin(), others.end());
      if (!others.empty()) {
        std::string list;
        for (size_t i = 0; i < others.size() && i < 5; ++i) list += (i ? ", " : "") + others[i];
        if (others.size() > 5) list += " and " + std::to_string(others.size() - 5) + " more";
        throw std::runtime_error(
            "'" + path + "' holds both results.sqlite (a run folder's store) and other stores (" +
            list +
            "): it is not clear whether to read the run folder or the folder of stores; give '" +
            run_store.string() +
            "' for the run, or move results.sqlite out of the folder of stores");
      }
      return run_store.string();
    }
  }
  return path;
}

std::filesystem::path folder_beside(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(path).lexically_normal();  // "runs/." -> "runs/"
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
    p = p.parent_path();  // "runs/" -> "runs"
  if (p.empty() || p.filename() == "." || p.filename() == "..") {
    std::error_code ec;
    const fs::path abs = fs::absolute(p.empty() ? fs::path(".") : p, ec);
    if (!ec) {
      p = abs.lexically_normal();
      if (!p.has_filename() && p != p.root_path()) p = p.parent_path();
    }
  }
  return p.parent_path();
}

bool looks_like_export(const std::string& path) {
  if (path.ends_with(".json")) return true;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c) && std::isspace(static_cast<unsigned char>(c))) {
  }
  return c == '{';
}

std::string input_file_problem(const std::string& path, const std::string& what, Folders folders) {
  const std::string named = what + " '" + path + "'";
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) {
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec)))
      return named + " is a symbolic link to '" + std::filesystem::read_symlink(path, ec).string() +
             "', which does not exist";
    return named + " does not exist";
  }
  if (std::filesystem::is_directory(st))
    return folders == Folders::accepted ? "" : named + " is a folder, not a file";
  if (!std::filesystem::is_regular_file(st))
    return named + " is not a regular file (" +
           (std::filesystem::is_fifo(st) ? "a FIFO or pipe, such as <(...)"
                                         : "a device or socket") +
           "): it is read more than once, and a FIFO would block the command; save it to a file "
           "and give that";
  if (!std::ifstream(path, std::ios::binary))
    return named + " cannot be opened: " + std::strerror(errno);
  return "";
}

StoreArg parse_store_arg(const std::string& arg, std::optional<int64_t> run_flag) {
  StoreArg out{arg, std::nullopt};
  std::error_code ec;
  // "file.sqlite:12": the suffix names a run unless the whole text is itself a file.
  if (const auto colon = arg.rfind(':');
      colon != std::string::npos && !std::filesystem::exists(arg, ec)) {
    const std::string tail = arg.substr(colon + 1);
    if (!tail.empty() && tail.find_first_not_of("0123456789") == std::string::npos) {
      out.path = arg.substr(0, colon);
      if (tail.size() > 18)
        throw std::runtime_error("'" + arg + "': run id '" + tail + "' is out of range");
      out.run_id = std::stoll(tail);
      if (*out.run_id <= 0)
        throw std::runtime_error(
            "'" + arg + "' names run " + tail +
            ", but runs are numbered from 1 (leave the suffix out for the latest run)");
    }
  }
  if (run_flag) {
    if (*run_flag <= 0)
      throw std::runtime_error("--run " + std::to_string(*run_flag) +
                               ": runs are numbered from 1 (leave --run out for the latest run)");
    if (out.run_id && *out.run_id != *run_flag)
      throw std::runtime_error("'" + arg + "' names run " + std::to_string(*out.run_id) +
                               " but --run names run " + std::to_string(*run_flag) +
                               ": give the run once");
    out.run_id = run_flag;
  }
  return out;
}

void refuse_to_overwrite_store(const std::string& path, const std::string& what) {
  // Only a regular file can be a store (and reading a pipe would wait for its writer).
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // nothing there (or nothing readable to lose)
  char head[16] = {};
  in.read(head, sizeof head);
  const size_t got = static_cast<size_t>(in.gcount());
  const bool gz_store = got >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
                        static_cast<unsigned char>(head[1]) == 0x8b && path.size() > 10 &&
                        path.compare(path.size() - 10, 10, ".sqlite.gz") == 0;
  if (sqlite_header(head, got) || gz_store)
    throw std::runtime_error("refusing to write " + what + " to '" + path +
                             "': it is a results store, and writing would destroy its runs; give "
                             "another output path");
}

std::string now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

Store::Store(const std::string& path, bool read_only) : path_(path) {
  // Opening a FIFO waits for a writer that may never come; a device is no store either.
  if (std::error_code ec; std::filesystem::exists(path, ec))
    if (const std::string why = input_file_problem(path, "results store"); !why.empty())
      throw std::runtime_error(why);
  if (std::filesystem::is_directory(path)) {
    open_folder(read_only);
    return;
  }
  if (is_gzip_path(path)) {
    // Recorded runs are kept compressed (tests/data/recorded/*.sqlite.gz): read them in memory.
    if (!read_only)
      throw std::runtime_error("results store '" + path +
                               "' is compressed, so it can only be read; to add runs to it, gunzip "
                               "it first");
    open_in_memory();
    try {
      deserialize_into(db_, "main", inflate_store(path), path);
    } catch (...) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw;
    }
    adopt_schema(false);
    return;
  }
  // Serialized: tuner run's worker threads write through this one connection.
  const int flags = SQLITE_OPEN_FULLMUTEX |
                    (read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open results store '" + path + "': " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);
  if (!read_only) {
    // WAL + synchronous=NORMAL: a committed trial survives kill -9 of the tuner.
    exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
  }
  adopt_schema(!read_only);
}

// The store's format, in SQLite's user_version: 0 before it was kept (every store up to the
// thirty-ninth session, read as 1), 1 since. A store of a later format is refused by name
// rather than read as if this tuner knew it.
constexpr int64_t kStoreFormat = 1;

// The store format of schema `schema` of db; throws when it is later than kStoreFormat.
static int64_t readable_format(sqlite3* db, const std::string& schema) {
  int64_t format = 0;
  {
    Stmt q(db, ("PRAGMA " + schema + ".user_version").c_str());
    if (q.step()) format = q.i64(0);
  }
  if (format > kStoreFormat)
    throw std::runtime_error("written in store format " + std::to_string(format) +
                             " by a later tuner; this one reads up to format " +
                             std::to_string(kStoreFormat));
  return format;
}

void Store::open_in_memory() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open an in-memory database for '" + path_ + "'");
  }
}

void Store::open_folder(bool read_only) {
  // "runs/" and "runs" name one store: its name (the header's source) is the folder's.
  while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  if (!read_only)
    throw std::runtime_error("results store '" + path_ +
                             "' is a folder of stores, so it can only be read; a run writes its "
                             "own results.sqlite (scripts/append_run.py adds it to the folder)");
  const auto parts = folder_parts(path_);
  if (parts.empty())
    throw std::runtime_error(
        "results store '" + path_ +
        "' is a folder with no store in it (no results.sqlite, *.sqlite or *.sqlite.gz)");
  open_in_memory();
  try {
    // This tuner's schema, then each part's rows by the columns both have (a part written before
    // a column was kept reads it as NULL, as that store would on its own).
    adopt_schema_unchecked(true);
    std::map<int64_t, std::string> run_part;  // run id -> the part holding it
    for (const auto& part : parts) {
      const std::string file = part.string();
      exec("ATTACH ':memory:' AS part");
      try {
        deserialize_into(db_, "part",
                         is_gzip_path(file) ? inflate_store(file) : read_store_file(file), file);
        readable_format(db_, "part");
        {
          Stmt q(db_, "SELECT id FROM part.runs");
          while (q.step()) {
            const auto [it, fresh] = run_part.emplace(q.i64(0), file);
            if (!fresh)
              throw std::runtime_error("run " + std::to_string(q.i64(0)) + " is also in '" +
                                       it->second + "': a run belongs to one store of the folder");
          }
        }
        for (const char* table : {"runs", "trials", "graphs", "problems"}) {
          const auto mine = columns_of(db_, table);
          std::string cols;
          Stmt q(db_, (std::string("PRAGMA part.table_info(") + table + ")").c_str());
          while (q.step())
            if (std::find(mine.begin(), mine.end(), q.text(1)) != mine.end())
              cols += (cols.empty() ? "" : ", ") + q.text(1);
          if (cols.empty()) {
            if (std::string(table) == "problems") continue;  // stores from before it was kept
            throw std::runtime_error(std::string("has no table '") + table + "'");
          }
          exec(std::string("INSERT INTO main.") + table + " (" + cols + ") SELECT " + cols +
               " FROM part." + table);
        }
      } catch (const std::runtime_error& e) {
        sqlite3_exec(db_, "DETACH part", nullptr, nullptr, nullptr);
        throw std::runtime_error("'" + file + "': " + e.what());
      }
      exec("DETACH part");
    }
    exec("PRAGMA query_only = 1");
  } catch (const std::runtime_error& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("results store '" + path_ + "': " + e.what());
  }
  adopt_schema(false);
}

void Store::adopt_schema(bool writable) {
  try {
    adopt_schema_unchecked(writable);
  } catch (const std::runtime_error& e) {
    // A file that is not a store fails here first: name it.
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("results store '" + path_ + "': " + e.what());
  }
}

void Store::adopt_schema_unchecked(bool writable) {
  const int64_t format = readable_format(db_, "main");
  if (writable && format < kStoreFormat)
    exec("PRAGMA user_version = " + std::to_string(kStoreFormat));
  if (writable) {
    // One transaction, so that two tuners opening an old store at once upgrade it once.
    in_transaction([&] {
      exec(kSchema);
      const auto add_missing = [&](const char* table, const auto& later) {
        const auto have = columns_of(db_, table);
        for (const auto& [name, type] : later)
          if (std::find(have.begin(), have.end(), name) == have.end())
            exec(std::string("ALTER TABLE ") + table + " ADD COLUMN " + name + " " + type);
      };
      add_missing("runs", kLaterRunColumns);
      add_missing("problems", kLaterProblemColumns);
    });
  }
  const auto have = columns_of(db_, "runs");
  // Read-only, a database without the tables (an empty file, another program's database) would
  // fail at its first query with that query's SQL: say what it is instead.
  if (have.empty() || columns_of(db_, "trials").empty())
    throw std::runtime_error(
        "not a results store: it has no runs or trials table (an empty file, or another "
        "program's SQLite database)");
  run_cols_ = kRunCols;
  for (const auto& [name, type] : kLaterRunColumns)
    run_cols_ += std::string(", ") + (std::find(have.begin(), have.end(), name) != have.end() ? name : "NULL");
  const auto problem_cols = columns_of(db_, "problems");
  has_problems_table_ = !problem_cols.empty();
  const auto col_or_null = [&](const char* name) {
    return std::find(problem_cols.begin(), problem_cols.end(), name) != problem_cols.end() ? std::string(name)
                                                                                          : std::string("NULL");
  };
  from_run_col_ = col_or_null("from_run");
  prepare_col_ = col_or_null("prepare_s");
}

Store::~Store() { sqlite3_close(db_); }

void Store::rollback() noexcept { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

void Store::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("sqlite: " + msg + " in '" + path_ + "'");
  }
}

std::string Store::select_runs(const std::string& tail) const {
  return "SELECT " + run_cols_ + " FROM runs " + tail;
}

namespace {
// Runs still open: unfinished, and not continued by another run (such a run is done with:
// neither resumed nor continued again).
const char* kOpenRun =
    "(finished IS NULL OR finished = '') AND "
    "id NOT IN (SELECT continued_from FROM runs WHERE continued_from IS NOT NULL)";
}  // namespace

std::optional<RunInfo> Store::resumable_run(const RunInfo& want) const {
  Stmt q(db_, select_runs("WHERE config_hash = ? AND gpu_uuid = ? AND IFNULL(kernels_hash, '') = ? AND " +
                          std::string(kOpenRun) + " ORDER BY id DESC LIMIT 1").c_str());
  q.bind(1, want.config_hash).bind(2, want.gpu_uuid).bind(3, want.kernels_hash);
  if (!q.step()) return std::nullopt;
  RunInfo r = read_run(q, path_);
  // The same GPU since upgraded (driver, CUDA runtime, NVRTC): its measurements would not
  // compare with the rerun's, so the rerun is a new run rather than a resumption. (The kernels
  // hash, which covers the sources and NVRTC's options, the query matched.)
  if (r.gpu_name != want.gpu_name || r.driver != want.driver || r.cuda_runtime != want.cuda_runtime ||
      r.nvrtc != want.nvrtc || r.arch != want.arch)
    return std::nullopt;
  return r;
}

RunInfo Store::open_run(const RunInfo& want) {
  if (auto r = resumable_run(want)) return *r;
  return insert_run(want, 0);
}

RunInfo Store::import_run(const RunInfo& r) {
  const RunInfo made = insert_run(r, r.continued_from);
  int64_t id = made.id;
  if (r.id > 0 && r.id != made.id && !run(r.id)) {
    Stmt up(db_, "UPDATE runs SET id = ? WHERE id = ?");
    up.bind(1, r.id).bind(2, made.id);
    up.step();
    id = r.id;
  }
  if (!r.finished.empty()) {
    Stmt fin(db_, "UPDATE runs SET finished = ? WHERE id = ?");
    fin.bind(1, r.finished).bind(2, id);
    fin.step();
  }
  return *run(id);
}

RunInfo Store::insert_run(const RunInfo& want, int64_t continued_from) {
  Stmt ins(db_,
           "INSERT INTO runs (name, started, config_hash, config_json, gpu_name, gpu_uuid, driver, "
           "cuda_runtime, nvrtc, arch, commit_id, host, device_json, ceilings_json, kernels_hash, "
           "continued_from) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  ins.bind(1, want.name).bind(2, want.started.empty() ? now_iso8601() : want.started)
      .bind(3, want.config_hash).bind(4, want.config.dump()).bind(5, want.gpu_name)
      .bind(6, want.gpu_uuid).bind(7, want.driver).bind(8, want.cuda_runtime).bind(9, want.nvrtc)
      .bind(10, want.arch).bind(11, want.commit).bind(12, want.host).bind(13, want.device.dump())
      .bind(14, want.ceilings.dump()).bind(15, want.kernels_hash);
  if (continued_from > 0) ins.bind(16, continued_from);
  ins.step();
  return *run(sqlite3_last_insert_rowid(db_));
}

namespace {
// Why a run stopped on another GPU cannot be continued by `want`, or "" when it can.
std::string incompatibility(const RunInfo& from, const RunInfo& want) {
  const std::string which = "run " + std::to_string(from.id) + " (GPU " + from.gpu_uuid + ")";
  const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
      {"GPU model", {from.gpu_name, want.gpu_name}},
      {"driver", {from.driver, want.driver}},
      {"CUDA runtime", {from.cuda_runtime, want.cuda_runtime}},
      {"NVRTC", {from.nvrtc, want.nvrtc}},
      {"target", {from.arch, want.arch}},
  };
  for (const auto& [what, pair] : fields)
    if (pair.first != pair.second)
      return which + " ran with " + what + " '" + pair.first + "', this GPU has '" + pair.second +
             "'; its measurements would not compare with this GPU's";
  if (from.kernels_hash.empty())
    return which + " records no kernel sources hash (written before it was kept), so its kernels "
                   "cannot be shown to be these";
  if (from.kernels_hash != want.kernels_hash)
    return which + " measured other kernel sources (" + from.kernels_hash + ", these are " +
           want.kernels_hash + ")";
  return "";
}
}  // namespace

std::optional<RunInfo> Store::continuable_run(const RunInfo& want, std::string* why_not) const {
  // The newest compatible one: a newer stray run (another machine's, older kernels) does not
  // hide it. When none is, the newest one's reason.
  Stmt q(db_, select_runs("WHERE config_hash = ? AND gpu_uuid <> ? AND " + std::string(kOpenRun) +
                          " ORDER BY id DESC").c_str());
  q.bind(1, want.config_hash).bind(2, want.gpu_uuid);
  std::string first_reason;
  while (q.step()) {
    const RunInfo from = read_run(q, path_);
    const std::string why = incompatibility(from, want);
    if (why.empty()) return from;
    if (first_reason.empty()) first_reason = why;
  }
  if (why_not)
    *why_not = first_reason.empty() ? "'" + path_ + "' holds no unfinished run of config " +
                                          want.config_hash + " begun on another GPU"
                                    : "'" + path_ + "': " + first_reason;
  return std::nullopt;
}

RunInfo Store::continue_run(const RunInfo& want, int64_t from, const GraphSources& sources) {
  return in_transaction([&] {
    const RunInfo made = insert_run(want, from);
    std::vector<std::pair<int64_t, FinishedProblem>> take;
    for (auto& f : finished_problems(from))
      if (same_graph_source(*this, from, f, sources)) take.emplace_back(from, std::move(f));
    copy_problems(made.id, take);
    return made;
  });
}

std::vector<RunInfo> Store::compatible_runs(const RunInfo& want) const {
  std::vector<RunInfo> out;
  Stmt q(db_, select_runs("WHERE id <> ? ORDER BY id DESC").c_str());
  q.bind(1, want.id);
  while (q.step()) {
    RunInfo r = read_run(q, path_);
    if (incompatibility(r, want).empty()) out.push_back(std::move(r));
  }
  return out;
}

std::vector<std::string> changed_graphs(const Store& store, int64_t run_id, const GraphSources& sources,
                                        std::vector<std::string>* unknown) {
  std::vector<std::string> out;
  for (const auto& [graph, now] : sources) {
    if (!store.graph_features(run_id, graph).is_object()) continue;  // not measured (yet)
    const std::string stored = stored_graph_source(store, run_id, graph);
    if (stored.empty() || now.empty()) {
      if (unknown) unknown->push_back(graph);
    } else if (stored != now) {
      out.push_back(graph);
    }
  }
  return out;
}

std::string runs_text(const std::vector<int64_t>& ids) {
  std::string out = ids.size() > 1 ? "runs" : "run";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : " ") + std::to_string(ids[i]);
  return out;
}

std::string stored_graph_source(const Store& store, int64_t run_id, const std::string& graph) {
  const nlohmann::json features = store.graph_features(run_id, graph);
  return features.is_object() ? features.value("source_hash", std::string()) : std::string();
}

bool same_graph_source(const Store& store, int64_t from, const FinishedProblem& f, const GraphSources& sources) {
  const auto it = sources.find(f.graph);
  return it != sources.end() && !it->second.empty() && stored_graph_source(store, from, f.graph) == it->second;
}

std::vector<std::pair<int64_t, FinishedProblem>> reusable_problems(const Store& store, const RunInfo& run,
                                                                   const nlohmann::json& config_json,
                                                                   const GraphSources& sources) {
  std::set<std::string> have;
  const auto key = [](const FinishedProblem& f) { return problem_key(f.graph, f.feat, f.heads); };
  for (const auto& f : store.finished_problems(run.id)) have.insert(key(f));
  std::vector<std::pair<int64_t, FinishedProblem>> take;
  for (const RunInfo& other : store.compatible_runs(run)) {
    for (const auto& f : store.finished_problems(other.id)) {
      if (have.count(key(f))) continue;
      const std::string mine = problem_fingerprint(config_json, f.graph, f.feat, f.heads);
      if (mine.empty() || mine != problem_fingerprint(other.config, f.graph, f.feat, f.heads)) continue;
      if (!same_graph_source(store, other.id, f, sources)) continue;
      have.insert(key(f));
      take.emplace_back(other.id, f);
    }
  }
  return take;
}

void Store::reuse_problems(int64_t to, const std::vector<std::pair<int64_t, FinishedProblem>>& take) {
  in_transaction([&] { copy_problems(to, take); });
}

void Store::copy_problems(int64_t to, const std::vector<std::pair<int64_t, FinishedProblem>>& take) {
  for (const auto& [from, f] : take) {
    const auto run_problem = [&](Stmt& q, int64_t run) {
      q.bind(1, run).bind(2, f.graph).bind(3, f.feat).bind(4, f.heads);
      q.step();
    };
    forget_trials(to, f.graph, f.feat, f.heads);
    Stmt trials(db_, (std::string("INSERT INTO trials (run_id, ") + kTrialCols + ") SELECT " +
                      std::to_string(to) + ", " + kTrialCols +
                      " FROM trials WHERE run_id = ? AND graph = ? AND feat = ? AND heads = ?").c_str());
    run_problem(trials, from);
    Stmt graph(db_, "INSERT OR IGNORE INTO graphs (run_id, graph, spec, features_json) SELECT ?, graph, "
                    "spec, features_json FROM graphs WHERE run_id = ? AND graph = ?");
    graph.bind(1, to).bind(2, from).bind(3, f.graph);
    graph.step();
    Stmt mark(db_, "INSERT OR REPLACE INTO problems (run_id, graph, feat, heads, gpu_uuid, finished, from_run, "
                   "prepare_s) VALUES (?,?,?,?,?,?,?,?)");
    mark.bind(1, to).bind(2, f.graph).bind(3, f.feat).bind(4, f.heads).bind(5, f.gpu_uuid)
        .bind(6, f.finished).bind(7, f.from_run > 0 ? f.from_run : from);
    if (f.prepare_s >= 0) mark.bind(8, f.prepare_s);
    mark.step();
  }
}

void Store::finish_problem(int64_t run_id, const std::string& graph, int feat, int heads,
                           const std::string& gpu_uuid, double prepare_s) {
  Stmt q(db_, "INSERT OR REPLACE INTO problems (run_id, graph, feat, heads, gpu_uuid, finished, prepare_s) "
              "VALUES (?,?,?,?,?,?,?)");
  q.bind(1, run_id).bind(2, graph).bind(3, feat).bind(4, heads).bind(5, gpu_uuid).bind(6, now_iso8601());
  if (prepare_s >= 0) q.bind(7, prepare_s);
  q.step();
}

std::vector<FinishedProblem> Store::finished_problems(int64_t run_id) const {
  std::vector<FinishedProblem> out;
  if (!has_problems_table_) return out;  // a read-only store from before finish marks
  Stmt q(db_, ("SELECT graph, feat, heads, gpu_uuid, finished, " + from_run_col_ + ", " + prepare_col_ +
               " FROM problems WHERE run_id = ? ORDER BY graph, feat, heads").c_str());
  q.bind(1, run_id);
  while (q.step()) {
    out.push_back({q.text(0), static_cast<int>(q.i64(1)), static_cast<int>(q.i64(2)), q.text(3), q.text(4), q.i64(5),
                   q.is_null(6) ? -1.0 : q.dbl(6)});
    const FinishedProblem& f = out.back();
    if (f.feat <= 0 || f.heads <= 0 || f.graph.empty())
      throw std::runtime_error(
          "results store '" + path_ + "': run " + std::to_string(run_id) +
          ", finish mark (graph '" + f.graph + "', F=" + std::to_string(f.feat) +
          ", H=" + std::to_string(f.heads) +
          "): not one a tuner writes (F and H must be positive); repair or delete that row");
  }
  return out;
}

void Store::import_problem(int64_t run_id, const FinishedProblem& f) {
  Stmt q(
      db_,
      "INSERT OR REPLACE INTO problems (run_id, graph, feat, heads, gpu_uuid, finished, from_run, "
      "prepare_s) VALUES (?,?,?,?,?,?,?,?)");
  q.bind(1, run_id)
      .bind(2, f.graph)
      .bind(3, f.feat)
      .bind(4, f.heads)
      .bind(5, f.gpu_uuid)
      .bind(6, f.finished);
  if (f.from_run > 0) q.bind(7, f.from_run);
  if (f.prepare_s >= 0) q.bind(8, f.prepare_s);
  q.step();
}

std::vector<int64_t> Store::runs_taken_from(int64_t run_id) const {
  // The runs it continues, one after another (C continues B, which continued A): their
  // problems came over by --continue.
  std::set<int64_t> chain;
  for (auto r = run(run_id); r && r->continued_from > 0 && chain.insert(r->continued_from).second;)
    r = run(r->continued_from);
  std::set<int64_t> took;
  for (const auto& f : finished_problems(run_id))
    if (f.from_run > 0 && !chain.count(f.from_run)) took.insert(f.from_run);
  return {took.begin(), took.end()};
}

bool Store::drop_empty_run(int64_t run_id) {
  Stmt q(db_, "DELETE FROM runs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM trials WHERE run_id = ?1) "
              "AND NOT EXISTS (SELECT 1 FROM graphs WHERE run_id = ?1) "
              "AND NOT EXISTS (SELECT 1 FROM problems WHERE run_id = ?1)");
  q.bind(1, run_id);
  q.step();
  return sqlite3_changes(db_) > 0;
}

void Store::forget_trials(int64_t run_id, const std::string& graph, int feat, int heads) {
  Stmt q(db_, "DELETE FROM trials WHERE run_id = ? AND graph = ? AND feat = ? AND heads = ?");
  q.bind(1, run_id).bind(2, graph).bind(3, feat).bind(4, heads);
  q.step();
}

void Store::forget_graph(int64_t run_id, const std::string& graph) {
  in_transaction([&] {
    for (const char* table : {"trials", "problems", "graphs"}) {
      Stmt q(db_, (std::string("DELETE FROM ") + table + " WHERE run_id = ? AND graph = ?").c_str());
      q.bind(1, run_id).bind(2, graph);
      q.step();
    }
  });
}

void Store::finish_run(int64_t run_id) {
  Stmt q(db_, "UPDATE runs SET finished = ? WHERE id = ?");
  q.bind(1, now_iso8601()).bind(2, run_id);
  q.step();
}

std::vector<RunInfo> Store::runs() const {
  std::vector<RunInfo> out;
  Stmt q(db_, select_runs("ORDER BY id").c_str());
  while (q.step()) out.push_back(read_run(q, path_));
  return out;
}

std::optional<RunInfo> Store::run(int64_t id) const {
  Stmt q(db_, select_runs("WHERE id = ?").c_str());
  q.bind(1, id);
  if (q.step()) return read_run(q, path_);
  return std::nullopt;
}

std::optional<RunInfo> Store::latest_run() const {
  Stmt q(db_, select_runs("ORDER BY id DESC LIMIT 1").c_str());
  if (q.step()) return read_run(q, path_);
  return std::nullopt;
}

bool Store::has_trial(int64_t run_id, const std::string& graph, int feat, int heads,
                      const std::string& variant, int stage) const {
  Stmt q(db_, "SELECT 1 FROM trials WHERE run_id=? AND graph=? AND feat=? AND heads=? AND variant=? AND stage=?");
  q.bind(1, run_id).bind(2, graph).bind(3, feat).bind(4, heads).bind(5, variant).bind(6, stage);
  return q.step();
}

void Store::put_trial(const TrialRecord& t) {
  Stmt q(db_,
         (std::string("INSERT OR REPLACE INTO trials (run_id, ") + kTrialCols +
          ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)").c_str());
  q.bind(1, t.run_id).bind(2, t.graph).bind(3, t.spec).bind(4, t.feat).bind(5, t.heads)
      .bind(6, t.variant).bind(7, t.stage).bind(8, t.status).bind(9, t.detail).bind(10, t.rel_error)
      .bind(11, t.median_us).bind(12, t.q1_us).bind(13, t.q3_us).bind(14, t.min_us)
      .bind(15, t.max_us).bind(16, t.mean_us).bind(17, t.stddev_us).bind(18, t.rel_noise)
      .bind(19, t.event_median_us).bind(20, t.samples).bind(21, t.timer)
      .bind(22, t.throttled ? 1 : 0).bind(23, t.registers).bind(24, t.counters.dump())
      .bind(25, t.raw.dump()).bind(26, t.created.empty() ? now_iso8601() : t.created);
  q.step();
}

std::vector<TrialRecord> Store::trials(int64_t run_id) const {
  std::vector<TrialRecord> out;
  Stmt q(db_,
         (std::string("SELECT run_id, ") + kTrialCols +
          " FROM trials WHERE run_id = ? ORDER BY graph, feat, heads, stage, variant").c_str());
  q.bind(1, run_id);
  while (q.step()) {
    TrialRecord t;
    t.run_id = q.i64(0);
    t.graph = q.text(1);
    t.spec = q.text(2);
    t.feat = static_cast<int>(q.i64(3));
    t.heads = static_cast<int>(q.i64(4));
    t.variant = q.text(5);
    t.stage = static_cast<int>(q.i64(6));
    t.status = q.text(7);
    t.detail = q.text(8);
    t.rel_error = q.dbl(9);
    t.median_us = q.dbl(10);
    t.q1_us = q.dbl(11);
    t.q3_us = q.dbl(12);
    t.min_us = q.dbl(13);
    t.max_us = q.dbl(14);
    t.mean_us = q.dbl(15);
    t.stddev_us = q.dbl(16);
    t.rel_noise = q.dbl(17);
    t.event_median_us = q.dbl(18);
    t.samples = static_cast<int>(q.i64(19));
    t.timer = q.text(20);
    t.throttled = q.i64(21) != 0;
    t.registers = static_cast<int>(q.i64(22));
    // A row no tuner writes (F or H not positive, a negative stage: a hand edit, a damaged
    // file) would otherwise select into rules for shapes that cannot exist.
    const std::string which = "run " + std::to_string(run_id) + ", trial (graph '" + t.graph +
                              "', F=" + std::to_string(t.feat) + ", H=" + std::to_string(t.heads) +
                              ", variant '" + t.variant + "', stage " + std::to_string(t.stage) +
                              ")";
    if (t.feat <= 0 || t.heads <= 0 || t.stage < 0 || t.graph.empty() || t.variant.empty())
      throw std::runtime_error(
          "results store '" + path_ + "': " + which +
          ": not a trial a tuner writes (F and H must be positive, the stage 0 or more, "
          "the graph and variant named); repair or delete that row");
    t.counters = parse_column(q.text(23), path_, which + ": trials.counters_json");
    t.raw = parse_column(q.text(24), path_, which + ": trials.raw_json");
    t.created = q.text(25);
    out.push_back(std::move(t));
  }
  return out;
}

void Store::put_graph(int64_t run_id, const std::string& graph, const std::string& spec,
                      const nlohmann::json& features) {
  Stmt q(db_, "INSERT OR REPLACE INTO graphs (run_id, graph, spec, features_json) VALUES (?,?,?,?)");
  q.bind(1, run_id).bind(2, graph).bind(3, spec).bind(4, features.dump());
  q.step();
}

nlohmann::json Store::graph_features(int64_t run_id, const std::string& graph) const {
  Stmt q(db_, "SELECT features_json FROM graphs WHERE run_id = ? AND graph = ?");
  q.bind(1, run_id).bind(2, graph);
  if (!q.step()) return nullptr;
  nlohmann::json f = parse_or_null(q.text(0));
  // A damaged row is named, not read as a graph never measured (which would drop the graph
  // from the selection without a word).
  if (f.is_discarded())
    throw std::runtime_error("results store '" + path_ + "': run " + std::to_string(run_id) +
                             ", graph '" + graph +
                             "': its features (graphs.features_json) are not JSON");
  return f;
}

std::vector<Store::GraphRow> Store::graphs(int64_t run_id) const {
  std::vector<GraphRow> out;
  Stmt q(db_, "SELECT graph, spec, features_json FROM graphs WHERE run_id = ? ORDER BY graph");
  q.bind(1, run_id);
  while (q.step())
    out.push_back({q.text(0), q.text(1),
                   parse_column(q.text(2), path_,
                                "run " + std::to_string(run_id) + ", graph '" + q.text(0) +
                                    "': graphs.features_json")});
  return out;
}

nlohmann::json to_json(const TrialRecord& t) {
  return {{"run_id", t.run_id}, {"graph", t.graph}, {"spec", t.spec}, {"feat", t.feat},
          {"heads", t.heads}, {"variant", t.variant}, {"stage", t.stage}, {"status", t.status},
          {"detail", t.detail}, {"rel_error", t.rel_error}, {"median_us", t.median_us},
          {"q1_us", t.q1_us}, {"q3_us", t.q3_us}, {"min_us", t.min_us}, {"max_us", t.max_us},
          {"mean_us", t.mean_us}, {"stddev_us", t.stddev_us}, {"rel_noise", t.rel_noise},
          {"event_median_us", t.event_median_us}, {"samples", t.samples}, {"timer", t.timer},
          {"throttled", t.throttled}, {"registers", t.registers}, {"counters", t.counters},
          {"raw", t.raw}, {"created", t.created}};
}

double json_number(const nlohmann::json& j, const char* key, double missing) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : missing;
}

double json_rel_noise(const nlohmann::json& j, const char* key) {
  return j.contains(key) ? json_number(j, key, INFINITY) : 0.0;
}

TrialRecord trial_from_json(const nlohmann::json& j) {
  TrialRecord t;
  t.run_id = j.value("run_id", int64_t{0});
  t.graph = j.value("graph", "");
  t.spec = j.value("spec", "");
  t.feat = j.value("feat", 0);
  t.heads = j.value("heads", 1);
  t.variant = j.value("variant", "");
  t.stage = j.value("stage", 0);
  t.status = j.value("status", "");
  t.detail = j.value("detail", "");
  t.rel_error = json_number(j, "rel_error", 0.0);
  t.median_us = json_number(j, "median_us", 0.0);
  t.q1_us = json_number(j, "q1_us", 0.0);
  t.q3_us = json_number(j, "q3_us", 0.0);
  t.min_us = json_number(j, "min_us", 0.0);
  t.max_us = json_number(j, "max_us", 0.0);
  t.mean_us = json_number(j, "mean_us", 0.0);
  t.stddev_us = json_number(j, "stddev_us", 0.0);
  t.rel_noise = json_rel_noise(j, "rel_noise");
  t.event_median_us = json_number(j, "event_median_us", 0.0);
  t.samples = j.value("samples", 0);
  t.timer = j.value("timer", "");
  t.throttled = j.value("throttled", false);
  t.registers = j.value("registers", -1);
  if (j.contains("counters")) t.counters = j["counters"];
  if (j.contains("raw")) t.raw = j["raw"];
  t.created = j.value("created", "");
  return t;
}

nlohmann::json to_json(const RunInfo& r) {
  return {{"id", r.id}, {"name", r.name}, {"started", r.started}, {"finished", r.finished},
          {"config_hash", r.config_hash}, {"gpu_name", r.gpu_name}, {"gpu_uuid", r.gpu_uuid},
          {"driver", r.driver}, {"cuda_runtime", r.cuda_runtime}, {"nvrtc", r.nvrtc},
          {"arch", r.arch}, {"commit", r.commit}, {"host", r.host}, {"config", r.config},
          {"kernels_hash", r.kernels_hash}, {"continued_from", r.continued_from},
          {"device", r.device}, {"ceilings", r.ceilings}};
}

}  // namespace csrgat::tuner
