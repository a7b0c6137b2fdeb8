#include "reports/run_io.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>

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

tuner::TrialRecord decode_trial(nlohmann::json j) {
  for (const char* k : kNumericTrialKeys) {
    if (!j.contains(k)) continue;
    auto& v = j[k];
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      v = s == "inf" ? INFINITY : s == "-inf" ? -INFINITY : NAN;
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

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

LoadedRun load_export(const std::string& source, const std::string& path, int64_t run_id) {
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
  if (meta.value("format", std::string()) != "csrgat-run-export")
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
  LoadedRun r;
  r.source = source;
  r.run = run_from_json(j["meta"]["run"]);
  if (run_id > 0 && run_id != r.run.id)
    throw std::runtime_error("'" + path + "' holds run " + std::to_string(r.run.id) + ", not run " +
                             std::to_string(run_id));
  // An in-memory store, so selection reads an export exactly as it reads a results file.
  r.store = std::make_unique<tuner::Store>(":memory:");
  r.store->name_as(path);
  r.run_id = r.store->import_run(r.run).id;  // its recorded id, start and finish
  if (j.contains("graphs"))
    for (const auto& g : j["graphs"])
      r.store->put_graph(r.run_id, g.value("name", ""), g.value("spec", ""),
                         g.value("features", nlohmann::json()));
  if (j.contains("problems") && j["problems"].is_array())
    for (const auto& f : j["problems"])
      r.store->finish_problem(r.run_id, f.value("graph", ""), f.value("feat", 0), f.value("heads", 1),
                              f.value("gpu_uuid", ""), f.value("prepare_s", -1.0));
  for (const auto& s : j["states"]) {
    if (!s.contains("trial")) continue;
    tuner::TrialRecord t = decode_trial(s["trial"]);
    t.run_id = r.run_id;
    r.store->put_trial(t);
  }
  return r;
}

LoadedRun load_sqlite(const std::string& source, const std::string& path, int64_t run_id) {
  if (!fs::is_regular_file(path) && !fs::is_directory(path))
    throw std::runtime_error("no results store at '" + path + "'");
  LoadedRun r;
  r.source = source;
  std::optional<tuner::RunInfo> run;
  try {
    r.store = std::make_unique<tuner::Store>(path, true);
    run = run_id > 0 ? r.store->run(run_id) : r.store->latest_run();
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is not a readable results store: " + e.what());
  }
  if (!run)
    throw std::runtime_error(run_id > 0 ? "'" + path + "' has no run " + std::to_string(run_id)
                                        : "'" + path + "' holds no runs");
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

  std::set<std::string> graph_names;
  nlohmann::json states = nlohmann::json::array();
  for (const auto& t : trials) {
    graph_names.insert(t.graph);
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
  nlohmann::json graphs = nlohmann::json::array();
  for (const auto& g : graph_names) {
    std::string spec;
    for (const auto& t : trials)
      if (t.graph == g && !t.spec.empty()) {
        spec = t.spec;
        break;
      }
    graphs.push_back({{"name", g}, {"spec", spec}, {"features", store.graph_features(run_id, g)}});
  }
  // Each problem's finish mark: the GPU that measured it and its build time (the report's).
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& f : store.finished_problems(run_id))
    problems.push_back({{"graph", f.graph},
                        {"feat", f.feat},
                        {"heads", f.heads},
                        {"gpu_uuid", f.gpu_uuid},
                        {"finished", f.finished},
                        {"prepare_s", f.prepare_s}});
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

LoadedRun load_run_source(const std::string& source, int64_t run_id) {
  std::string path = source;
  // "file.sqlite:12": the suffix names a run unless the whole text is itself a file.
  if (const auto colon = source.rfind(':'); colon != std::string::npos && !fs::exists(source)) {
    const std::string tail = source.substr(colon + 1);
    if (!tail.empty() && tail.find_first_not_of("0123456789") == std::string::npos) {
      path = source.substr(0, colon);
      if (run_id <= 0) {
        if (tail.size() > 18)
          throw std::runtime_error("'" + source + "': run id '" + tail + "' is out of range");
        run_id = std::stoll(tail);
      }
    }
  }
  path = tuner::resolve_store_path(path);
  if (!fs::exists(path)) throw std::runtime_error("'" + path + "' does not exist");
  bool json = ends_with(path, ".json");
  if (!json) {
    std::ifstream in(path, std::ios::binary);
    char c = 0;
    while (in.get(c) && std::isspace(static_cast<unsigned char>(c))) {
    }
    json = c == '{';
  }
  // Whatever goes wrong reading it names the source (a store of another schema fails inside
  // SQLite, an export of another format inside the JSON library).
  try {
    return json ? load_export(source, path, run_id) : load_sqlite(source, path, run_id);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find(path) != std::string::npos) throw;
    throw std::runtime_error("'" + path + "' (" + (json ? "an exported run" : "a results store") +
                             "): " + what);
  }
}

}  // namespace csrgat::reports
