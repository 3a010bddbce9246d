#pragma once
// A deterministic Results (no GPU, fixed metadata) for format tests and golden files.

#include <cmath>
#include <limits>

#include "core/extraction.hpp"
#include "core/transformation.hpp"
#include "kscope/results.hpp"

namespace kscope::testing {

/// Fixed metadata of the golden results.
inline Metadata sample_metadata() {
  Metadata m;
  m.gpu = "NVIDIA H200";
  m.host = "gpu-host";
  m.compute_clock = 1980000;
  m.memory_clock = 3201000;
  m.tool = "cupti";
  m.kscope_version = "0.1.0";
  m.started_at = "2026-11-30T00:00:00Z";
  return m;
}

inline Results sample_results(bool normalize) {
  Results::Data d;
  d.name = "vadd";
  d.id = 0;
  d.options.runs = 3;
  d.options.output_csv = true;
  if (normalize) d.options.normalize_against = "baseline";
  d.configs = configs({"n", "dtype"}, {{1024, "f32"}, {4096, "f16, packed"}});
  d.parameters = d.configs.front().names();
  d.metadata = sample_metadata();
  std::vector<ExtractedRecord> recs;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t r = 0; r < 3; ++r) {
      for (const char* a : {"baseline", "fast"}) {
        ExtractedRecord e;
        e.annotation = a;
        e.kernel = std::string(a) == "baseline" ? "vadd" : "vadd_vec4";
        e.run = RunId{c, r, false};
        const double base = (c + 1) * 1000.0 * (std::string(a) == "baseline" ? 2 : 1);
        const bool failed = std::string(a) == "fast" && c == 1 && r == 2;
        e.values = {failed ? nan : base + 10.0 * r};
        e.units = {std::string("ns")};
        e.failed = failed;
        recs.push_back(e);
      }
    }
  }
  // Extraction orders by annotation first.
  std::stable_sort(recs.begin(), recs.end(), [](const ExtractedRecord& x, const ExtractedRecord& y) {
    return x.annotation < y.annotation;
  });
  DeriveFn derive = [](const std::vector<double>& m, const Config& cfg) {
    const double bytes = 3.0 * 4 * cfg.get<double>("n");
    return std::vector<DerivedValue>{{"bandwidth", bytes / m[0], std::string("GB/s")}};
  };
  d.raw = build_raw_rows(recs, {kTimeMetric}, derive, d.configs);
  d.processed = aggregate(d.raw, d.options.normalize_against);
  return Results(std::move(d));
}

}  // namespace kscope::testing
