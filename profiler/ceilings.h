// Measured roofs of the device, after the Empirical Roofline Toolkit: what simple kernels
// actually reach, not the datasheet.
//   dram_copy_gbs   float4 grid-stride copy of 1 GiB -> 1 GiB (less when memory is short), cold
//                   L2, (bytes read + bytes written) / CUPTI time of the best sample
//   dram_read_gbs   float4 grid-stride read of the same 1 GiB (summed; a thread writes only an
//                   impossible sum, so nothing), cold L2, bytes read / CUPTI time of the best
//                   sample: the roof of a read-mostly kernel such as the aggregation (90%+ of its
//                   DRAM bytes are reads), which passes the copy's roof (half writes) by a few
//                   percent
//   l2_copy_gbs     ping-pong copy between two buffers that fit well inside L2 (2 x 8 MiB on
//                   large L2s), L1 bypassed, warm, many passes per launch, best sample
//   l2_gather_gbs   random 256-byte rows (16 lanes x float4, ld.global.cg, 4 rows in flight
//                   per group) from a matrix of L2/4 bytes, row numbers from an array of L2/8
//                   bytes, both L2-resident; warm, best sample; bytes = rows + row numbers read.
//                   What the aggregation's gathers can reach on a graph whose values fit in L2
//   fp32_gflops     independent FMA chains on every SM at full occupancy, 2 flops per FMA,
//                   best sample
//   launch_us_plain empty kernel, median CUDA-event time of one launch (launch overhead)
//   launch_us_graph empty kernel, median per-launch time inside a CUDA graph of 100 launches
// `method` records, per ceiling, the sizes, grid, repetitions, timer, sample statistics and
// notes, plus the device and the time of measurement.
#pragma once

#include "profiler/timer.h"

#include <nlohmann/json.hpp>

#include <string>

namespace csrgat::profiler {

struct Ceilings {
  double dram_copy_gbs = 0.0;
  double dram_read_gbs = 0.0;  // 0: not measured (ceilings recorded before it existed)
  double l2_copy_gbs = 0.0;
  double l2_gather_gbs = 0.0;  // 0: not measured (ceilings recorded before it existed)
  double fp32_gflops = 0.0;
  double launch_us_plain = 0.0;
  double launch_us_graph = 0.0;
  nlohmann::json method;
  std::string device_uuid, driver;
};

// `timer` must belong to `device` (std::invalid_argument otherwise). Takes a few seconds.
Ceilings measure_ceilings(int device, Timer& timer);

// <cache_dir>/ceilings-<uuid>-<driver>.json, the driver string made file-name safe.
std::string ceilings_cache_path(const std::string& cache_dir, const DeviceInfo& info);

// Why a cache file's JSON cannot be used ("" when it can): a field missing or of the wrong type,
// a format other than this build's, or a roof that is not a finite positive number (a
// hand-edited or damaged file that still parses).
std::string ceilings_cache_problem(const nlohmann::json& j);
// Reads the cached ceilings of this device and driver; measures and writes them when the file
// is absent, unreadable, fails ceilings_cache_problem (said on stderr), or is of another
// driver/device.
Ceilings load_or_measure_ceilings(int device, Timer& timer, const std::string& cache_dir);

nlohmann::json to_json(const Ceilings& c);
Ceilings ceilings_from_json(
    const nlohmann::json& j);  // throws nlohmann::json::exception when malformed
// nlohmann's ADL hooks, so that `json j = ceilings;` and `j.get<Ceilings>()` work.
void to_json(nlohmann::json& j, const Ceilings& c);
void from_json(const nlohmann::json& j, Ceilings& c);

}  // namespace csrgat::profiler
