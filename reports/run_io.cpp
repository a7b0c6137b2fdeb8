#include "reports/run_io.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "tuner/verify.h"
#include "variants/params.h"

namespace fs = std::filesystem;

namespace csrgat::reports {
namespace {

// JSON has no inf or NaN (nlohmann writes null, which trial_from_json cannot read back into a
// double); a median's noise is +inf with one sample, so spell such values as strings.
const char* kNumericTrialKeys[] = {"rel_error", "median_us",      "q1_us",   "q3_us",
                                   "min_us",    "max_us",         "mean_us", "stddev_us",
                                   "rel_noise", "event_median_us"};

nlohmann::json encode_trial(const tuner::TrialRecord& t) {
  nlohmann::json j = tuner::to_json(t);
  for (const char* k : kNumericTrialKeys) {
    const double v = j[k].get<double>();
    if (std::isnan(v))
      j[k] = "nan";
    else if (std::isinf(v))
      j[k] = v > 0 ? "inf" : "-inf";
  }
  return j;
}

// What an export's content must be, checked before it is read: a message naming the list
// index and the field ("states[3].trial.median_us is \"fast\", not a number"), never a value
// skipped, defaulted or read as NaN without a word. (nlohmann's own type errors name neither.)
class ExportCheck {
 public:
  explicit ExportCheck(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw std::runtime_error("'" + path_ + "': " + where + " " + what);
  }
  static std::string shown(const nlohmann::json& v) {
    std::string t = v.dump();
    return t.size() > 60 ? t.substr(0, 57) + "..." : t;
  }
  void object(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_object()) fail(where, "is " + shown(v) + " (" + v.type_name() + "), not an object");
  }
  // A string field: required ones must be there and not empty.
  void string(const nlohmann::json& o, const std::string& where, const char* key,
              bool required) const {
    const auto it = o.find(key);
    if (it == o.end()) {
      if (required) fail(where, std::string("has no \"") + key + "\"");
      return;
    }
    if (!it->is_string()) fail(where + "." + key, "is " + shown(*it) + ", not a string");
    if (required && it->get_ref<const std::string&>().empty()) fail(where + "." + key, "is empty");
  }
  // An integer field in [min, max].
  void integer(const nlohmann::json& o, const std::string& where, const char* key, bool required,
               int64_t min, int64_t max = INT32_MAX) const {
    const auto it = o.find(key);
    if (it == o.end()) {
      if (required) fail(where, std::string("has no \"") + key + "\"");
      return;
    }
    if (!it->is_number_integer()) fail(where + "." + key, "is " + shown(*it) + ", not an integer");
    const bool huge =
        it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
    const int64_t v = huge ? INT64_MAX : it->get<int64_t>();
    if (huge || v < min || v > max)
      fail(where + "." + key, "is " + shown(*it) + ", not in [" + std::to_string(min) + ", " +
                                  std::to_string(max) + "]");
  }
  // A measured number: a number, null, or "nan"/"inf"/"-inf" (how encode_trial spells them);
  // never below 0 (times, their spread and relative errors).
  void measured(const nlohmann::json& o, const std::string& where, const char* key) const {
    const auto it = o.find(key);
    if (it != o.end() && it->is_number() && it->get<double>() < 0)
      fail(where + "." + key, "is " + shown(*it) + ", below 0");
    if (it == o.end() || it->is_number() || it->is_null()) return;
    if (it->is_string()) {
      const auto& t = it->get_ref<const std::string&>();
      if (t == "nan" || t == "inf" || t == "-inf") return;
    }
    fail(where + "." + key,
         "is " + shown(*it) + ", not a number (nor \"nan\", \"inf\" or \"-inf\")");
  }
  void boolean(const nlohmann::json& o, const std::string& where, const char* key) const {
    if (const auto it = o.find(key); it != o.end() && !it->is_boolean())
      fail(where + "." + key, "is " + shown(*it) + ", not true or false");
  }

 private:
  std::string path_;
};

// A state's trial, checked field by field (`where`: "states[3].trial").
void check_trial(const ExportCheck& c, const nlohmann::json& t, const std::string& where) {
  c.object(t, where);
  for (const char* k : {"graph", "variant", "status"}) c.string(t, where, k, true);
  for (const char* k : {"spec", "detail", "timer", "created"}) c.string(t, where, k, false);
  c.integer(t, where, "feat", true, 1);
  c.integer(t, where, "heads", false, 1);
  c.integer(t, where, "stage", true, 0);
  c.integer(t, where, "samples", false, 0);
  c.integer(t, where, "registers", false, -1);
  c.integer(t, where, "run_id", false, INT64_MIN + 1, INT64_MAX);
  for (const char* k : kNumericTrialKeys) c.measured(t, where, k);
  c.boolean(t, where, "throttled");
  // A status selection does not know would be neither a result nor a failure.
  try {
    (void)tuner::trial_status_from_string(t["status"].get_ref<const std::string&>());
  } catch (const std::exception& e) {
    c.fail(where + ".status", std::string("is not a trial status of this tuner: ") + e.what());
  }
  // A variant this tuner cannot parse would be selected, emitted and reported as if it knew it.
  const std::string& id = t["variant"].get_ref<const std::string&>();
  try {
    (void)VariantParams::parse(id);
  } catch (const std::exception& e) {
    c.fail(where + ".variant", "'" + id + "' is not a variant id of this tuner: " + e.what());
  }
}

tuner::TrialRecord decode_trial(nlohmann::json j) {
  for (const char* k : kNumericTrialKeys) {
    if (!j.contains(k)) continue;
    auto& v = j[k];
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      v = s == "inf"    ? INFINITY
          : s == "-inf" ? -INFINITY
                        : NAN;  // "nan" (check_trial allowed no other)
    } else if (v.is_null()) {
      j.erase(k);
    }
  }
  return tuner::trial_from_json(j);
}

nlohmann::json summary(const char* tag, const char* name, const char* unit, double v) {
  nlohmann::json value = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  return {{"tag", tag}, {"name", name}, {"unit", unit}, {"value", value}};
}

std::string str_or(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

LoadedRun load_export(const std::string& source, const std::string& path,
                      std::optional<int64_t> run_id) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("'" + path + "' is not JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("meta") || !j["meta"].is_object() ||
      !j["meta"].contains("run") || !j.contains("states"))
    throw std::runtime_error(
        "'" + path +
        "' is not a run export (write one with: tuner export <results.sqlite> -o run.json)");
  // Another tool's JSON, or a later format of ours: refused by name, not half read.
  const nlohmann::json& meta = j["meta"];
  if (meta.value("format", nlohmann::json()) != "csrgat-run-export")
    throw std::runtime_error("'" + path + "': meta.format is " +
                             meta.value("format", nlohmann::json()).dump() +
                             ", not \"csrgat-run-export\" (tuner export's)");
  if (!meta.contains("version") || !meta["version"].is_number_integer() ||
      meta["version"].get<int64_t>() > kExportFormat)
    throw std::runtime_error(
        "'" + path + "': meta.version is " +
        (meta.contains("version") ? meta["version"].dump() : std::string("missing")) +
        "; this tuner reads run exports up to version " + std::to_string(kExportFormat));
  for (const char* list : {"states", "graphs", "problems"})
    if (j.contains(list) && !j[list].is_array())
      throw std::runtime_error("'" + path + "': \"" + list + "\" is " + j[list].type_name() +
                               ", not a list");
  const ExportCheck c(path);
  const nlohmann::json& mr = meta["run"];
  c.object(mr, "meta.run");
  c.integer(mr, "meta.run", "id", true, 1, INT64_MAX);  // a run id 0 or -3 is no recorded run
  c.integer(mr, "meta.run", "continued_from", false, 0, INT64_MAX);
  for (const char* k :
       {"name", "started", "finished", "config_hash", "gpu_name", "gpu_uuid", "driver",
        "cuda_runtime", "nvrtc", "arch", "commit", "host", "kernels_hash"})
    c.string(mr, "meta.run", k, false);
  LoadedRun r;
  r.source = source;
  r.run = run_from_json(mr);
  if (run_id && *run_id != r.run.id)
    throw std::runtime_error("'" + path + "' holds run " + std::to_string(r.run.id) + ", not run " +
                             std::to_string(*run_id));
  // Every entry checked before anything is read, so that a bad one names itself.
  const auto list = [&](const char* name) {
    return j.contains(name) ? j[name] : nlohmann::json::array();
  };
  const nlohmann::json graphs = list("graphs"), problems = list("problems"), states = j["states"];
  for (size_t i = 0; i < graphs.size(); ++i) {
    const std::string where = "graphs[" + std::to_string(i) + "]";
    c.object(graphs[i], where);
    c.string(graphs[i], where, "name", true);
    c.string(graphs[i], where, "spec", false);
    if (graphs[i].contains("features") && !graphs[i]["features"].is_object() &&
        !graphs[i]["features"].is_null())
      c.fail(where + ".features",
             "is " + ExportCheck::shown(graphs[i]["features"]) + ", not an object");
  }
  for (size_t i = 0; i < problems.size(); ++i) {
    const std::string where = "problems[" + std::to_string(i) + "]";
    c.object(problems[i], where);
    c.string(problems[i], where, "graph", true);
    c.integer(problems[i], where, "feat", true, 1);
    c.integer(problems[i], where, "heads", false, 1);
    c.integer(problems[i], where, "from_run", false, 0, INT64_MAX);
    for (const char* k : {"gpu_uuid", "finished"}) c.string(problems[i], where, k, false);
    if (const auto it = problems[i].find("prepare_s");
        it != problems[i].end() && !it->is_number() && !it->is_null())
      c.fail(where + ".prepare_s", "is " + ExportCheck::shown(*it) + ", not a number");
  }
  std::set<std::string> graph_names;  // a trial's graph must be one of them, when there are any
  for (const auto& g : graphs) graph_names.insert(g["name"].get<std::string>());
  std::map<std::string, size_t> seen;  // a trial's key -> the state that holds it
  for (size_t i = 0; i < states.size(); ++i) {
    const std::string where = "states[" + std::to_string(i) + "]";
    c.object(states[i], where);
    if (!states[i].contains("trial"))
      c.fail(where, "has no \"trial\" (a run export carries each trial whole)");
    const nlohmann::json& t = states[i]["trial"];
    check_trial(c, t, where + ".trial");
    if (const std::string& g = t["graph"].get_ref<const std::string&>();
        !graph_names.empty() && !graph_names.count(g))
      c.fail(where + ".trial.graph", "'" + g + "' is not one of the export's graphs[]");
    const std::string key = t["graph"].dump() + " " + t["feat"].dump() + " " +
                            t.value("heads", nlohmann::json(1)).dump() + " " + t["variant"].dump() +
                            " " + t["stage"].dump();
    if (const auto [it, fresh] = seen.emplace(key, i); !fresh)
      c.fail(where, "repeats the trial of states[" + std::to_string(it->second) +
                        "] (graph, F, H, variant, stage)");
  }
  // An in-memory store, so selection reads an export exactly as it reads a results file.
  r.store = std::make_unique<tuner::Store>(":memory:");
  r.store->name_as(path);
  r.run_id = r.store->import_run(r.run).id;  // its recorded id, start, finish and continued run
  for (const auto& g : graphs)
    r.store->put_graph(r.run_id, g["name"].get<std::string>(), g.value("spec", ""),
                       g.value("features", nlohmann::json()));
  for (const auto& f : problems) {
    tuner::FinishedProblem p;
    p.graph = f["graph"].get<std::string>();
    p.feat = f["feat"].get<int>();
    p.heads = f.value("heads", 1);
    p.gpu_uuid = f.value("gpu_uuid", "");
    // Exports before the finish time was kept: stamped now, as the store would have.
    p.finished = f.contains("finished") ? f["finished"].get<std::string>() : tuner::now_iso8601();
    p.from_run = f.value("from_run", int64_t{0});
    p.prepare_s =
        f.contains("prepare_s") && f["prepare_s"].is_number() ? f["prepare_s"].get<double>() : -1.0;
    r.store->import_problem(r.run_id, p);
  }
  for (const auto& s : states) {
    tuner::TrialRecord t = decode_trial(s["trial"]);
    t.run_id = r.run_id;
    r.store->put_trial(t);
  }
  return r;
}

LoadedRun load_sqlite(const std::string& source, const std::string& path,
                      std::optional<int64_t> run_id) {
  LoadedRun r;
  r.source = source;
  std::optional<tuner::RunInfo> run;
  try {
    r.store = std::make_unique<tuner::Store>(path, true);
    run = run_id ? r.store->run(*run_id) : r.store->latest_run();
  } catch (const std::exception& e) {
    // A message that names the store already says what is wrong in it (a damaged row).
    if (std::string(e.what()).find("'" + path + "'") != std::string::npos) throw;
    throw std::runtime_error("'" + path + "' is not a readable results store: " + e.what());
  }
  if (!run) {
    if (!run_id) throw std::runtime_error("'" + path + "' holds no runs");
    std::string ids;
    for (const auto& x : r.store->runs()) ids += (ids.empty() ? "" : ", ") + std::to_string(x.id);
    throw std::runtime_error("'" + path + "' has no run " + std::to_string(*run_id) +
                             " (its runs: " + ids + ")");
  }
  r.run = *run;
  r.run_id = run->id;
  return r;
}

}  // namespace

nlohmann::json export_run(const tuner::Store& store, int64_t run_id) {
  const auto run = store.run(run_id);
  if (!run)
    throw std::runtime_error("results store '" + store.path() + "' has no run " +
                             std::to_string(run_id));
  const auto trials = store.trials(run_id);
  nlohmann::json device = run->device.is_object() ? run->device : nlohmann::json::object();
  device["id"] = 0;
  if (!device.contains("name")) device["name"] = run->gpu_name;
  if (!device.contains("uuid")) device["uuid"] = run->gpu_uuid;
  if (!device.contains("driver")) device["driver"] = run->driver;
  device["ceilings"] = run->ceilings;

  nlohmann::json states = nlohmann::json::array();
  for (const auto& t : trials) {
    const std::string name = t.graph + "/F" + std::to_string(t.feat) + "/H" +
                             std::to_string(t.heads) + "/" + t.variant + "/stage" +
                             std::to_string(t.stage);
    nlohmann::json sums = nlohmann::json::array();
    if (t.status == "ok") {
      sums.push_back(summary("nv/cold/time/gpu/median", "GPU Time (median)", "us", t.median_us));
      sums.push_back(summary("nv/cold/time/gpu/q1", "GPU Time (first quartile)", "us", t.q1_us));
      sums.push_back(summary("nv/cold/time/gpu/q3", "GPU Time (third quartile)", "us", t.q3_us));
      sums.push_back(summary("nv/cold/time/gpu/min", "GPU Time (min)", "us", t.min_us));
      sums.push_back(summary("nv/cold/time/gpu/max", "GPU Time (max)", "us", t.max_us));
      sums.push_back(summary("nv/cold/time/gpu/mean", "GPU Time (mean)", "us", t.mean_us));
      sums.push_back(
          summary("nv/cold/time/gpu/stdev/absolute", "GPU Time (stddev)", "us", t.stddev_us));
      sums.push_back(summary("csrgat/time/gpu/median/rel_noise", "Relative noise of the median",
                             "ratio", t.rel_noise));
      sums.push_back(summary("nv/cold/time/cpu/median", "Event time incl. launch (median)", "us",
                             t.event_median_us));
      sums.push_back(summary("nv/cold/sample_size", "Samples", "count", t.samples));
    }
    states.push_back({{"name", name},
                      {"device", 0},
                      {"graph", t.graph},
                      {"feat", t.feat},
                      {"heads", t.heads},
                      {"variant", t.variant},
                      {"stage", t.stage},
                      {"status", t.status},
                      {"timer", t.timer},
                      {"summaries", sums},
                      {"trial", encode_trial(t)}});
  }
  // Every graph row of the run as stored (its spec, its features), so that it reads back whole.
  nlohmann::json graphs = nlohmann::json::array();
  for (const auto& g : store.graphs(run_id))
    graphs.push_back({{"name", g.graph}, {"spec", g.spec}, {"features", g.features}});
  // Each problem's finish mark: the GPU that measured it, when, its build time (the report's)
  // and the run it was taken from (--continue, --reuse; 0: measured by this run).
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& f : store.finished_problems(run_id))
    problems.push_back(
        {{"graph", f.graph},
         {"feat", f.feat},
         {"heads", f.heads},
         {"gpu_uuid", f.gpu_uuid},
         {"finished", f.finished},
         {"from_run", f.from_run},
         {"prepare_s", f.prepare_s >= 0 ? nlohmann::json(f.prepare_s) : nlohmann::json()}});
  return {{"meta",
           {{"format", "csrgat-run-export"},
            {"version", kExportFormat},
            {"tool", "tuner export"},
            {"exported", tuner::now_iso8601()},
            {"source", store.path()},
            {"run", tuner::to_json(*run)}}},
          {"devices", nlohmann::json::array({device})},
          {"graphs", graphs},
          {"problems", problems},
          {"states", states}};
}

tuner::RunInfo run_from_json(const nlohmann::json& j) {
  tuner::RunInfo r;
  r.id = j.value("id", int64_t{0});
  r.name = str_or(j, "name");
  r.started = str_or(j, "started");
  r.finished = str_or(j, "finished");
  r.config_hash = str_or(j, "config_hash");
  r.gpu_name = str_or(j, "gpu_name");
  r.gpu_uuid = str_or(j, "gpu_uuid");
  r.driver = str_or(j, "driver");
  r.cuda_runtime = str_or(j, "cuda_runtime");
  r.nvrtc = str_or(j, "nvrtc");
  r.arch = str_or(j, "arch");
  r.commit = str_or(j, "commit");
  r.host = str_or(j, "host");
  r.kernels_hash = str_or(j, "kernels_hash");
  r.continued_from = j.value("continued_from", int64_t{0});
  if (j.contains("config")) r.config = j["config"];
  if (j.contains("device")) r.device = j["device"];
  if (j.contains("ceilings")) r.ceilings = j["ceilings"];
  return r;
}

LoadedRun load_run_source(const std::string& source, std::optional<int64_t> run_id) {
  const tuner::StoreArg arg = tuner::parse_store_arg(source, run_id);
  const std::string path = tuner::resolve_store_path(arg.path);
  // Before anything opens it: a FIFO would block, and a pipe's first byte, sniffed below, would
  // be gone when the content is read.
  if (const std::string why = tuner::input_file_problem(path, "run source"); !why.empty())
    throw std::runtime_error(why);
  const bool json = tuner::looks_like_export(path);
  // Whatever goes wrong reading it names the source (a store of another schema fails inside
  // SQLite, an export of another format inside the JSON library).
  try {
    return json ? load_export(source, path, arg.run_id) : load_sqlite(source, path, arg.run_id);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find(path) != std::string::npos) throw;
    throw std::runtime_error("'" + path + "' (" + (json ? "an exported run" : "a results store") +
                             "): " + what);
  }
}

}  // namespace csrgat::reports
