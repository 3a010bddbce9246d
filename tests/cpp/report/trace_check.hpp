#pragma once
// Checks a document against the trace event format (the JSON that ui.perfetto.dev and
// chrome://tracing open): every event has name, ph, pid, tid (and ts, dur for "X", ts and
// numeric args for "C"); timestamps never go back on a track; the slices of a track nest.

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace kscope::testing {

/// One text per problem found; empty when `doc` follows the format.
inline std::vector<std::string> trace_problems(const nlohmann::json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    return {"no traceEvents array"};
  }
  std::map<std::tuple<int, long long>, double> last_ts;     // X slices per (pid, tid)
  std::map<std::tuple<int, long long>, std::vector<double>> open_ends;
  std::map<std::tuple<int, std::string>, double> last_counter;  // C per (pid, name)
  std::size_t i = 0;
  for (const auto& e : doc["traceEvents"]) {
    const std::string at = "event " + std::to_string(i++);
    for (const char* key : {"name", "ph", "pid", "tid"}) {
      if (!e.contains(key)) out.push_back(at + " has no " + key);
    }
    if (!e.contains("ph") || !e.contains("pid") || !e.contains("tid")) continue;
    const std::string ph = e["ph"];
    const auto track = std::make_tuple(e["pid"].get<int>(), e["tid"].get<long long>());
    if (ph == "M") continue;
    if (!e.contains("ts") || !e["ts"].is_number()) {
      out.push_back(at + " has no numeric ts");
      continue;
    }
    const double ts = e["ts"];
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) {
        out.push_back(at + " (X) has no non-negative dur");
        continue;
      }
      auto it = last_ts.find(track);
      if (it != last_ts.end() && ts < it->second) out.push_back(at + " goes back in time on its track");
      last_ts[track] = ts;
      auto& ends = open_ends[track];
      // Times are microseconds with nanosecond digits: equal within 1 ps is equal.
      while (!ends.empty() && ends.back() <= ts + 1e-6) ends.pop_back();
      const double end = ts + e["dur"].get<double>();
      if (!ends.empty() && end > ends.back() + 1e-6) {
        out.push_back(at + " (" + e["name"].get<std::string>() + ") overlaps its enclosing slice");
      }
      ends.push_back(end);
    } else if (ph == "C") {
      if (!e.contains("args") || !e["args"].is_object() || e["args"].empty()) {
        out.push_back(at + " (C) has no args");
        continue;
      }
      for (const auto& [k, v] : e["args"].items()) {
        if (!v.is_number()) out.push_back(at + " (C) arg " + k + " is not a number");
      }
      const auto key = std::make_tuple(e["pid"].get<int>(), e["name"].get<std::string>());
      auto it = last_counter.find(key);
      if (it != last_counter.end() && ts < it->second) out.push_back(at + " counter goes back in time");
      last_counter[key] = ts;
    } else {
      out.push_back(at + " has an unexpected ph " + ph);
    }
  }
  return out;
}

}  // namespace kscope::testing
