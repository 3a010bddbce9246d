#include "collect/cupti/metric_catalog.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>

#include "collect/cupti/metric_name_rules.hpp"
#include "collect/cupti/metric_suggestions.hpp"
#include "collect/cupti/ncu_units.hpp"
#include "collect/cupti/profiler_device.hpp"
#include "collect/cupti/profiler_host.hpp"
#include "cuda/device.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

constexpr std::array<MetricKind, 3> kKinds = {MetricKind::kCounter, MetricKind::kRatio,
                                             MetricKind::kThroughput};

const char* type_name(MetricKind k) {
  switch (k) {
    case MetricKind::kCounter: return "Counter";
    case MetricKind::kRatio: return "Ratio";
    case MetricKind::kThroughput: return "Throughput";
  }
  return "Counter";
}

// The rollup suggested for a base name given without one: what ncu users usually mean.
const char* usual_rollup(MetricKind k) {
  switch (k) {
    case MetricKind::kCounter: return ".sum";
    case MetricKind::kRatio: return ".pct";
    case MetricKind::kThroughput: return ".avg.pct_of_peak_sustained_elapsed";
  }
  return ".sum";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

MetricInfo info_of(const std::string& name, const MetricProperties& p) {
  return {name, type_name(p.kind), ncu_unit(p.dim_unit), p.description};
}

}  // namespace

struct MetricCatalog::Impl {
  Impl(const std::string& chip, const std::vector<std::uint8_t>& counters)
      : host(chip, counters), availability(counters) {
    for (MetricKind k : kKinds) {
      for (auto& name : host.base_metrics(k)) {
        base_names.push_back(name);
        base_kinds.emplace(std::move(name), k);
      }
    }
    std::sort(base_names.begin(), base_names.end());
  }

  // Splits `name` into a known base name and the rest (".sum", ...); false when no prefix of
  // `name` ending before a '.' is a base name.
  bool split(const std::string& name, std::string* base, std::string* suffix) const {
    for (auto pos = name.rfind('.'); pos != std::string::npos && pos > 0;
         pos = name.rfind('.', pos - 1)) {
      auto it = base_kinds.find(name.substr(0, pos));
      if (it != base_kinds.end()) {
        *base = it->first;
        *suffix = name.substr(pos);
        return true;
      }
    }
    return false;
  }

  // `base` + the suffixes closest to `suffix` (or its usual rollups when nothing is close).
  std::vector<std::string> completions(const std::string& base, const std::string& suffix,
                                       std::size_t max_results) const {
    const MetricKind kind = base_kinds.at(base);
    const auto subs = host.submetrics(base, kind);
    std::vector<std::string> picked =
        suffix.empty() ? std::vector<std::string>{} : closest_names(suffix, subs, max_results);
    if (picked.empty()) {
      picked.push_back(usual_rollup(kind));
      // Then the other simple rollups (".avg", ".max", ".min", ...): suffixes without a second dot.
      for (const auto& s : subs) {
        if (picked.size() >= max_results) break;
        if (s.find('.', 1) == std::string::npos && s != picked.front()) picked.push_back(s);
      }
    }
    for (auto& s : picked) s = base + s;
    return picked;
  }

  ProfilerHost host;
  std::vector<std::uint8_t> availability;
  std::vector<std::string> base_names;  // sorted
  std::unordered_map<std::string, MetricKind> base_kinds;
};

MetricCatalog::MetricCatalog(const std::string& chip, const std::vector<std::uint8_t>& availability)
    : impl_(std::make_unique<Impl>(chip, availability)) {}

MetricCatalog MetricCatalog::for_device(int device) {
  std::string reason;
  if (!cuda::device_available(&reason)) throw NoDeviceError("no CUDA device: " + reason);
  const std::string chip = device_chip_name(device);
  std::vector<std::uint8_t> availability;
  try {
    availability = counter_availability(primary_context(device));
  } catch (const CuptiError&) {
    // Without counter access (no privileges) the chip's full catalogue still describes the
    // names; collecting them reports the privilege problem.
  }
  return MetricCatalog(chip, availability);
}

MetricCatalog::~MetricCatalog() = default;
MetricCatalog::MetricCatalog(MetricCatalog&&) noexcept = default;
MetricCatalog& MetricCatalog::operator=(MetricCatalog&&) noexcept = default;

std::vector<std::string> MetricCatalog::supported_chips() { return ProfilerHost::supported_chips(); }

const std::string& MetricCatalog::chip() const { return impl_->host.chip(); }

std::vector<MetricInfo> MetricCatalog::list(const std::string& filter) const {
  const std::string needle = lower(filter);
  std::vector<MetricInfo> out;
  for (const auto& name : impl_->base_names) {
    if (name.find('.') != std::string::npos) continue;  // "LTS.TriageCompute.*" set entries
    if (!needle.empty() && lower(name).find(needle) == std::string::npos) continue;
    MetricProperties p;
    if (impl_->host.properties(name, &p)) out.push_back(info_of(name, p));
  }
  return out;
}

std::optional<MetricInfo> MetricCatalog::find(const std::string& name) const {
  // A base name alone is not collectable: ncu, the reference and CUPTI's config all need the
  // rollup (".sum", ".avg", ".pct", ...).
  if (impl_->base_kinds.count(name) != 0) return std::nullopt;
  MetricProperties p;
  if (!impl_->host.properties(name, &p)) return std::nullopt;
  return info_of(name, p);
}

std::vector<std::string> MetricCatalog::suggest(const std::string& name,
                                                std::size_t max_results) const {
  std::string base, suffix;
  if (impl_->base_kinds.count(name) != 0) return impl_->completions(name, "", max_results);
  if (impl_->split(name, &base, &suffix)) return impl_->completions(base, suffix, max_results);
  // Unknown base: the closest base names, each with the user's suffix when it fits.
  const auto dot = name.find('.');
  const std::string query = name.substr(0, dot);
  const std::string tail = dot == std::string::npos ? "" : name.substr(dot);
  std::vector<std::string> out;
  for (const auto& b : closest_names(query, impl_->base_names, max_results)) {
    std::string candidate = b + tail;
    if (tail.empty() || !find(candidate)) candidate = impl_->completions(b, tail, 1).front();
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
  return out;
}

void MetricCatalog::validate(const std::vector<std::string>& metrics,
                             const std::string& call) const {
  std::vector<UnknownMetric> unknown;
  for (const auto& m : metrics) {
    check_metric_name_syntax(m);
    if (!find(m)) unknown.push_back({m, suggest(m)});
  }
  if (!unknown.empty()) throw InvalidArgument(invalid_metrics_message(unknown, chip(), call));
}

std::size_t MetricCatalog::passes(const std::vector<std::string>& metrics) const {
  validate(metrics);
  std::vector<std::string> unique;
  for (const auto& m : metrics) {
    if (std::find(unique.begin(), unique.end(), m) == unique.end()) unique.push_back(m);
  }
  ProfilerHost fresh(chip(), impl_->availability);  // a host object takes one metric set
  return ProfilerHost::num_passes(fresh.config_image(unique));
}

}  // namespace kscope::cupti
