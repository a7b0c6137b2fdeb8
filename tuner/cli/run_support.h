// Small pieces of `tuner run` kept apart so the run loop stays readable.
#pragma once

#include <cstdint>
#include <string>

namespace csrgat::tuner {

struct Config;
class Store;

std::string project_commit();  // git commit of the source tree at build time, or "unknown"
std::string host_name();
// After the trials: the winners table, the tuned header and the report.
void finish_outputs(const Config& cfg, const Store& store, int64_t run_id);

}  // namespace csrgat::tuner
