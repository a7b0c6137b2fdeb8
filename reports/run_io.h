// A run outside its store: export as nvbench-like JSON ("meta", "devices", per-state
// summaries, each state carrying its whole trial so the export reads back losslessly), and
// loading a run from a results.sqlite, a run folder or such an export for `tuner compare`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tuner/store.h"

namespace csrgat::reports {

inline constexpr int kExportFormat = 1;

// Throws std::runtime_error when the run does not exist.
nlohmann::json export_run(const tuner::Store& store, int64_t run_id);

tuner::RunInfo run_from_json(const nlohmann::json& j);

// A run to read: its own store (the opened file, or an in-memory one filled from an export).
struct LoadedRun {
  std::string source;  // as given
  std::unique_ptr<tuner::Store> store;
  int64_t run_id = 0;
  tuner::RunInfo run;  // as recorded (an export keeps its original id and timestamps)
};

// source: results.sqlite (latest run), results.sqlite:RUN_ID, a run folder holding
// results.sqlite (same suffix rules), or an exported JSON file; run_id: a --run flag, when one
// was given (tuner::parse_store_arg: a run id that is not positive, or one the suffix names
// otherwise, is refused). Throws std::runtime_error saying what was wrong; an export's content
// is checked whole first (each state's trial field by field, the run id, the variant ids), and
// a bad one names its list index and field.
LoadedRun load_run_source(const std::string& source, std::optional<int64_t> run_id = std::nullopt);

}  // namespace csrgat::reports
