#include "profiler/ceilings.h"

#include "profiler/check.h"
#include "profiler/device_buffer.h"
#include "profiler/kernels.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace csrgat::profiler {

namespace {

constexpr int cache_format = 3;  // 2: l2_gather_gbs; 3: dram_read_gbs

// Statistics of one ceiling's timing for `method`.
nlohmann::json timing_method(const TimingResult& r) {
  return {{"timer", r.timer},
          {"samples", r.gpu.n},
          {"stop", to_string(r.stop)},
          {"best_us", r.gpu.min},
          {"median_us", r.gpu.median},
          {"event_median_us", r.event.median},
          {"rel_noise", r.gpu.rel_noise},
          {"throttled_any", r.throttled_any},
          {"note", r.note}};
}

// How every bandwidth and FLOP ceiling is timed: 2 launches of warm-up, then 10-50 samples
// until 0.5% noise or 2 s.
TimingOptions ceiling_timing(CacheMode cache) {
  TimingOptions o;
  o.cache = cache;
  o.warmup = 2;
  o.stop = {0.005, 10, 50, 2.0};
  return o;
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char s[32];
  std::strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return s;
}

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
  return out;
}

}  // namespace

Ceilings measure_ceilings(int device, Timer& timer) {
  if (timer.device() != device)
    throw std::invalid_argument("measure_ceilings: timer belongs to device " +
                                std::to_string(timer.device()) + ", not " + std::to_string(device));
  CSRGAT_CUDA_CHECK(cudaSetDevice(device));
  const DeviceInfo info = device_info(device, timer.nvml());
  const int sms = info.sm_count;
  cudaStream_t s = timer.stream();
  Ceilings c;
  c.device_uuid = info.uuid;
  c.driver = info.driver;
  c.method = {{"format", cache_format}, {"device", to_json(info)}, {"measured_at", now_utc()}};

  // DRAM: 1 GiB each way, halved until both buffers fit in 80% of free memory (floor: 8 x L2,
  // so the copy still streams from DRAM).
  {
    size_t free_b = 0, total_b = 0;
    CSRGAT_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t bytes = size_t(1) << 30;
    const size_t floor_bytes = std::max<size_t>(8 * info.l2_bytes, size_t(64) << 20);
    while (2 * bytes > free_b / 10 * 8 && bytes / 2 >= floor_bytes) bytes /= 2;
    DeviceBuffer src(bytes), dst(bytes);
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(src.ptr, 0, bytes, s));
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
    const size_t n4 = bytes / 16;
    const int block = 256;
    const int grid = static_cast<int>(std::min<size_t>((n4 + block - 1) / block, size_t(sms) * 16));
    const TimingOptions o = ceiling_timing(CacheMode::cold);
    const TimingResult r = timer.measure(
        [&](cudaStream_t st, int) {
          detail::launch_copy_f4(src.as<float4>(), dst.as<float4>(), n4, grid, block, st);
        },
        o);
    const double moved = 2.0 * static_cast<double>(bytes);
    c.dram_copy_gbs = moved / r.gpu.min * 1e-3;  // bytes / us * 1e-3 = GB/s
    c.method["dram_copy"] = timing_method(r);
    c.method["dram_copy"].update({{"kernel", "float4 grid-stride copy"},
                                  {"bytes_per_buffer", bytes},
                                  {"bytes_moved", moved},
                                  {"grid", grid},
                                  {"block", block},
                                  {"cache", "cold"},
                                  {"value", "bytes_moved / best_us"},
                                  {"median_gbs", moved / r.gpu.median * 1e-3}});

    // The same source read alone, as many blocks as the copy.
    DeviceBuffer sink(sizeof(float) * grid);
    const TimingResult rd = timer.measure(
        [&](cudaStream_t st, int) {
          detail::launch_read_f4(src.as<float4>(), n4, sink.as<float>(), grid, block, st);
        },
        o);
    const double read = static_cast<double>(bytes);
    c.dram_read_gbs = read / rd.gpu.min * 1e-3;
    c.method["dram_read"] = timing_method(rd);
    c.method["dram_read"].update(
        {{"kernel", "float4 grid-stride read, summed (" + std::to_string(detail::read_unroll) +
                        " loads in flight a thread; a thread writes only an impossible sum)"},
         {"bytes_read", read},
         {"grid", grid},
         {"block", block},
         {"cache", "cold"},
         {"value", "bytes_read / best_us"},
         {"median_gbs", read / rd.gpu.median * 1e-3}});
  }

  // L2: two buffers of at most 8 MiB and at most L2/4 each, so both sit in L2 with room to spare.
  {
    size_t bytes = std::min<size_t>(size_t(8) << 20, info.l2_bytes / 4) / 16 * 16;
    if (bytes == 0) bytes = size_t(1) << 20;
    DeviceBuffer a(bytes), b(bytes);
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(a.ptr, 0, bytes, s));
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(b.ptr, 0, bytes, s));
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
    const size_t n4 = bytes / 16;
    const int block = 256, grid = sms * 8;
    // About 2 GB per launch: ~100+ us at L2 speed, long against launch and timer granularity.
    const int reps = static_cast<int>(std::clamp<size_t>((size_t(2) << 30) / (2 * bytes), 8, 4096));
    const TimingOptions o = ceiling_timing(CacheMode::warm);
    const TimingResult r = timer.measure(
        [&](cudaStream_t st, int) {
          detail::launch_copy_l2(a.as<float4>(), b.as<float4>(), n4, reps, grid, block, st);
        },
        o);
    const double moved = 2.0 * static_cast<double>(bytes) * reps;
    c.l2_copy_gbs = moved / r.gpu.min * 1e-3;
    c.method["l2_copy"] = timing_method(r);
    c.method["l2_copy"].update({{"kernel", "float4 ping-pong copy, ld/st.global.cg (L1 bypassed)"},
                                {"bytes_per_buffer", bytes},
                                {"reps", reps},
                                {"bytes_moved", moved},
                                {"grid", grid},
                                {"block", block},
                                {"cache", "warm"},
                                {"value", "bytes_moved / best_us"},
                                {"median_gbs", moved / r.gpu.median * 1e-3}});
  }

  // L2 gathers: a matrix of 256-byte rows (L2/4 bytes) and row numbers (L2/8 bytes), uniformly
  // random (a fixed LCG), both L2-resident; passes over the row numbers until ~512 MB of rows.
  {
    const size_t row_bytes = 16 * detail::gather_row_f4;
    const size_t n_rows = std::max<size_t>(info.l2_bytes / 4 / row_bytes, 1024);
    const size_t edges = std::max<size_t>(info.l2_bytes / 8 / sizeof(int), 4096);
    std::vector<int> idx(edges);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (auto& i : idx) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      i = static_cast<int>((x >> 33) % n_rows);
    }
    DeviceBuffer rows(n_rows * row_bytes), d_idx(edges * sizeof(int));
    const int block = 256, grid = sms * 8;
    DeviceBuffer sink(sizeof(float) * grid);
    CSRGAT_CUDA_CHECK(cudaMemsetAsync(rows.ptr, 0x3c, n_rows * row_bytes, s));  // ~0.01 floats
    CSRGAT_CUDA_CHECK(
        cudaMemcpyAsync(d_idx.ptr, idx.data(), edges * sizeof(int), cudaMemcpyHostToDevice, s));
    CSRGAT_CUDA_CHECK(cudaStreamSynchronize(s));
    const int reps =
        static_cast<int>(std::clamp<size_t>((size_t(512) << 20) / (edges * row_bytes), 1, 1024));
    const TimingOptions o = ceiling_timing(CacheMode::warm);
    const TimingResult r = timer.measure(
        [&](cudaStream_t st, int) {
          detail::launch_gather_l2(rows.as<float4>(), d_idx.as<int>(), edges, reps,
                                   sink.as<float>(), grid, block, st);
        },
        o);
    const double moved = static_cast<double>(edges) * reps * (row_bytes + sizeof(int));
    c.l2_gather_gbs = moved / r.gpu.min * 1e-3;
    c.method["l2_gather"] = timing_method(r);
    c.method["l2_gather"].update(
        {{"kernel", "random row gathers, ld.global.cg, " + std::to_string(detail::gather_row_f4) +
                        " lanes x float4 per row, " + std::to_string(detail::gather_ilp) +
                        " rows in flight per group"},
         {"row_bytes", row_bytes},
         {"rows", n_rows},
         {"matrix_bytes", n_rows * row_bytes},
         {"row_numbers", edges},
         {"reps", reps},
         {"bytes_moved", moved},
         {"grid", grid},
         {"block", block},
         {"cache", "warm"},
         {"value", "(rows + row numbers read) / best_us"},
         {"median_gbs", moved / r.gpu.median * 1e-3}});
  }

  // FP32: 2048 threads per SM, detail::fma_chains independent chains per thread.
  {
    const int block = 256, grid = sms * 8, iters = 4096;
    DeviceBuffer sink(sizeof(float) * grid);
    const TimingOptions o = ceiling_timing(CacheMode::warm);
    const TimingResult r = timer.measure(
        [&](cudaStream_t st, int) { detail::launch_fma(sink.as<float>(), iters, grid, block, st); },
        o);
    const double flops = 2.0 * detail::fma_chains * double(iters) * double(grid) * block;
    c.fp32_gflops = flops / r.gpu.min * 1e-3;  // flops / us * 1e-3 = GFLOP/s
    c.method["fp32"] = timing_method(r);
    c.method["fp32"].update({{"kernel", "independent FFMA chains"},
                             {"chains_per_thread", detail::fma_chains},
                             {"iters", iters},
                             {"flops", flops},
                             {"grid", grid},
                             {"block", block},
                             {"value", "flops / best_us (FFMA = 2 flops)"},
                             {"median_gflops", flops / r.gpu.median * 1e-3}});
  }

  // Launch latency of an empty kernel: one launch between two events, then inside a graph.
  {
    TimingOptions o;
    o.cache = CacheMode::warm;
    o.use_cupti = false;  // the launch as an untraced application sees it
    o.warmup = 10;
    o.stop = {0.01, 50, 500, 1.0};
    const TimingResult plain =
        timer.measure([](cudaStream_t st, int) { detail::launch_empty(st); }, o);
    c.launch_us_plain = plain.event.median;
    c.method["launch_plain"] = timing_method(plain);
    c.method["launch_plain"].update(
        {{"kernel", "empty <<<1, 1>>>"},
         {"value", "event_median_us: one launch, synchronised, between two events"}});

    o.graph_replay = true;
    o.graph_batch = 100;
    o.warmup = 3;
    o.stop = {0.01, 20, 200, 1.0};
    const TimingResult graph =
        timer.measure([](cudaStream_t st, int) { detail::launch_empty(st); }, o);
    c.launch_us_graph = graph.gpu.median;
    c.method["launch_graph"] = timing_method(graph);
    c.method["launch_graph"].update({{"kernel", "empty <<<1, 1>>>"},
                                     {"graph_batch", o.graph_batch},
                                     {"value", "median_us: replay time / graph_batch"}});
  }
  return c;
}

std::string ceilings_cache_path(const std::string& cache_dir, const DeviceInfo& info) {
  return (std::filesystem::path(cache_dir) /
          ("ceilings-" + file_safe(info.uuid) + "-" + file_safe(info.driver) + ".json"))
      .string();
}

namespace {

// ceilings_cache_problem's check, leaving the converted ceilings in c for a caller that uses
// them (the JSON is converted once).
std::string cache_problem(const nlohmann::json& j, Ceilings& c) {
  try {
    c = ceilings_from_json(j);
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
  const nlohmann::json fmt =
      c.method.is_object() && c.method.contains("format") ? c.method["format"] : nlohmann::json();
  if (!fmt.is_number_integer() || fmt.get<int>() != cache_format)
    return "format " + fmt.dump() + ", not " + std::to_string(cache_format);
  for (const char* k : {"l2_gather_gbs", "dram_read_gbs"})
    if (!j.contains(k)) return std::string("no ") + k;
  const std::pair<const char*, double> roofs[] = {
      {"dram_copy_gbs", c.dram_copy_gbs},    {"dram_read_gbs", c.dram_read_gbs},
      {"l2_copy_gbs", c.l2_copy_gbs},        {"l2_gather_gbs", c.l2_gather_gbs},
      {"fp32_gflops", c.fp32_gflops},        {"launch_us_plain", c.launch_us_plain},
      {"launch_us_graph", c.launch_us_graph}};
  for (const auto& [name, v] : roofs)
    if (!std::isfinite(v) || v <= 0) return std::string(name) + " " + std::to_string(v);
  return "";
}

}  // namespace

std::string ceilings_cache_problem(const nlohmann::json& j) {
  Ceilings c;
  return cache_problem(j, c);
}

Ceilings load_or_measure_ceilings(int device, Timer& timer, const std::string& cache_dir) {
  const DeviceInfo info = device_info(device, timer.nvml());
  const std::string path = ceilings_cache_path(cache_dir, info);
  if (std::ifstream in(path); in) {
    std::string why;
    try {
      const nlohmann::json j = nlohmann::json::parse(in);
      Ceilings cached;
      why = cache_problem(j, cached);
      if (why.empty() && cached.device_uuid == info.uuid && cached.driver == info.driver)
        return cached;
    } catch (const nlohmann::json::exception& e) {
      why = e.what();  // unreadable cache: measure again and overwrite it
    }
    if (!why.empty())
      std::fprintf(stderr, "ceilings: cache %s not used (%s): measuring again\n", path.c_str(),
                   why.c_str());
  }
  Ceilings c = measure_ceilings(device, timer);
  std::filesystem::create_directories(cache_dir);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write " + tmp);
    out << to_json(c).dump(2) << "\n";
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("cannot write " + tmp);
    }
  }
  std::filesystem::rename(tmp, path);  // atomic: concurrent workers never read half a file
  return c;
}

nlohmann::json to_json(const Ceilings& c) {
  return {{"dram_copy_gbs", c.dram_copy_gbs},
          {"dram_read_gbs", c.dram_read_gbs},
          {"l2_copy_gbs", c.l2_copy_gbs},
          {"l2_gather_gbs", c.l2_gather_gbs},
          {"fp32_gflops", c.fp32_gflops},
          {"launch_us_plain", c.launch_us_plain},
          {"launch_us_graph", c.launch_us_graph},
          {"device_uuid", c.device_uuid},
          {"driver", c.driver},
          {"method", c.method}};
}

Ceilings ceilings_from_json(const nlohmann::json& j) {
  Ceilings c;
  c.dram_copy_gbs = j.at("dram_copy_gbs").get<double>();
  c.dram_read_gbs = j.value("dram_read_gbs", 0.0);  // absent before cache format 3
  c.l2_copy_gbs = j.at("l2_copy_gbs").get<double>();
  c.l2_gather_gbs = j.value("l2_gather_gbs", 0.0);  // absent before cache format 2
  c.fp32_gflops = j.at("fp32_gflops").get<double>();
  c.launch_us_plain = j.at("launch_us_plain").get<double>();
  c.launch_us_graph = j.at("launch_us_graph").get<double>();
  c.device_uuid = j.at("device_uuid").get<std::string>();
  c.driver = j.at("driver").get<std::string>();
  c.method = j.value("method", nlohmann::json::object());
  return c;
}

void to_json(nlohmann::json& j, const Ceilings& c) {
  j = to_json(c);
}
void from_json(const nlohmann::json& j, Ceilings& c) {
  c = ceilings_from_json(j);
}

}  // namespace csrgat::profiler
