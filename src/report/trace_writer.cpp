// Format "trace": the session as a Chrome / Perfetto trace (trace event format JSON, which
// ui.perfetto.dev and chrome://tracing open). Process 1 is the host: one track with the configs,
// runs, replay passes and the phases of every run (thermal pause, L2 flush at region entry,
// journal writes); process 2 the GPU, one track per CUDA stream with every timed kernel and the
// metrics of its annotation in that run as arguments; process 3 NVML telemetry as counter tracks
// (SM clock, temperature, power), placed where the readings were taken. A merged result's parts
// (Timeline::parts, one per rank) are processes 1001, 1002, 1003 for its second part, and so on,
// each named after its part, its times counted from its own first span (each host has its own
// clock). Results without a recorded timeline get synthetic_timeline(): the order is right, the
// times are not.

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "report/json_codec.hpp"
#include "report/synthetic_timeline.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

constexpr int kHostPid = 1;
constexpr int kGpuPid = 2;
constexpr int kTelemetryPid = 3;
constexpr int kPartPids = 1000;  // part p's processes: the ones above plus p * kPartPids

int pid_of(int pid, std::size_t part) { return pid + static_cast<int>(part) * kPartPids; }

struct Event {
  int pid = 0;
  std::int64_t tid = 0;
  std::int64_t start_ns = 0;
  std::int64_t dur_ns = -1;  // -1: a counter (ph "C")
  int depth = 0;             // of slices with equal bounds: config 0, run 1, pass 2, phase 3, inner 4
  Json json;
};

// Where a config, run or pass began and ended, on the clock of its part.
struct Bounds {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::size_t part = 0;
};

class TraceBuilder {
 public:
  TraceBuilder(const Results& r, const Timeline& t, bool synthetic)
      : r_(r), t_(t), synthetic_(synthetic) {
    origins_.assign(std::max<std::size_t>(t.parts.size(), 1), std::numeric_limits<std::int64_t>::max());
    for (const auto& p : t.phases) origins_[p.part] = std::min(origins_[p.part], p.start_ns);
    for (const auto& k : t.kernels) origins_[k.part] = std::min(origins_[k.part], k.start_ns);
    for (auto& o : origins_) {
      if (o == std::numeric_limits<std::int64_t>::max()) o = 0;
    }
    for (const auto& rt : r.telemetry()) {
      if (rt.cooling_wait_s > 0) cooling_[{rt.config, rt.run}] = &rt;
    }
  }

  void write(std::ostream& out) {
    host();
    gpu();
    telemetry();
    // Per track in time order; an enclosing slice before the slices it contains.
    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
      return std::tie(a.pid, a.tid, a.start_ns, b.dur_ns, a.depth) <
             std::tie(b.pid, b.tid, b.start_ns, a.dur_ns, b.depth);
    });
    out << "{\"traceEvents\": [\n";
    bool first = true;
    auto emit = [&](const Json& j) {
      out << (first ? "" : ",\n") << to_text(j);
      first = false;
    };
    for (const auto& m : metadata_events()) emit(m);
    for (const auto& e : events_) emit(e.json);
    out << "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " << to_text(other_data()) << "}\n";
  }

 private:
  double us(std::int64_t ns, std::size_t part) const {
    return static_cast<double>(ns - origins_[part]) / 1000.0;
  }

  std::string config_label(std::size_t c) const {
    return c < r_.configs().size() ? r_.configs()[c].label() : "config " + std::to_string(c);
  }

  void slice(int pid, std::size_t part, std::int64_t tid, const std::string& name, const char* cat,
             std::int64_t start, std::int64_t end, Json args) {
    pid = pid_of(pid, part);
    Json j{{"name", name}, {"cat", cat}, {"ph", "X"}, {"pid", pid}, {"tid", tid},
           {"ts", us(start, part)}, {"dur", static_cast<double>(end - start) / 1000.0}};
    if (!args.empty()) j["args"] = std::move(args);
    const std::string c = cat;
    const int depth = c == "config" ? 0 : c == "run" ? 1 : c == "pass" ? 2 : c == "phase" ? 3 : 4;
    events_.push_back({pid, tid, start, end - start, depth, std::move(j)});
  }

  void counter(const std::string& name, const char* unit, std::size_t part, std::int64_t at,
               double value) {
    const int pid = pid_of(kTelemetryPid, part);
    Json j{{"name", name}, {"ph", "C"}, {"pid", pid}, {"tid", 0}, {"ts", us(at, part)},
           {"args", Json{{unit, value}}}};
    // One counter track per name: order them apart by name.
    telemetry_parts_.insert(part);
    events_.push_back({pid, static_cast<std::int64_t>(counter_ids_.emplace(name, counter_ids_.size()).first->second),
                       at, -1, 0, std::move(j)});
  }

  Json run_args(const std::optional<std::size_t>& config, const std::optional<std::size_t>& run,
                bool warmup, int pass) const {
    Json a = Json::object();
    if (config) {
      a["config"] = *config;
      a["label"] = config_label(*config);
    }
    if (run) a["run"] = *run;
    if (warmup) a["warmup"] = true;
    if (pass) a["pass"] = pass;
    return a;
  }

  void host() {
    // Config, warm-up, run, pass, part.
    using Key = std::tuple<std::size_t, bool, std::size_t, int, std::size_t>;
    auto widen = [](std::map<Key, Bounds>& m, const Key& k, const PhaseSpan& p) {
      auto [it, added] = m.emplace(k, Bounds{p.start_ns, p.end_ns, p.part});
      if (!added) {
        it->second.start = std::min(it->second.start, p.start_ns);
        it->second.end = std::max(it->second.end, p.end_ns);
      }
    };
    std::map<Key, Bounds> configs, runs, passes;
    int max_pass = 0;
    for (const auto& p : t_.phases) max_pass = std::max(max_pass, p.pass);
    for (const auto& p : t_.phases) {
      if (p.config && p.run) {
        widen(configs, {*p.config, false, 0, 0, p.part}, p);
        widen(runs, {*p.config, p.warmup, *p.run, 0, p.part}, p);
        if (max_pass > 0) widen(passes, {*p.config, p.warmup, *p.run, p.pass, p.part}, p);
      }
      std::string name = p.phase;
      if (p.phase == "region entry") {
        name = (r_.options().cache_control != "none" ? "L2 flush: " : "region entry: ") + p.annotation;
      } else if (p.phase == "journal") {
        name = "journal write";
      }
      Json args = run_args(p.config, p.run, p.warmup, p.pass);
      if (!p.annotation.empty()) args["annotation"] = p.annotation;
      slice(kHostPid, p.part, 1, name, p.phase == "region entry" ? "region" : "phase", p.start_ns,
            p.end_ns, std::move(args));
      if (p.phase == "environment before" && p.config && p.run && !p.warmup && p.pass == 0) {
        thermal_pause(p);
      }
    }
    for (const auto& [k, b] : configs) {
      slice(kHostPid, b.part, 1,
            "config " + std::to_string(std::get<0>(k)) + ": " + config_label(std::get<0>(k)),
            "config", b.start, b.end, run_args(std::get<0>(k), std::nullopt, false, 0));
    }
    for (const auto& [k, b] : runs) {
      const bool warmup = std::get<1>(k);
      slice(kHostPid, b.part, 1, (warmup ? "warm-up run " : "run ") + std::to_string(std::get<2>(k)),
            "run", b.start, b.end, run_args(std::get<0>(k), std::get<2>(k), warmup, 0));
      if (!warmup) run_bounds_[{std::get<0>(k), std::get<2>(k)}] = b;
    }
    for (const auto& [k, b] : passes) {
      slice(kHostPid, b.part, 1, "replay pass " + std::to_string(std::get<3>(k)), "pass", b.start,
            b.end, run_args(std::get<0>(k), std::get<2>(k), std::get<1>(k), std::get<3>(k)));
    }
  }

  // Thermal control's pause before a run (RunTelemetry::cooling_wait_s) sits inside the run's
  // "environment before" phase, just before the telemetry reading that ends it.
  void thermal_pause(const PhaseSpan& p) {
    const auto found = cooling_.find({*p.config, *p.run});
    if (found == cooling_.end()) return;
    {
      const RunTelemetry& t = *found->second;
      const auto wait = static_cast<std::int64_t>(t.cooling_wait_s * 1e9);
      const std::int64_t start = std::max(p.start_ns, p.end_ns - wait);
      slice(kHostPid, p.part, 1, "thermal pause", "thermal", start, p.end_ns,
            Json{{"cooling_wait_s", t.cooling_wait_s}});
    }
  }

  void gpu() {
    // The metrics of an (annotation, config, run), from the raw table.
    std::map<std::tuple<std::string, std::size_t, std::size_t>, Json> metrics;
    for (const auto& r : r_.raw()) {
      Json& m = metrics[{r.annotation, r.config, r.run}];
      m[r.metric + (r.unit ? " (" + *r.unit + ")" : "")] = std::isfinite(r.value) ? Json(r.value) : Json(nullptr);
    }
    for (const auto& k : t_.kernels) {
      const std::int64_t tid = k.stream ? static_cast<std::int64_t>(*k.stream) : 0;
      streams_.insert({k.part, k.device, tid});
      Json args = run_args(k.config, k.run, k.warmup, 0);
      args["annotation"] = k.annotation;
      args["duration_ns"] = k.end_ns - k.start_ns;
      const auto it = metrics.find({k.annotation, k.config, k.run});
      if (it != metrics.end() && !k.warmup) args["metrics"] = it->second;
      slice(kGpuPid + 10 * k.device, k.part, tid, k.kernel, "kernel", k.start_ns, k.end_ns,
            std::move(args));
    }
  }

  void telemetry() {
    for (const auto& t : r_.telemetry()) {
      const auto b = run_bounds_.find({t.config, t.run});
      if (b == run_bounds_.end()) continue;
      const std::size_t part = b->second.part;
      auto sample = [&](const std::optional<TelemetrySample>& s, std::int64_t at) {
        if (!s) return;
        if (s->age_ms) at -= static_cast<std::int64_t>(*s->age_ms * 1e6);
        at = std::max(at, origins_[part]);
        if (s->sm_clock_mhz) counter("SM clock", "MHz", part, at, *s->sm_clock_mhz);
        if (s->temperature_c) counter("GPU temperature", "degC", part, at, *s->temperature_c);
        if (s->power_w) counter("Power", "W", part, at, *s->power_w);
      };
      sample(t.before, b->second.start);
      sample(t.after, b->second.end);
    }
  }

  std::vector<Json> metadata_events() const {
    const Metadata& m = r_.metadata();
    auto meta = [](const char* what, int pid, std::int64_t tid, const std::string& name) {
      return Json{{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", Json{{"name", name}}}};
    };
    // A merged result's processes say which part (rank) they are.
    auto of_part = [&](std::size_t part) {
      return t_.parts.empty() ? std::string() : " (" + t_.parts[part] + ")";
    };
    std::vector<Json> out;
    for (std::size_t part = 0; part < origins_.size(); ++part) {
      out.push_back(meta("process_name", pid_of(kHostPid, part), 0,
                         "kscope host: " + r_.name() + of_part(part)));
      out.push_back(meta("thread_name", pid_of(kHostPid, part), 1, "session phases"));
    }
    std::set<std::pair<std::size_t, int>> devices;
    for (const auto& [part, device, tid] : streams_) devices.insert({part, device});
    for (const auto& [part, d] : devices) {
      out.push_back(meta("process_name", pid_of(kGpuPid + 10 * d, part), 0,
                         "GPU " + std::to_string(d) + (m.gpu.empty() ? "" : ": " + m.gpu) +
                             of_part(part)));
    }
    for (const auto& [part, device, tid] : streams_) {
      out.push_back(meta("thread_name", pid_of(kGpuPid + 10 * device, part), tid,
                         synthetic_ ? "kernels (synthetic times)" : "stream " + std::to_string(tid)));
    }
    for (std::size_t part : telemetry_parts_) {
      out.push_back(meta("process_name", pid_of(kTelemetryPid, part), 0,
                         "GPU telemetry (NVML)" + of_part(part)));
    }
    return out;
  }

  Json other_data() const {
    const Metadata& m = r_.metadata();
    return Json{{"kscope_session", r_.name() + "-" + std::to_string(r_.id())},
                {"gpu", m.gpu},
                {"host", m.host},
                {"tool", m.tool},
                {"kscope_version", m.kscope_version},
                {"started_at", m.started_at},
                {"timeline", synthetic_ ? "synthetic: the result holds no timestamps, runs are "
                                          "placed end to end for their measured durations"
                                        : "recorded (host steady clock)"}};
  }

  const Results& r_;
  const Timeline& t_;
  bool synthetic_;
  std::vector<std::int64_t> origins_;  // per part: its first span's start
  std::vector<Event> events_;
  std::set<std::tuple<std::size_t, int, std::int64_t>> streams_;  // part, device, stream
  std::map<std::string, std::size_t> counter_ids_;
  std::set<std::size_t> telemetry_parts_;
  std::map<std::pair<std::size_t, std::size_t>, Bounds> run_bounds_;
  std::map<std::pair<std::size_t, std::size_t>, const RunTelemetry*> cooling_;
};

void write_trace(const WriteInput& in, std::ostream& out) {
  const bool synthetic = in.results.timeline().empty();
  const Timeline synth = synthetic ? synthetic_timeline(in.results) : Timeline{};
  TraceBuilder(in.results, synthetic ? synth : in.results.timeline(), synthetic).write(out);
}

}  // namespace

extern const Writer kTraceWriter;  // registered in writer_registry.cpp
const Writer kTraceWriter{"trace", ".json",
                          "the session as a Perfetto / Chrome trace (ui.perfetto.dev, chrome://tracing)",
                          &write_trace};

}  // namespace kscope::report
