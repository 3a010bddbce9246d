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
#include "report/json_text.hpp"
#include "report/synthetic_timeline.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

constexpr int kHostPid = 1;
constexpr int kGpuPid = 2;
constexpr int kTelemetryPid = 3;
constexpr int kPartPids = 1000;  // part p's processes: the ones above plus p * kPartPids

int pid_of(int pid, std::size_t part) { return pid + static_cast<int>(part) * kPartPids; }

// One event of the trace, its text written when it is emitted (a sweep of a million runs has
// ten million): what it is (`kind`) and where its data is (`index` into the timeline's spans or
// the builder's lists).
struct Event {
  enum class Kind : std::uint8_t { kPhase, kThermal, kConfig, kRun, kPass, kKernel, kCounter };
  int pid = 0;
  std::int64_t tid = 0;
  std::int64_t start_ns = 0;
  std::int64_t dur_ns = -1;  // -1: a counter (ph "C")
  std::uint8_t depth = 0;    // of slices with equal bounds: config 0, run 1, pass 2, phase 3, inner 4
  Kind kind = Kind::kPhase;
  std::uint32_t index = 0;
};

// Where a config, run or pass began and ended, on the clock of its part.
struct Bounds {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::size_t part = 0;
};

// Config, warm-up, run, pass, part: the key of a config's, run's or pass's slice.
using SliceKey = std::tuple<std::size_t, bool, std::size_t, int, std::size_t>;

// A telemetry reading on a counter track.
struct Reading {
  std::size_t name = 0;  // index into TraceBuilder::counter_names_
  const char* unit = "";
  std::size_t part = 0;
  double value = 0;
};

// `"key":` after the comma that separates it from the member before, when there is one.
void member(std::string& out, const char* key, bool first = false) {
  if (!first) out += ',';
  out += '"';
  out += key;
  out += "\":";
}

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
    std::string text = "{\"traceEvents\": [\n";
    bool first = true;
    auto next = [&] {
      if (!first) text += ",\n";
      first = false;
    };
    for (const auto& m : metadata_events()) {
      next();
      text += to_text(m);
    }
    for (const auto& e : events_) {
      next();
      emit(e, text);
      if (text.size() >= (std::size_t{1} << 20)) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        text.clear();
      }
    }
    out << text << "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " << to_text(other_data()) << "}\n";
  }

 private:
  double us(std::int64_t ns, std::size_t part) const {
    return static_cast<double>(ns - origins_[part]) / 1000.0;
  }

  // Config `c`'s label, made once for all the events of its runs.
  const std::string& config_label(std::size_t c) const {
    if (c >= r_.configs().size()) {
      other_label_ = "config " + std::to_string(c);
      return other_label_;
    }
    if (labels_.empty()) labels_.resize(r_.configs().size());
    if (!labels_[c]) labels_[c] = r_.configs()[c].label();
    return *labels_[c];
  }

  static std::uint8_t depth_of(const char* cat) {
    const std::string c = cat;
    return c == "config" ? 0 : c == "run" ? 1 : c == "pass" ? 2 : c == "phase" ? 3 : 4;
  }

  void slice(Event::Kind kind, std::size_t index, int pid, std::size_t part, std::int64_t tid,
             const char* cat, std::int64_t start, std::int64_t end) {
    events_.push_back({pid_of(pid, part), tid, start, end - start, depth_of(cat), kind,
                       static_cast<std::uint32_t>(index)});
  }

  void counter(const std::string& name, const char* unit, std::size_t part, std::int64_t at,
               double value) {
    // One counter track per name: order them apart by name.
    telemetry_parts_.insert(part);
    const auto id = counter_ids_.emplace(name, counter_ids_.size()).first->second;
    if (id == counter_names_.size()) counter_names_.push_back(name);
    events_.push_back({pid_of(kTelemetryPid, part), static_cast<std::int64_t>(id), at, -1, 0,
                       Event::Kind::kCounter, static_cast<std::uint32_t>(readings_.size())});
    readings_.push_back({id, unit, part, value});
  }

  // A slice's object up to its "args": {"name":...,"cat":...,"ph":"X","pid":...,"tid":...,
  // "ts":...,"dur":... (emit() closes it).
  void slice_head(std::string& out, const Event& e, const std::string& name, const char* cat,
                  std::size_t part) const {
    out += "{\"name\":";
    append_json_string(out, name);
    member(out, "cat");
    append_json_string(out, cat);
    out += ",\"ph\":\"X\"";
    member(out, "pid");
    append_json_integer(out, e.pid);
    member(out, "tid");
    append_json_integer(out, e.tid);
    member(out, "ts");
    append_json_number(out, us(e.start_ns, part));
    member(out, "dur");
    append_json_number(out, static_cast<double>(e.dur_ns) / 1000.0);
  }

  // run_args' members (config, label, run, warmup, pass), after `"args":{`; whether it wrote any.
  bool run_args(std::string& out, const std::optional<std::size_t>& config,
                const std::optional<std::size_t>& run, bool warmup, int pass) const {
    bool first = true;
    auto key = [&](const char* k) {
      member(out, k, first);
      first = false;
    };
    if (config) {
      key("config");
      append_json_integer(out, *config);
      key("label");
      append_json_string(out, config_label(*config));
    }
    if (run) {
      key("run");
      append_json_integer(out, *run);
    }
    if (warmup) {
      key("warmup");
      out += "true";
    }
    if (pass) {
      key("pass");
      append_json_integer(out, pass);
    }
    return !first;
  }

  // A slice's "args": `write(out)` writes its members; left out when it writes none.
  template <class Write>
  static void args(std::string& out, const Write& write) {
    const std::size_t at = out.size();
    out += ",\"args\":{";
    const std::size_t inside = out.size();
    write(out);
    if (out.size() == inside) {
      out.resize(at);
    } else {
      out += '}';
    }
  }

  void emit(const Event& e, std::string& out) const {
    switch (e.kind) {
      case Event::Kind::kPhase: {
        const PhaseSpan& p = t_.phases[e.index];
        std::string name = p.phase;
        if (p.phase == "region entry") {
          name = (r_.options().cache_control != "none" ? "L2 flush: " : "region entry: ") + p.annotation;
        } else if (p.phase == "journal") {
          name = "journal write";
        }
        slice_head(out, e, name, p.phase == "region entry" ? "region" : "phase", p.part);
        args(out, [&](std::string& a) {
          const bool any = run_args(a, p.config, p.run, p.warmup, p.pass);
          if (!p.annotation.empty()) {
            member(a, "annotation", !any);
            append_json_string(a, p.annotation);
          }
        });
        break;
      }
      case Event::Kind::kThermal: {
        const PhaseSpan& p = t_.phases[e.index];
        slice_head(out, e, "thermal pause", "thermal", p.part);
        args(out, [&](std::string& a) {
          member(a, "cooling_wait_s", true);
          append_json_number(a, cooling_.at({*p.config, *p.run})->cooling_wait_s);
        });
        break;
      }
      case Event::Kind::kConfig:
      case Event::Kind::kRun:
      case Event::Kind::kPass: {
        const auto& [k, b] = spans_[e.index];
        const auto& [config, warmup, run, pass, part] = k;
        (void)part;
        std::string name;
        const char* cat = "config";
        if (e.kind == Event::Kind::kConfig) {
          name = "config " + std::to_string(config) + ": " + config_label(config);
        } else if (e.kind == Event::Kind::kRun) {
          name = (warmup ? "warm-up run " : "run ") + std::to_string(run);
          cat = "run";
        } else {
          name = "replay pass " + std::to_string(pass);
          cat = "pass";
        }
        slice_head(out, e, name, cat, b.part);
        args(out, [&](std::string& a) {
          if (e.kind == Event::Kind::kConfig) {
            (void)run_args(a, config, std::nullopt, false, 0);
          } else {
            (void)run_args(a, config, run, warmup, e.kind == Event::Kind::kPass ? pass : 0);
          }
        });
        break;
      }
      case Event::Kind::kKernel: {
        const KernelSpan& k = t_.kernels[e.index];
        slice_head(out, e, k.kernel, "kernel", k.part);
        args(out, [&](std::string& a) {
          const bool any = run_args(a, k.config, k.run, k.warmup, 0);
          member(a, "annotation", !any);
          append_json_string(a, k.annotation);
          member(a, "duration_ns");
          append_json_integer(a, k.end_ns - k.start_ns);
          if (!k.warmup) metrics(a, k);
        });
        break;
      }
      case Event::Kind::kCounter: {
        const Reading& r = readings_[e.index];
        out += "{\"name\":";
        append_json_string(out, counter_names_[r.name]);
        out += ",\"ph\":\"C\"";
        member(out, "pid");
        append_json_integer(out, e.pid);
        out += ",\"tid\":0";
        member(out, "ts");
        append_json_number(out, us(e.start_ns, r.part));
        out += ",\"args\":{";
        append_json_string(out, r.unit);
        out += ':';
        append_json_number(out, r.value);
        out += '}';
        break;
      }
    }
    out += '}';
  }

  // "metrics": the values of the kernel's (annotation, config, run) in the raw table, one member
  // per metric (with its unit), in the raw table's order; a metric twice keeps its place and its
  // last value.
  void metrics(std::string& out, const KernelSpan& k) const {
    const auto first = std::lower_bound(raw_order_.begin(), raw_order_.end(), k,
                                        [&](std::uint32_t i, const KernelSpan& key) {
                                          const RawRow& r = r_.raw()[i];
                                          return std::tie(r.config, r.run, r.annotation) <
                                                 std::tie(key.config, key.run, key.annotation);
                                        });
    std::vector<std::pair<std::string, double>> members;
    for (auto it = first; it != raw_order_.end(); ++it) {
      const RawRow& r = r_.raw()[*it];
      if (r.config != k.config || r.run != k.run || r.annotation != k.annotation) break;
      std::string name = r.metric + (r.unit ? " (" + *r.unit + ")" : "");
      const auto same = std::find_if(members.begin(), members.end(),
                                     [&](const auto& m) { return m.first == name; });
      if (same != members.end()) {
        same->second = r.value;
      } else {
        members.emplace_back(std::move(name), r.value);
      }
    }
    if (members.empty()) return;
    member(out, "metrics");
    char open = '{';
    for (const auto& [name, value] : members) {
      out += open;
      open = ',';
      append_json_string(out, name);
      out += ':';
      append_json_number(out, value);
    }
    out += '}';
  }

  void host() {
    // The bounds of configs, runs and passes, widened by each of their phases; the phases of a
    // run come together, so the last slice widened is looked up before the map.
    struct Widened {
      std::map<SliceKey, Bounds> bounds;
      std::map<SliceKey, Bounds>::iterator last;
      void widen(const SliceKey& k, const PhaseSpan& p) {
        if (bounds.empty() || last->first != k) {
          bool added = false;
          std::tie(last, added) = bounds.emplace(k, Bounds{p.start_ns, p.end_ns, p.part});
          if (added) return;
        }
        last->second.start = std::min(last->second.start, p.start_ns);
        last->second.end = std::max(last->second.end, p.end_ns);
      }
    };
    Widened configs;
    Widened runs;
    Widened passes;
    int max_pass = 0;
    for (const auto& p : t_.phases) max_pass = std::max(max_pass, p.pass);
    for (std::size_t i = 0; i < t_.phases.size(); ++i) {
      const PhaseSpan& p = t_.phases[i];
      if (p.config && p.run) {
        configs.widen({*p.config, false, 0, 0, p.part}, p);
        runs.widen({*p.config, p.warmup, *p.run, 0, p.part}, p);
        if (max_pass > 0) passes.widen({*p.config, p.warmup, *p.run, p.pass, p.part}, p);
      }
      slice(Event::Kind::kPhase, i, kHostPid, p.part, 1,
            p.phase == "region entry" ? "region" : "phase", p.start_ns, p.end_ns);
      if (p.phase == "environment before" && p.config && p.run && !p.warmup && p.pass == 0) {
        thermal_pause(i);
      }
    }
    spans_.reserve(configs.bounds.size() + runs.bounds.size() + passes.bounds.size());
    auto add = [&](Event::Kind kind, const char* cat, const std::map<SliceKey, Bounds>& m) {
      for (const auto& [k, b] : m) {
        slice(kind, spans_.size(), kHostPid, b.part, 1, cat, b.start, b.end);
        spans_.emplace_back(k, b);
      }
    };
    add(Event::Kind::kConfig, "config", configs.bounds);
    add(Event::Kind::kRun, "run", runs.bounds);
    for (const auto& [k, b] : runs.bounds) {
      if (!std::get<1>(k)) run_bounds_[{std::get<0>(k), std::get<2>(k)}] = b;
    }
    add(Event::Kind::kPass, "pass", passes.bounds);
  }

  // Thermal control's pause before a run (RunTelemetry::cooling_wait_s) sits inside the run's
  // "environment before" phase, just before the telemetry reading that ends it.
  void thermal_pause(std::size_t phase) {
    const PhaseSpan& p = t_.phases[phase];
    const auto found = cooling_.find({*p.config, *p.run});
    if (found == cooling_.end()) return;
    const auto wait = static_cast<std::int64_t>(found->second->cooling_wait_s * 1e9);
    const std::int64_t start = std::max(p.start_ns, p.end_ns - wait);
    slice(Event::Kind::kThermal, phase, kHostPid, p.part, 1, "thermal", start, p.end_ns);
  }

  void gpu() {
    // The raw rows by (config, run, annotation), for each kernel's metrics.
    raw_order_.resize(r_.raw().size());
    for (std::size_t i = 0; i < raw_order_.size(); ++i) raw_order_[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(raw_order_.begin(), raw_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      const RawRow& x = r_.raw()[a];
      const RawRow& y = r_.raw()[b];
      return std::tie(x.config, x.run, x.annotation) < std::tie(y.config, y.run, y.annotation);
    });
    for (std::size_t i = 0; i < t_.kernels.size(); ++i) {
      const KernelSpan& k = t_.kernels[i];
      const std::int64_t tid = k.stream ? static_cast<std::int64_t>(*k.stream) : 0;
      streams_.insert({k.part, k.device, tid});
      slice(Event::Kind::kKernel, i, kGpuPid + 10 * k.device, k.part, tid, "kernel", k.start_ns,
            k.end_ns);
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
  std::vector<std::pair<SliceKey, Bounds>> spans_;  // the configs', runs' and passes' slices
  std::vector<std::uint32_t> raw_order_;            // raw rows by (config, run, annotation)
  std::vector<Reading> readings_;
  std::vector<std::string> counter_names_;          // by counter id
  mutable std::vector<std::optional<std::string>> labels_;  // config_label's, by config
  mutable std::string other_label_;
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
                          &write_trace, /*compares=*/false,
                          ResultTables{/*raw=*/true, /*processed=*/false, /*telemetry=*/true,
                                       /*timeline=*/true}};

}  // namespace kscope::report
