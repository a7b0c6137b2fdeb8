// tuner bench: the tuned dispatch (the production library as built, with its tuned header)
// and the baselines side by side on any graph, verified first, timed with the profiler's
// discipline (cold L2 by default), optionally with counters. Output: a table and JSON.
// With --rounds N each graph's implementations are timed round-robin (A B C A B C ...), each
// round taking 1/N of the sample and time limits, so drift of the machine during the run (a
// launch-included cold call moves by 5% from one process to the next) hits all alike and their
// ratios hold; the summaries are of all rounds' samples.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "csrgat/aggregate.h"
#include "csrgat/type_codes.h"
#include "graphs/features.h"
#include "graphs/generate.h"
#include "profiler/counters.h"
#include "profiler/kernels.h"
#include "profiler/nvtx.h"
#include "profiler/timer.h"
#include "reports/analysis.h"
#include "tuner/cli/commands.h"
#include "tuner/colblock.h"
#include "tuner/config.h"
#include "tuner/device_problem.h"
#include "tuner/nvrtc_compiler.h"
#include "tuner/space.h"
#include "tuner/verify.h"
#include "variants/reference.h"

#ifndef CSRGAT_TUNED_HEADER_NAME
#define CSRGAT_TUNED_HEADER_NAME "csrgat/tuned/default.h"
#endif

namespace csrgat::tuner {
namespace {

// " DRAM_GB/s L2_GB/s" columns of a result's counters (read as the report reads them,
// reports::counters_of) over their own GPU time (the kernels' gpu__time_duration), or why there
// are none.
std::string counter_rates(const nlohmann::json& r) {
  if (!r.contains("counters")) return "";
  const reports::Counters c = reports::counters_of(r["counters"]);
  if (!c.available) return "  counters: " + c.why;
  const nlohmann::json v = r["counters"].value("values", nlohmann::json::object());
  const double ns = v.contains("gpu__time_duration.sum") && v["gpu__time_duration.sum"].is_number()
                        ? v["gpu__time_duration.sum"].get<double>()
                        : 0.0;
  auto rate = [&](bool has, double bytes) { return has && ns > 0 ? bytes / ns : -1.0; };  // GB/s
  char buf[64];
  std::snprintf(buf, sizeof buf, " %12.0f %9.0f", rate(c.has_dram, c.dram_bytes),
                rate(c.has_l2, c.l2_bytes));
  return buf;
}

struct BenchOptions {
  std::vector<std::string> graphs;
  std::string config;
  std::vector<int> feats{64};
  int heads = 1;
  std::string impls = "tuned,seed,cusparse";
  std::string value = "f32";
  std::string out_storage = "f32";
  std::string cache = "cold";
  bool graph_replay = false;
  bool no_cupti = false;
  bool counters = false;
  double max_rel_noise = 0.005;
  int max_samples = 500;
  double max_seconds = 1.0;
  std::string json_path;
  uint64_t seed = 1;
  std::string cache_dir = "runs/bench-cache";
  int rounds = 1;
};

// An --impl item: an implementation, and ":pdl" after it to launch it overlapping the previous
// kernel (programmatic dependent launch: back-to-back launches overlap, which --graph-replay
// shows). Only kernels that wait for the previous one themselves can: the fused family (the
// tuned dispatch and fused ids) and the empty kernel.
struct ImplSpec {
  std::string name;
  bool overlap = false;
};
ImplSpec parse_impl(const std::string& item) {
  const std::string suffix = ":pdl";
  ImplSpec s{item, false};
  if (item.size() > suffix.size() && item.compare(item.size() - suffix.size(), suffix.size(), suffix) == 0) {
    s.name = item.substr(0, item.size() - suffix.size());
    s.overlap = true;
  }
  if (s.name.find(':') != std::string::npos)
    throw std::invalid_argument("bench --impl " + item + ": the only option after ':' is pdl");
  static const char* const kNamed[] = {"tuned",    "tuned_call", "seed",
                                       "cusparse", "empty",      "colblock"};
  Family family = Family::fused;  // of a variant id
  if (std::find(std::begin(kNamed), std::end(kNamed), s.name) == std::end(kNamed))
    family = parse_variant_arg("bench --impl " + item, s.name,
                               " (or one of tuned, tuned_call, seed, cusparse, empty, colblock)")
                 .family;
  if (s.overlap && s.name == "colblock")
    throw std::invalid_argument("bench --impl " + item + ": colblock cannot overlap the previous kernel");
  if (s.overlap && s.name != "tuned" && s.name != "tuned_call" && s.name != "empty" &&
      (s.name == "seed" || s.name == "cusparse" || family != Family::fused))
    throw std::invalid_argument("bench --impl " + item +
                                ": only the tuned dispatch, fused variants and empty can overlap "
                                "the previous kernel (they wait for it themselves)");
  return s;
}

// One implementation of one (graph, F) row, verified and ready to time.
struct Entry {
  std::string impl;
  Family family = Family::fused;  // of the variant, or the library's dispatch ("tuned")
  bool overlap = false;  // launched as a programmatic dependent launch (":pdl")
  ValueType out = ValueType::f32;  // how it stores out (--out)
  // The values it reads: --value's, a fused id's own, float32 for cuSPARSE (its tolerance, its
  // row's "value" and the buffer a late producer writes follow it).
  ValueType value = ValueType::f32;
  nlohmann::json r;
  std::function<void(cudaStream_t)> launch;
  std::unique_ptr<LoadedKernel> kernel;
  std::unique_ptr<Shape> shape;
  std::unique_ptr<Call> call;  // tuned_call's, over shape
  std::unique_ptr<ColblockKernel> colblock;  // colblock's, planned for the graph
  bool timed = false;  // verified correct: to be timed
  double tol = 0;       // its verification's relative tolerance (0: nothing to verify)
  std::vector<profiler::TimingResult> rounds;  // its timed rounds (profiler::pool_rounds)
  std::string range_graph, range_variant;      // its NVTX ranges' graph and variant parts
  // The item as the table shows it: with its out storage where that is not float32.
  std::string shown() const { return out == ValueType::f32 ? impl : impl + ">" + to_string(out); }
};

// A storage named on the command line (f32, bf16, f16).
ValueType parse_storage(const char* flag, const std::string& s) {
  for (const ValueType t : {ValueType::f32, ValueType::bf16, ValueType::f16})
    if (s == to_string(t)) return t;
  throw std::invalid_argument(std::string("bench ") + flag + " " + s +
                              ": expected f32, bf16 or f16");
}

// Each --impl item with each --out storage, in that order; the empty kernel once (it writes no
// out).
std::vector<std::pair<std::string, ValueType>> impl_outs(const std::vector<std::string>& impls,
                                                         const std::vector<ValueType>& outs) {
  std::vector<std::pair<std::string, ValueType>> r;
  for (const auto& item : impls)
    for (const ValueType ov : outs) {
      if (parse_impl(item).name == "empty" && ov != outs.front()) continue;
      r.emplace_back(item, ov);
    }
  return r;
}

// Round k's share of the stop rule: 1/rounds of the samples (at least one) and of the time.
profiler::TimingOptions round_options(profiler::TimingOptions o, int rounds) {
  if (rounds <= 1) return o;
  o.stop.min_samples = std::max(1, (o.stop.min_samples + rounds - 1) / rounds);
  o.stop.max_samples = std::max(o.stop.min_samples, o.stop.max_samples / rounds);
  o.stop.max_seconds /= rounds;
  return o;
}

// An implementation that cannot run this problem (a kernel's limits, 16-bit out of a baseline):
// its row says so, and it is not a failure of the run.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The arguments, checked before the GPU check and before any graph is built (a typo in the last
// --graph or --impl is reported at once, not after the graphs before it were timed): the
// implementations, storages, graphs (a config's too), stop rule and output file.
std::vector<std::pair<std::string, std::string>> checked_graphs(const BenchOptions& o) {
  for (const auto& item : nonempty_list("bench --impl", o.impls)) parse_impl(item);
  if (!(o.max_rel_noise >= 0 && std::isfinite(o.max_rel_noise)))
    throw std::invalid_argument("bench --max-noise " + std::to_string(o.max_rel_noise) +
                                ": a relative noise, 0 or more");
  if (!(o.max_seconds > 0 && std::isfinite(o.max_seconds)))
    throw std::invalid_argument("bench --max-seconds " + std::to_string(o.max_seconds) +
                                ": a time limit, more than 0");
  check_output_path("bench --json", o.json_path);
  std::vector<std::pair<std::string, std::string>> graph_list;  // (name, spec)
  if (!o.config.empty()) {
    const Config cfg = load_config(o.config);
    check_config_graphs(cfg);
    for (const auto& g : cfg.graphs) graph_list.emplace_back(g.name, g.spec);
  }
  for (const auto& g : o.graphs) {
    check_graph_spec("bench --graph", g);
    graph_list.emplace_back(g, g);
  }
  if (graph_list.empty())
    throw std::invalid_argument("bench: give --graph SPEC (repeatable) or --config FILE");
  return graph_list;
}

int bench(const BenchOptions& o) {
  std::vector<ValueType> outs;  // each implementation is timed writing each of them
  for (const auto& os : split_list(o.out_storage)) outs.push_back(parse_storage("--out", os));
  if (outs.empty())
    throw std::invalid_argument("bench --out: give f32, bf16 or f16 (a comma list)");
  const ValueType value = parse_storage("--value", o.value);
  const std::vector<std::pair<std::string, std::string>> graph_list = checked_graphs(o);
  std::string why;
  if (!gpu_available(&why)) return no_gpu_exit("bench", why);
  const std::vector<int>& feats = o.feats;
  profiler::TimingOptions topt;
  topt.cache = o.cache == "warm" ? profiler::CacheMode::warm : profiler::CacheMode::cold;
  topt.graph_replay = o.graph_replay;
  topt.use_cupti = !o.no_cupti;
  topt.stop.max_rel_noise = o.max_rel_noise;
  topt.stop.max_samples = o.max_samples;
  topt.stop.max_seconds = o.max_seconds;
  profiler::Timer timer(0);
  std::unique_ptr<profiler::CounterSession> counters;
  if (o.counters)
    counters = std::make_unique<profiler::CounterSession>(0, profiler::default_metrics(),
                                                          profiler::tool_counter_options());
  NvrtcCompiler compiler(device_arch(0), o.cache_dir);  // the GPU it times

  nlohmann::json out{{"meta", {{"tuned_header", CSRGAT_TUNED_HEADER_NAME}, {"library_archs", compiled_archs()}, {"timing", profiler::to_json(topt)}, {"rounds", o.rounds}}},
                     {"devices", nlohmann::json::array({profiler::to_json(profiler::device_info(0))})},
                     {"results", nlohmann::json::array()}};
  std::printf("%-26s %5s %-10s %-66s %10s %10s %9s %8s%s\n", "graph", "F", "impl", "variant", "gpu_us",
              "event_us", "noise%", "rel_err", o.counters ? "   DRAM_GB/s   L2_GB/s" : "");
  int failures = 0;
  for (const auto& [name, spec] : graph_list) {
    // A graph or problem that fails as a whole (a file that does not read, no memory for the
    // problem, a CUDA error that outlives its row) is an error row, and the rows before it and
    // the JSON are kept.
    const auto failed = [&](const nlohmann::json& feat, const std::exception& ex) {
      ++failures;
      nlohmann::json r{{"graph", name},    {"spec", spec},      {"feat", feat},
                       {"heads", o.heads}, {"status", "error"}, {"detail", ex.what()}};
      std::printf("%-26s %5s error: %s\n", name.c_str(),
                  feat.is_null() ? "-" : std::to_string(feat.get<int>()).c_str(), ex.what());
      std::fflush(stdout);
      out["results"].push_back(std::move(r));
    };
    graphs::Csr64 g;
    try {
      g = graphs::make_graph(spec);
    } catch (const std::exception& ex) {
      failed(nullptr, ex);
      continue;
    }
    for (int feat : feats) {
      try {
        const auto in = graphs::make_inputs(g, o.heads, feat, o.seed);
        DeviceProblem dp(g, in);
        dp.set_reference(reference_aggregate(g, in));
        const IndexType index = dp.fits_int32() ? IndexType::i32 : IndexType::i64;
        // Prepared and verified first, all of them, so that the rounds below only time.
        std::vector<Entry> entries;
        for (const auto& [item, out_value] : impl_outs(split_list(o.impls), outs)) {
          // The fused family's out storage; the others refuse 16-bit out (unsupported_reason).
          dp.set_out_storage(out_value);
          Entry& e = entries.emplace_back();
          e.impl = item;
          e.out = out_value;
          e.value = value;  // --value's, unless the implementation runs another
          nlohmann::json& r = e.r;
          r = {{"graph", name},
               {"spec", spec},
               {"feat", feat},
               {"heads", o.heads},
               {"impl", item},
               {"value", to_string(value)},
               {"out", to_string(out_value)}};
          std::string variant;
          try {
            const ImplSpec is = parse_impl(item);
            const std::string& impl = is.name;
            e.overlap = is.overlap;
            r["overlap_previous"] = is.overlap;
            if (impl == "empty") {
              // The launch floor, timed exactly like the others (same cache mode, timer, stop
              // rule): an empty <<<1, 1>>> kernel. Nothing to verify.
              variant = "empty<<<1,1>>>";
              if (is.overlap)
                e.launch = [](cudaStream_t s) { profiler::detail::launch_empty_overlapped(s); };
              else
                e.launch = [](cudaStream_t s) { profiler::detail::launch_empty(s); };
            } else if (impl == "tuned" || impl == "tuned_call") {
              // The Shape from the graph's device arrays, as a caller who keeps the graph there
              // makes it: a rule's column-blocked sweep is planned (untimed, once a graph) and
              // runs.
              const GraphView gv{dp.row_ptr(index), dp.col(index), dp.num_nodes(), dp.num_edges(),
                                 index_of(index)};
              e.shape = std::make_unique<Shape>();
              const Status st = Shape::create(gv, dp.host_row_ptr().data(), o.heads, feat,
                                              storage_of(value), e.shape.get());
              // The library's own message names what failed and where (last_error_message).
              if (st == Status::unsupported)
                throw Unsupported(std::string("unsupported: ") + last_error_message());
              if (st != Status::ok)
                throw std::runtime_error(std::string(status_string(st)) + ": " +
                                         last_error_message());
              variant = e.shape->variant_id();
              const void* vals = dp.values(value);
              Shape* sp = e.shape.get();
              const LaunchOptions lo{is.overlap};
              const Output out_buf{dp.out(), storage_of(out_value)};
              // tuned_call's prepared call; with a 16-bit out also what names the kernel that runs
              // (a rule's sweep writes float32: its family kernel's `.o16` runs instead).
              if (impl == "tuned_call" || out_value != ValueType::f32) {
                e.call = std::make_unique<Call>();
                const Status st2 = Call::create(gv, dp.scores(), vals, storage_of(value), o.heads,
                                                feat, out_buf, sp, lo, e.call.get());
                if (st2 == Status::unsupported)
                  throw Unsupported(std::string("unsupported: ") + last_error_message());
                if (st2 != Status::ok)
                  throw std::runtime_error(std::string(status_string(st2)) + ": " +
                                           last_error_message());
                variant = e.call->variant_id();
              }
              if (impl == "tuned") {
                e.call.reset();
                e.launch = [&dp, gv, vals, sp, value, feat, lo, out_buf,
                            heads = o.heads](cudaStream_t s) {
                  const Status st2 = aggregate(gv, dp.scores(), vals, storage_of(value), heads,
                                               feat, out_buf, s, sp, lo);
                  if (st2 != Status::ok)
                    throw std::runtime_error(std::string(status_string(st2)) + ": " +
                                             last_error_message());
                };
              } else {  // the same dispatch, prepared once: each sample is Call::launch alone
                e.launch = [c = e.call.get()](cudaStream_t s) {
                  const Status st3 = c->launch(s);
                  if (st3 != Status::ok)
                    throw std::runtime_error(std::string(status_string(st3)) + ": " +
                                             last_error_message());
                };
              }
            } else if (impl == "colblock") {
              // The column-blocked sweep (tuner/colblock.h), planned here on the device (untimed,
              // once a graph).
              ColblockOptions co;
              co.value = static_cast<int>(value);
              const std::string why = ColblockKernel::unsupported(g, o.heads, feat, 0, co);
              if (!why.empty()) throw Unsupported("unsupported: " + why);
              if (out_value != ValueType::f32)
                throw Unsupported("unsupported: colblock: float32 out only");
              if (index != IndexType::i32)
                throw Unsupported("unsupported: colblock: int32 structure only");
              e.colblock = std::make_unique<ColblockKernel>(
                  g, static_cast<const int*>(dp.row_ptr(IndexType::i32)),
                  static_cast<const int*>(dp.col(IndexType::i32)), dp.scores(), dp.values(value),
                  dp.out(), 0, co);
              variant = "colblock";
              e.launch = [k = e.colblock.get()](cudaStream_t s) { k->launch(s); };
            } else {
              VariantParams p = VariantParams::parse(impl);
              if (impl == "seed" || impl == "cusparse") {
                p.index = index;
                p.value = impl == "cusparse" ? ValueType::f32 : value;
              }
              e.value = p.value;  // a fused id's own (its id names it), cuSPARSE's float32
              // A 16-bit out: the id's `.o16` kernel (unsupported_reason refuses other pairs).
              if (p.family == Family::fused && out_value != ValueType::f32) p.out16 = 1;
              variant = p.id();
              e.family = p.family;
              const std::string unsupported = dp.unsupported_reason(p);
              if (!unsupported.empty()) throw Unsupported("unsupported: " + unsupported);
              e.kernel = std::make_unique<LoadedKernel>(compiler.compile(p));
              e.launch = [&dp, p, k = e.kernel.get(), ov = is.overlap](cudaStream_t s) {
                dp.launch(p, *k, s, ov);
              };
            }
            r["variant"] = variant;
            r["value"] = to_string(e.value);
            // Its NVTX ranges apart from every other row's: the item as given (`tuned`,
            // `tuned_call`, `X:pdl`, `>bf16` out) and the kernel it runs, under the graph and F.
            e.range_graph = name + ".F" + std::to_string(feat);
            e.range_variant = e.shown() + (variant == e.impl ? "" : "=" + variant);
            // Each launch stores out as its entry says, and the checks read it so.
            e.launch = [&dp, ov = out_value, f = std::move(e.launch)](cudaStream_t s) {
              dp.set_out_storage(ov);
              f(s);
            };
            bool correct = true;
            if (impl != "empty") {
              const bool is16 = e.value != ValueType::f32 || out_value != ValueType::f32;
              e.tol = is16 ? 1e-2 : 1e-5;
              VerifyResult v;
              {
                profiler::ScopedRange range(e.range_graph, e.range_variant,
                                            profiler::Phase::verify);
                v = verify_launch(dp, e.launch, e.tol);
                if (v.status == TrialStatus::ok && e.overlap) {
                  // Overlapped: checked after a previous kernel that writes the inputs late too.
                  const VerifyResult o = verify_after_late_producer(dp, e.value, e.launch, e.tol);
                  if (o.status != TrialStatus::ok) v = o;
                }
              }
              if (v.status == TrialStatus::launch_failed) throw std::runtime_error(v.detail);
              r["rel_error"] = v.rel_error;
              r["correct"] = correct = v.status == TrialStatus::ok;
              if (!correct) {
                ++failures;
                r["status"] = "wrong";
                r["detail"] = v.detail;
              }
            }
            e.timed = correct;
          } catch (const Unsupported& ex) {
            r["status"] = "unsupported";
            r["detail"] = ex.what();
          } catch (const std::exception& ex) {
            ++failures;
            r["status"] = "error";
            r["detail"] = ex.what();
          }
        }
        // Timed round by round; one round is the whole measurement of each in turn.
        // At most max_samples rounds: each takes at least one sample.
        const int rounds = std::max(1, std::min(o.rounds, topt.stop.max_samples));
        profiler::TimingOptions per_round = round_options(topt, rounds);
        // The rows' timers (of rows still timed), which the table sets side by side.
        std::set<std::string> timers;
        const auto time_rounds = [&] {
          for (Entry& e : entries) e.rounds.clear();
          for (int round = 0; round < rounds; ++round) {
            for (Entry& e : entries) {
              if (!e.timed) continue;
              try {
                profiler::ScopedRange range(e.range_graph, e.range_variant,
                                            profiler::Phase::measure);
                e.rounds.push_back(
                    timer.measure([&](cudaStream_t s, int) { e.launch(s); }, per_round));
                if (e.overlap && e.tol > 0) {
                  // Overlapped launches are checked again on what the timed launches left in
                  // out: races among a kernel's own launches show here (a read before the wait
                  // is verify_after_late_producer's to catch, above).
                  const VerifyResult after = check_output(dp, e.tol);
                  if (after.status != TrialStatus::ok) {
                    ++failures;
                    e.timed = false;
                    e.r["status"] = "wrong";
                    e.r["detail"] = "after the timed (overlapped) launches: " + after.detail;
                  }
                }
              } catch (const std::exception& ex) {
                ++failures;
                e.timed = false;
                e.r["status"] = "error";
                e.r["detail"] = ex.what();
              }
            }
          }
          timers.clear();
          for (const Entry& e : entries)
            if (e.timed)
              for (const auto& tr : e.rounds) timers.insert(tr.timer);
        };
        time_rounds();
        // One timer under one condition for all the rows: where a row lost CUPTI, every row is
        // timed again by events, untraced (a traced launch's event time carries CUPTI's
        // per-launch cost), as the tuner's interleaved leaders are.
        std::string again;
        if (timers.size() > 1 && per_round.use_cupti) {
          again = profiler::timer_names(timers);
          per_round.use_cupti = false;
          time_rounds();
        }
        // Still two timers (a graph that did not capture): event times for all, and said so.
        const bool as_events = timers.size() > 1;
        for (Entry& e : entries) {
          nlohmann::json& r = e.r;
          if (e.timed) {
            try {
              const profiler::TimingResult tr =
                  profiler::pool_rounds(std::move(e.rounds), as_events);
              r["status"] = "ok";
              r["timing"] = profiler::to_json(tr);
              if (rounds > 1) r["timing"]["rounds"] = rounds;
              // The timers the rows had before every row was timed again by events.
              if (!again.empty()) r["timing"]["retimed_from"] = again;
              r["gpu_median_us"] = tr.gpu.median;
              r["event_median_us"] = tr.event.median;
              r["rel_noise"] = tr.gpu.rel_noise;
              r["timer"] = tr.timer;
              if (e.colblock) r["colblock"] = e.colblock->describe();
              if (counters && e.impl != "empty") {
                profiler::ScopedRange crange(e.range_graph, e.range_variant,
                                             profiler::Phase::counters);
                r["counters"] = profiler::to_json(collect_counters(*counters, e.family, e.launch));
              }
            } catch (const std::exception& ex) {
              ++failures;
              r["status"] = "error";
              r["detail"] = ex.what();
            }
          }
          std::printf("%-26s %5d %-10s %-66s %10.2f %10.2f %9.2f %8.1e%s %s\n", name.c_str(), feat,
                      e.shown().c_str(), r.value("variant", std::string("-")).c_str(),
                      r.value("gpu_median_us", 0.0), r.value("event_median_us", 0.0),
                      100 * r.value("rel_noise", 0.0), r.value("rel_error", 0.0),
                      o.counters ? counter_rates(r).c_str() : "",
                      r["status"] == "ok" ? ""
                                          : (r["status"].get<std::string>() + ": " +
                                             r.value("detail", std::string()))
                                                .c_str());
          std::fflush(stdout);
          out["results"].push_back(r);
        }
        if (!again.empty())
          std::printf(
              "%-26s %5d note: rows timed by %s: every row timed again by events, "
              "untraced (launch included)\n",
              name.c_str(), feat, again.c_str());
        if (as_events) {
          std::string list;
          for (const auto& t : timers) list += (list.empty() ? "" : ", ") + t;
          std::printf(
              "%-26s %5d note: rows still timed by %s: every row's gpu_us is its event "
              "time (a graph replay's per launch)\n",
              name.c_str(), feat, list.c_str());
        }
      } catch (const std::exception& ex) {
        failed(feat, ex);
      }
    }
  }
  if (!o.json_path.empty()) {
    std::ofstream f(o.json_path);
    f << out.dump(1) << "\n";
    f.close();
    if (!f) {  // the table above has the results; say plainly that the file does not
      std::fprintf(stderr,
                   "tuner bench: error: could not write %s: %s (the results are the table above)\n",
                   o.json_path.c_str(), std::strerror(errno));
      return 1;
    }
    std::printf("wrote %s\n", o.json_path.c_str());
  }
  return failures ? 1 : 0;
}

}  // namespace

void register_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Time the tuned dispatch and the baselines side by side on any graph (GPU)");
  static BenchOptions o;
  cmd->add_option("--graph", o.graphs, "graph file or generator spec (repeatable)");
  cmd->add_option("--config", o.config, "take the graphs of a config");
  cmd->add_option("--feat", o.feats, "feature widths")
      ->delimiter(',')
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--heads", o.heads, "attention heads")->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--impl", o.impls,
                  "comma list: tuned (the library's aggregate()), tuned_call (the same through a csrgat::Call "
                  "prepared once), seed, cusparse, empty (an empty kernel: the launch floor), colblock (the "
                  "column-blocked sweep of DRAM-bound graphs: F = 128, float32 or bfloat16, planned once), or variant ids; "
                  "tuned, tuned_call, empty and fused ids take a ':pdl' suffix (launched overlapping the previous "
                  "kernel)");
  cmd->add_option("--value", o.value, "value storage: f32, bf16, f16");
  cmd->add_option(
      "--out", o.out_storage,
      "out storage, a comma list: f32 (default), bf16, f16 (16-bit: the tuned dispatch and fused "
      "ids, each result rounded from its float32 sum); each implementation is timed with each, "
      "round-robin");
  cmd->add_option("--cache", o.cache, "cold (flush L2 before each sample, default) or warm")
      ->check(CLI::IsMember({"cold", "warm"}));
  cmd->add_flag("--graph-replay", o.graph_replay, "time CUDA Graph replays (back-to-back launches)");
  cmd->add_flag("--events", o.no_cupti, "time with CUDA events only (launch included, no CUPTI tracing overhead)");
  cmd->add_flag("--counters", o.counters, "also read hardware counters (separate pass)");
  cmd->add_option("--max-noise", o.max_rel_noise, "stop once the median's relative noise is below this");
  cmd->add_option("--max-samples", o.max_samples, "sample limit per measurement")
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--max-seconds", o.max_seconds, "time limit per measurement");
  cmd->add_option("--seed", o.seed, "input seed")->check(seed_validator());
  cmd->add_option("--json", o.json_path, "write the results as JSON here");
  cmd->add_option("--cache-dir", o.cache_dir, "NVRTC cubin cache");
  cmd->add_option("--rounds", o.rounds,
                  "time each graph's implementations round-robin in this many rounds, each with 1/N of "
                  "the sample and time limits (drift hits all alike)")
      ->check(CLI::Range(1, 1000));
  cmd->callback([] {
    guarded("bench", [] { return bench(o); });
  });
}

}  // namespace csrgat::tuner
