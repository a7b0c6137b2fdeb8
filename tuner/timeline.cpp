#include "tuner/timeline.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <stdexcept>

#include "profiler/stats.h"
#include "variants/plan.h"

namespace csrgat::tuner {

TimelineLayout timeline_layout(const VariantParams& p, const std::vector<int64_t>& row_ptr, int heads) {
  TimelineLayout l;
  l.row_ptr = &row_ptr;
  l.heads = heads;
  l.split = p.split;
  l.num_rows = static_cast<int64_t>(row_ptr.size()) - 1;
  if (p.split > 0) l.chunks = build_split_plan(row_ptr, p.split, chunks_per_block(p, heads));
  if (p.lpt) l.row_order = build_row_order(row_ptr, p.split);
  return l;
}

namespace {

// The class a task's duration is reported under.
std::string kind_of(const TimelineTask& t, int64_t split) {
  if (t.chunk) return t.row < 0 ? "pad" : "chunk";
  if (split > 0 && t.edges > split) return "row done as chunks";
  if (t.edges == 0) return "row 0";
  if (t.edges <= 4) return "row 1-4";
  if (t.edges <= 16) return "row 5-16";
  if (t.edges <= 64) return "row 17-64";
  return "row >64";
}

nlohmann::json quantiles(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {{"n", 0}};
  return {{"n", v.size()},
          {"min", v.front()},
          {"median", profiler::quantile_sorted(v, 0.5)},
          {"p90", profiler::quantile_sorted(v, 0.9)},
          {"max", v.back()}};
}

}  // namespace

std::vector<TimelineTask> name_timeline(const std::vector<TimelineRecord>& records,
                                        const TimelineLayout& layout) {
  const auto& rp = *layout.row_ptr;
  const int64_t H = layout.heads;
  const int64_t chunk_tasks = static_cast<int64_t>(layout.chunks.size()) * H;
  const int64_t total = chunk_tasks + layout.num_rows * H;
  if (static_cast<int64_t>(records.size()) < total)
    throw std::invalid_argument("timeline: " + std::to_string(records.size()) + " records for " +
                                std::to_string(total) + " tasks");
  unsigned long long first = ~0ull;
  for (int64_t i = 0; i < total; ++i) {
    const auto& r = records[static_cast<size_t>(i)];
    if (r.start_ns == 0 || r.end_ns < r.start_ns)
      throw std::invalid_argument("timeline: task " + std::to_string(i) + " has no record (start " +
                                  std::to_string(r.start_ns) + " ns, end " + std::to_string(r.end_ns) +
                                  " ns): did the kernel run the diagnostic build?");
    first = std::min(first, r.start_ns);
  }
  std::vector<TimelineTask> out;
  out.reserve(static_cast<size_t>(total));
  for (int64_t i = 0; i < total; ++i) {
    const auto& r = records[static_cast<size_t>(i)];
    TimelineTask t;
    t.task = i;
    t.sm = r.sm;
    t.block = r.block;
    t.cycles = r.cycles;
    t.start_us = static_cast<double>(r.start_ns - first) * 1e-3;
    t.end_us = static_cast<double>(r.end_ns - first) * 1e-3;
    for (int m = 0; m < kTimelineMarks; ++m) {
      if (r.mark[m] == 0) continue;
      // The mark's low 32 bits, after the start (the task is far shorter than 4.29 s).
      unsigned long long at = (r.start_ns & ~0xffffffffull) | r.mark[m];
      if (at < r.start_ns) at += 1ull << 32;
      t.mark_us[m] = static_cast<double>(at - first) * 1e-3;
    }
    if (i < chunk_tasks) {
      const ChunkDesc& c = layout.chunks[static_cast<size_t>(i / H)];
      t.chunk = true;
      t.head = static_cast<int>(i % H);
      t.row = c.count == 0 ? -1 : c.row;
      t.edges = c.end - c.begin;
    } else {
      const int64_t rt = (i - chunk_tasks) / H;
      t.head = static_cast<int>((i - chunk_tasks) % H);
      t.row = layout.row_order.empty() ? rt : layout.row_order[static_cast<size_t>(rt)];
      t.edges = rp[static_cast<size_t>(t.row) + 1] - rp[static_cast<size_t>(t.row)];
    }
    t.kind = kind_of(t, layout.split);
    out.push_back(t);
  }
  return out;
}

uint64_t timer_step_ns(const std::vector<TimelineRecord>& records) {
  std::vector<uint64_t> stamps;
  for (const auto& r : records) {
    if (r.start_ns == 0) continue;
    stamps.push_back(r.start_ns);
    stamps.push_back(r.end_ns);
  }
  std::sort(stamps.begin(), stamps.end());
  stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
  uint64_t step = 0;
  for (size_t i = 1; i < stamps.size(); ++i) {
    const uint64_t d = stamps[i] - stamps[i - 1];
    if (step == 0 || d < step) step = d;
  }
  return step;
}

nlohmann::json summarize_timeline(const std::vector<TimelineTask>& tasks, int last) {
  nlohmann::json s;
  if (tasks.empty()) return {{"tasks", 0}};
  double span = 0, first_end = tasks.front().end_us;
  std::vector<double> starts;
  for (const auto& t : tasks) {
    span = std::max(span, t.end_us);
    first_end = std::min(first_end, t.end_us);
    starts.push_back(t.start_us);
  }
  int64_t late = 0;
  for (const auto& t : tasks) late += t.start_us > first_end;
  s["tasks"] = tasks.size();
  s["span_us"] = span;
  s["first_end_us"] = first_end;
  s["start_us"] = quantiles(starts);
  s["started_after_first_end"] = late;

  // Per kind: durations; and the tasks' edges.
  std::map<std::string, std::vector<double>> dur, cyc;
  std::map<std::string, std::vector<double>> marks[kTimelineMarks];
  std::map<std::string, int64_t> edges;
  for (const auto& t : tasks) {
    dur[t.kind].push_back(t.duration_us());
    cyc[t.kind].push_back(static_cast<double>(t.cycles));
    edges[t.kind] += t.edges;
    for (int m = 0; m < kTimelineMarks; ++m)
      if (t.mark_us[m] >= 0) marks[m][t.kind].push_back(t.mark_us[m] - t.start_us);
  }
  nlohmann::json kinds = nlohmann::json::object();
  for (auto& [k, v] : dur) {
    kinds[k] = quantiles(v);
    kinds[k]["cycles_median"] = quantiles(cyc[k])["median"];
    kinds[k]["edges"] = edges[k];
    nlohmann::json m = nlohmann::json::array();
    for (auto& mk : marks) m.push_back(mk.count(k) ? quantiles(mk[k])["median"] : nlohmann::json());
    kinds[k]["mark_median_us"] = m;
  }
  s["kinds"] = kinds;

  std::map<unsigned, double> sm_end;
  std::map<unsigned, int64_t> sm_tasks;
  for (const auto& t : tasks) {
    sm_end[t.sm] = std::max(sm_end[t.sm], t.end_us);
    ++sm_tasks[t.sm];
  }
  std::vector<double> ends, counts;
  for (const auto& [sm, e] : sm_end) {
    ends.push_back(e);
    counts.push_back(static_cast<double>(sm_tasks[sm]));
  }
  s["sms"] = {{"used", sm_end.size()}, {"finish_us", quantiles(ends)}, {"tasks", quantiles(counts)}};

  std::vector<const TimelineTask*> by_end;
  for (const auto& t : tasks) by_end.push_back(&t);
  std::sort(by_end.begin(), by_end.end(),
            [](const TimelineTask* a, const TimelineTask* b) { return a->end_us > b->end_us; });
  nlohmann::json tail = nlohmann::json::array();
  for (int i = 0; i < last && i < static_cast<int>(by_end.size()); ++i) {
    const auto& t = *by_end[static_cast<size_t>(i)];
    tail.push_back({{"task", t.task}, {"kind", t.kind}, {"row", t.row}, {"edges", t.edges},
                    {"head", t.head}, {"sm", t.sm}, {"block", t.block}, {"start_us", t.start_us},
                    {"end_us", t.end_us}, {"cycles", t.cycles},
                    {"mark_us", std::vector<double>(std::begin(t.mark_us), std::end(t.mark_us))}});
  }
  s["last"] = tail;
  return s;
}

std::string format_timeline(const nlohmann::json& s) {
  std::string out;
  char line[256];
  auto q = [&](const nlohmann::json& j) {
    std::snprintf(line, sizeof line, "n %5lld  min %6.2f  median %6.2f  p90 %6.2f  max %6.2f",
                  static_cast<long long>(j.value("n", 0)), j.value("min", 0.0), j.value("median", 0.0),
                  j.value("p90", 0.0), j.value("max", 0.0));
    return std::string(line);
  };
  std::snprintf(line, sizeof line, "tasks %lld, span %.2f us (first task ended at %.2f us; %lld tasks started after it)\n",
                static_cast<long long>(s.value("tasks", 0)), s.value("span_us", 0.0),
                s.value("first_end_us", 0.0), static_cast<long long>(s.value("started_after_first_end", 0)));
  out += line;
  if (s.contains("start_us")) out += "  starts (us):   " + q(s["start_us"]) + "\n";
  if (s.contains("sms")) {
    out += "  SM finish (us): " + q(s["sms"]["finish_us"]) + "\n";
    out += "  tasks per SM:   " + q(s["sms"]["tasks"]) + "\n";
  }
  if (s.contains("kinds"))
    for (const auto& [k, v] : s["kinds"].items()) {
      std::snprintf(line, sizeof line, "  %-20s %s us, %lld edges, median %.0f cycles", k.c_str(),
                    q(v).c_str(), static_cast<long long>(v.value("edges", 0)), v.value("cycles_median", 0.0));
      out += line;
      if (v.contains("mark_median_us"))
        for (size_t m = 0; m < v["mark_median_us"].size(); ++m)
          if (v["mark_median_us"][m].is_number()) {
            std::snprintf(line, sizeof line, "; mark %zu at +%.2f", m, v["mark_median_us"][m].get<double>());
            out += line;
          }
      out += "\n";
    }
  if (s.contains("last")) {
    out += "  last to end:\n";
    for (const auto& t : s["last"]) {
      std::snprintf(line, sizeof line, "    task %6lld %-20s row %7lld edges %5lld sm %3u block %5u  %6.2f -> %6.2f us\n",
                    static_cast<long long>(t["task"].get<int64_t>()), t["kind"].get<std::string>().c_str(),
                    static_cast<long long>(t["row"].get<int64_t>()),
                    static_cast<long long>(t["edges"].get<int64_t>()), t["sm"].get<unsigned>(),
                    t["block"].get<unsigned>(), t["start_us"].get<double>(), t["end_us"].get<double>());
      out += line;
      if (t.contains("mark_us")) {
        out.pop_back();  // the newline
        for (size_t m = 0; m < t["mark_us"].size(); ++m)
          if (t["mark_us"][m].get<double>() >= 0) {
            std::snprintf(line, sizeof line, "  m%zu %.2f", m, t["mark_us"][m].get<double>());
            out += line;
          }
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace csrgat::tuner
