// The results store: one SQLite file per output folder holding every run's metadata and every
// trial with its status, timing summary, counters and raw samples. Writes are transactions
// committed per trial, so a killed run loses nothing it finished, and a restarted run finds
// its trials by (run, graph, F, H, variant, stage) and skips them. A run is tied to one GPU
// (by UUID): resuming on another GPU starts a new run, so results never mix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace csrgat::tuner {

struct RunInfo {
  int64_t id = 0;
  std::string name, started, finished, config_hash, gpu_name, gpu_uuid, driver, cuda_runtime,
      nvrtc, arch, commit, host;
  nlohmann::json config, device, ceilings;
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
  explicit Store(const std::string& path, bool read_only = false);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The unfinished-or-finished run of this config on this GPU, or a new one.
  RunInfo open_run(const RunInfo& want);
  void finish_run(int64_t run_id);
  std::vector<RunInfo> runs() const;
  std::optional<RunInfo> run(int64_t id) const;
  // Latest run (highest id).
  std::optional<RunInfo> latest_run() const;

  bool has_trial(int64_t run_id, const std::string& graph, int feat, int heads,
                 const std::string& variant, int stage) const;
  void put_trial(const TrialRecord& t);  // insert or replace
  std::vector<TrialRecord> trials(int64_t run_id) const;

  void put_graph(int64_t run_id, const std::string& graph, const std::string& spec,
                 const nlohmann::json& features);
  nlohmann::json graph_features(int64_t run_id, const std::string& graph) const;

  const std::string& path() const { return path_; }

 private:
  void exec(const std::string& sql) const;
  sqlite3* db_ = nullptr;
  std::string path_;
};

nlohmann::json to_json(const TrialRecord& t);
TrialRecord trial_from_json(const nlohmann::json& j);
nlohmann::json to_json(const RunInfo& r);
std::string now_iso8601();

}  // namespace csrgat::tuner
