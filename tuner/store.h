// The results store: one SQLite file per output folder holding every run's metadata and every
// trial with its status, timing summary, counters and raw samples. Writes are transactions
// committed per trial, so a killed run loses nothing it finished, and a restarted run finds
// its trials by (run, graph, F, H, variant, stage) and skips them. A run resumes on the GPU it
// started on (by UUID) with the same kernel sources. On another GPU of the same model, driver,
// CUDA runtime, NVRTC and kernel sources a stopped run can be continued (`tuner run --continue`):
// the continuing run copies the problems the first GPU finished and measures the rest from
// the start, so each problem's variants are still compared on one chip. The stopped run keeps
// all it measured. A new run may also take whole problems that an earlier run of the same kind
// finished with the same problem fingerprint (`tuner run --reuse`: a config that changes the
// search of a few graphs re-measures only those).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace csrgat::tuner {

struct RunInfo {
  int64_t id = 0;
  std::string name, started, finished, config_hash, gpu_name, gpu_uuid, driver, cuda_runtime,
      nvrtc, arch, commit, host;
  // Hash of the kernel sources, NVRTC version and options (kernel_sources_hash); "" in stores
  // written before it was kept: such a run is never resumed or continued.
  std::string kernels_hash;
  int64_t continued_from = 0;  // the stopped run this one continues on another GPU, or 0
  nlohmann::json config, device, ceilings;
};

// Each graph's source hash by name (graphs::graph_source_hash of its spec), as a run sees its
// graphs now. A run stores it with each graph it measures (graphs.features_json "source_hash"),
// and a finished problem moves into another run (--continue, --reuse) only when the two
// agree: a graph file replaced under the same path, or a changed generator, is measured again.
using GraphSources = std::map<std::string, std::string>;

// One (graph, F, H) whose every trial of a run is stored, and the GPU that measured it.
struct FinishedProblem {
  std::string graph;
  int feat = 0, heads = 1;
  std::string gpu_uuid, finished;
  // The run that measured it when this run took it from another (--continue, --reuse), else 0.
  int64_t from_run = 0;
  // Seconds the worker took to build it before its trials (graph, inputs, float64 reference,
  // device copy; the `prepare` request), -1 when not recorded (stores from before the
  // fifteenth session). A problem taken from another run keeps that run's figure.
  double prepare_s = -1;
};

struct TrialRecord {
  int64_t run_id = 0;
  std::string graph, spec;
  int feat = 0, heads = 1;
  std::string variant;     // VariantParams id
  int stage = 0;           // 0 screening, 1 full measurement, 2 interleaved final
  std::string status;      // TrialStatus text
  std::string detail;
  double rel_error = 0;
  // GPU time summary (microseconds) from `timer`; event time includes the launch.
  double median_us = 0, q1_us = 0, q3_us = 0, min_us = 0, max_us = 0, mean_us = 0, stddev_us = 0;
  double rel_noise = 0, event_median_us = 0;
  int samples = 0;
  std::string timer;
  bool throttled = false;
  int registers = -1;
  nlohmann::json counters;   // metric -> value, or {"unavailable": reason}
  nlohmann::json raw;        // raw samples etc.
  std::string created;
};

class Store {
 public:
  // path: an SQLite file (created when writable), a gzip-compressed one named *.sqlite.gz, or a
  // folder of such stores (each *.sqlite and *.sqlite.gz directly in it, a run in one of them
  // only: how recorded runs are kept, tests/data/recorded/h200/), read as one store. The last
  // two are read in memory, read-only.
  explicit Store(const std::string& path, bool read_only = false);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The unfinished run of want's config on want's GPU with its kernel sources, not continued
  // elsewhere: the run a rerun resumes.
  std::optional<RunInfo> resumable_run(const RunInfo& want) const;
  // That run, or a new one (recording want.continued_from, which tuner run leaves 0).
  RunInfo open_run(const RunInfo& want);
  // A recorded run as it was (an export read back): its id (when > 0 and free), start, finish
  // and the run it continued (kept as recorded although that run is not in this store, so that
  // an export read back and exported again is the same); never resumed.
  RunInfo import_run(const RunInfo& r);
  // The newest unfinished run of want's config begun on another GPU that a run on want's GPU
  // may continue, or nullopt with *why_not saying why none may (no such run, or the first
  // field that differs: GPU model, driver, CUDA runtime, NVRTC, target, kernel sources).
  std::optional<RunInfo> continuable_run(const RunInfo& want, std::string* why_not) const;
  // Starts want's run as the continuation of run `from`: in one transaction it copies the
  // problems `from` finished (their trials, graphs and finish marks). Part-done problems are
  // not copied; they stay in `from`, which is left as it was.
  // Only problems whose graph `from` measured from the sources given are carried (see
  // GraphSources); the others are measured again.
  RunInfo continue_run(const RunInfo& want, int64_t from, const GraphSources& sources);
  // Runs other than want's own whose finished problems a run like want may take: the same GPU
  // model, driver, CUDA runtime, NVRTC, target and kernel sources (any GPU of that kind),
  // newest first.
  std::vector<RunInfo> compatible_runs(const RunInfo& want) const;
  // Copies into run `to`, in one transaction, each (run, problem) of `take`: the problem's
  // trials, its graph's row and its finish mark, which keeps the GPU that measured it and
  // names the run that did (from_run). Trials `to` holds of such a problem (a part-done one)
  // are replaced.
  void reuse_problems(int64_t to, const std::vector<std::pair<int64_t, FinishedProblem>>& take);
  void finish_run(int64_t run_id);
  // Deletes a run that holds nothing (no trials, graphs or finish marks); false, and nothing
  // deleted, when it holds anything.
  bool drop_empty_run(int64_t run_id);
  // Deletes, in one transaction, what run_id holds of `graph`: its trials, finish marks and
  // graph row (a resumed run whose graph changed under it measures the graph again).
  void forget_graph(int64_t run_id, const std::string& graph);
  // Deletes what run_id holds of one problem's trials (not its graph row, nor a finish mark):
  // a resumed problem that must be measured again on another GPU.
  void forget_trials(int64_t run_id, const std::string& graph, int feat, int heads);
  std::vector<RunInfo> runs() const;
  std::optional<RunInfo> run(int64_t id) const;
  // Latest run (highest id).
  std::optional<RunInfo> latest_run() const;

  bool has_trial(int64_t run_id, const std::string& graph, int feat, int heads,
                 const std::string& variant, int stage) const;
  void put_trial(const TrialRecord& t);  // insert or replace
  std::vector<TrialRecord> trials(int64_t run_id) const;

  // Marks (graph, F, H) of the run as wholly measured, on the GPU with this UUID, built in
  // prepare_s seconds (< 0: not known).
  void finish_problem(int64_t run_id, const std::string& graph, int feat, int heads,
                      const std::string& gpu_uuid, double prepare_s = -1);
  std::vector<FinishedProblem> finished_problems(int64_t run_id) const;
  // A finish mark as recorded (an export read back): its time, GPU, build time and the run it
  // was taken from, none of them stamped afresh.
  void import_problem(int64_t run_id, const FinishedProblem& f);
  // The earlier runs whose finished problems run_id took with --reuse (from_run of its finish
  // marks, besides the runs it continues, directly or through earlier continuations), ascending.
  std::vector<int64_t> runs_taken_from(int64_t run_id) const;

  void put_graph(int64_t run_id, const std::string& graph, const std::string& spec,
                 const nlohmann::json& features);
  nlohmann::json graph_features(int64_t run_id, const std::string& graph) const;
  // Every graph row of a run, by name: what put_graph stored.
  struct GraphRow {
    std::string graph, spec;
    nlohmann::json features;
  };
  std::vector<GraphRow> graphs(int64_t run_id) const;

  // Where its runs come from, for messages and reports: the file it opened, or what an
  // in-memory store was filled from (name_as).
  const std::string& path() const { return path_; }
  void name_as(const std::string& source) { path_ = source; }

 private:
  void exec(const std::string& sql) const;
  void rollback() noexcept;
  // body() between BEGIN IMMEDIATE and COMMIT, rolled back when it throws.
  template <typename Body>
  auto in_transaction(Body body) {
    exec("BEGIN IMMEDIATE");
    try {
      if constexpr (std::is_void_v<decltype(body())>) {
        body();
        exec("COMMIT");
      } else {
        auto result = body();
        exec("COMMIT");
        return result;
      }
    } catch (...) {
      rollback();
      throw;
    }
  }
  // An empty in-memory database as db_ (a compressed store or a folder is read into it).
  void open_in_memory();
  // A folder of stores (one a run, scripts/append_run.py), read as one, in memory.
  void open_folder(bool read_only);
  void adopt_schema(bool writable);
  void adopt_schema_unchecked(bool writable);
  std::string select_runs(const std::string& tail) const;
  RunInfo insert_run(const RunInfo& want, int64_t continued_from);
  // What continue_run and reuse_problems do inside their transaction: each (run, problem) of
  // `take` into run `to` (its trials replacing any `to` has, its graph row, its finish mark).
  void copy_problems(int64_t to, const std::vector<std::pair<int64_t, FinishedProblem>>& take);
  sqlite3* db_ = nullptr;
  std::string path_;
  // The runs columns to read: a store written before kernels_hash and continued_from were kept,
  // opened read-only, reads them as NULL.
  std::string run_cols_;
  bool has_problems_table_ = true;
  std::string from_run_col_ = "from_run";  // "NULL" in a read-only store from before it was kept
  std::string prepare_col_ = "prepare_s";  // likewise
};

// What `tuner run --reuse` takes into `run` (whose config is config_json, to_json of it): each
// problem of that config `run` has not finished that a compatible run (compatible_runs)
// finished with the same problem fingerprint (problem_fingerprint) and from the same graph
// sources (GraphSources), from the newest such run.
std::vector<std::pair<int64_t, FinishedProblem>> reusable_problems(const Store& store, const RunInfo& run,
                                                                   const nlohmann::json& config_json,
                                                                   const GraphSources& sources);
// The graphs run_id measured from another source than `sources` gives them now (stored hash
// present and different, the current one known), and, in *unknown when given, those it
// cannot tell: no hash stored (runs from before hashes were kept) or none now (a file that
// cannot be read). Dropping measurements needs evidence; carrying them (continue_run,
// reusable_problems) needs it too, so an unknown source keeps what a run has and carries
// nothing into another.
std::vector<std::string> changed_graphs(const Store& store, int64_t run_id, const GraphSources& sources,
                                        std::vector<std::string>* unknown = nullptr);
// "run 3" or "runs 3, 5": how the header and the report name the runs a run took problems from.
std::string runs_text(const std::vector<int64_t>& ids);
// The source hash run_id stored with `graph` ("" when it stored none, or no such graph).
std::string stored_graph_source(const Store& store, int64_t run_id, const std::string& graph);
// Whether run `from` stored, with f's graph, the source hash `sources` gives that graph now
// (a run that stored none matches nothing).
bool same_graph_source(const Store& store, int64_t from, const FinishedProblem& f, const GraphSources& sources);

// The store a path names: a run's output folder (holding results.sqlite) names that file; any
// other path, a folder store included, names itself. Throws std::runtime_error naming both when
// a folder holds results.sqlite and other stores (*.sqlite, *.sqlite.gz): a run folder and a
// folder of stores at once, whose other runs would silently go unread.
std::string resolve_store_path(const std::string& path);

// The folder that a reading command's default output lies in for a store or file path (a
// resolve_store_path result, or an export): a file's folder, and a folder store's parent (beside
// it, not in it), whatever trailing slashes, "." or ".." spell it. Empty for a file named without
// a folder (the current one).
std::filesystem::path folder_beside(const std::string& path);

// Why `path` cannot be read as an input ("" when it can): it does not exist, it is a folder where
// `folders` refuses one (a graph file: the readers would call a folder a corrupt gzip stream), it
// is neither a regular file nor a folder (the tools read an input more than once: a reading
// command sniffs its type, then reads it; a graph file is read for its hash, its size line and
// its edges; and a FIFO with no writer blocks forever), or it does not open. `what` names it in
// the message ("results store", "peers file", "graph file"). One check for the reading commands'
// inputs and the graph commands' files, so that both say the same of the same file.
enum class Folders { accepted, refused };
std::string input_file_problem(const std::string& path, const std::string& what,
                               Folders folders = Folders::accepted);

// Whether a reading command's input is an exported run (tuner export's JSON) rather than a
// results store: named .json, or a regular file whose first non-blank byte opens a JSON object.
bool looks_like_export(const std::string& path);

// A reading command's store argument, "PATH" or "PATH:RUN" (the suffix names a run unless the
// whole text is an existing file), with its --run flag (nullopt when not given). Throws
// std::runtime_error naming the values for a run id that is not positive (no run 0 or -3 is the
// latest), out of range, or given twice differently (`h200:5 --run 7`).
struct StoreArg {
  std::string path;               // the text without its suffix
  std::optional<int64_t> run_id;  // nullopt: the latest run
};
StoreArg parse_store_arg(const std::string& arg, std::optional<int64_t> run_flag = std::nullopt);

// Throws std::runtime_error when `path` is an existing results store (an SQLite file, or a
// gzip file named .sqlite.gz): a command's output (`what`: "the exported run", "the header")
// must never replace the measurements it was made from.
void refuse_to_overwrite_store(const std::string& path, const std::string& what);

// A number of a JSON record (a trial, a worker's summary): `missing` when absent or not a
// number. JSON has no infinity or NaN: a non-finite double is written as null (nlohmann), and
// j.value(key, 0.0) throws on it.
double json_number(const nlohmann::json& j, const char* key, double missing);
// A relative noise of a JSON record: null is one that was not finite, the noise unknown (one
// sample, as summarize() leaves it): +inf; absent (records from before it was kept): 0.
double json_rel_noise(const nlohmann::json& j, const char* key);

nlohmann::json to_json(const TrialRecord& t);
TrialRecord trial_from_json(const nlohmann::json& j);
nlohmann::json to_json(const RunInfo& r);
std::string now_iso8601();

}  // namespace csrgat::tuner
