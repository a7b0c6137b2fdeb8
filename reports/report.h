// The roofline report and the regression comparison, written from the results store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace csrgat::tuner {
struct Config;
class Store;
}  // namespace csrgat::tuner

namespace csrgat::reports {

// report.md, report.html, roofline.png/.svg and the parameter charts into <cfg.output>/report/,
// folding in <cfg.output>/peers.json when it exists. Never throws: a failure is printed and the
// run's results stay in the store (tuner report writes the report again later).
void write_run_report(const tuner::Config& cfg, const tuner::Store& store, int64_t run_id);

// The same for any run of a store into out_dir: report.md, report.html, report.json,
// chart_data.json and the charts (skipped, with a note in the report, when no Python with
// matplotlib is found). peers_json_path: output of scripts/peers_pyg.py, or "". Throws
// std::runtime_error when the run does not exist or a file cannot be written.
void write_report(const tuner::Store& store, int64_t run_id, const std::string& out_dir,
                  const std::string& peers_json_path);

// The files write_report writes (or removes, an earlier report's charts) in its folder.
const std::vector<std::string>& report_files();

// Throws std::runtime_error when writing `files` into out_dir would write over one of `inputs`
// (paths; "" ignored): an exported run named report.json given to `tuner report` with its own
// folder as the output, say, would be replaced by the report of itself. `what`: the command.
void refuse_to_overwrite_inputs(const std::string& out_dir, const std::vector<std::string>& files,
                                const std::vector<std::string>& inputs, const std::string& what);

// One timing of scripts/peers_pyg.py, matched to problems by graph name and F (and H when given).
struct PeerResult {
  std::string graph, impl;  // impl: "pyg", "torch_scatter" (no PyG installed), "torch_sparse_csr"
  int feat = 0, heads = 1;
  double median_us = 0, q1_us = 0, q3_us = 0, rel_error = 0;
  int samples = 0;
};
struct Peers {
  nlohmann::json meta;
  std::vector<PeerResult> results;
};
// Throws std::runtime_error naming the file when it cannot be read or parsed.
Peers load_peers(const std::string& path);

}  // namespace csrgat::reports
