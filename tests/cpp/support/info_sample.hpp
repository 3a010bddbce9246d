#pragma once
// A session's output with info collectors, built without a session (plain data), for the tests
// of the info columns and their formats: 2 configs (n = 512, 1024) x 3 runs x annotations add,
// mul (one kernel each, time 100 (c + 1) + r ns); collectors
//   once "o" -> "v1"; config "c" -> 2 n; run "r" -> 10 r (missing in config 1 run 1);
//   annotation "a" -> entry counter (1, 2, ... over the session); annotation "s" -> "<a>_<n>".

#include <algorithm>
#include <string>
#include <vector>

#include "core/extraction.hpp"
#include "core/info_columns.hpp"
#include "core/transformation.hpp"
#include "kscope/results.hpp"
#include "report/sample_results.hpp"

namespace kscope::testing {

struct InfoSample {
  std::vector<InfoCollector> collectors;
  std::vector<Config> configs;
  std::vector<RunLog> runs;
  std::vector<RawRow> raw;
  std::vector<ProcessedRow> processed;
  std::vector<InfoColumn> columns;
};

/// `derive`: also a derived metric "double" (2 x time, ns).
inline InfoSample info_sample(bool derive) {
  InfoSample s;
  auto none = [](const InfoCall&) { return InfoValue(); };
  s.collectors = {{"o", CollectionScope::kOnce, none},
                  {"c", CollectionScope::kConfig, none},
                  {"r", CollectionScope::kRun, none},
                  {"a", CollectionScope::kAnnotation, none},
                  {"s", CollectionScope::kAnnotation, none}};
  s.configs = configs({512, 1024}, "n");
  std::vector<ExtractedRecord> records;
  int counter = 0;
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t r = 0; r < 3; ++r) {
      RunLog log;
      log.run = RunId{c, r, false};
      const double n = s.configs[c].get<double>(0);
      log.info = {"v1", 2 * n, c == 1 && r == 1 ? InfoValue() : InfoValue(10.0 * r), {}, {}};
      for (const char* a : {"add", "mul"}) {
        ++counter;
        log.entered.push_back(a);
        log.annotation_info.push_back(
            {a, {{}, {}, {}, counter, std::string(a) + "_" + std::to_string(static_cast<int>(n))}});
        ExtractedRecord e;
        e.annotation = a;
        e.kernel = std::string(a) + "_kernel";
        e.run = log.run;
        e.values = {100.0 * static_cast<double>(c + 1) + static_cast<double>(r)};
        e.units = {std::string("ns")};
        records.push_back(e);
      }
      s.runs.push_back(log);
    }
  }
  // Extraction orders by annotation first.
  std::stable_sort(records.begin(), records.end(),
                   [](const ExtractedRecord& x, const ExtractedRecord& y) {
                     return x.annotation < y.annotation;
                   });
  DeriveFn fn;
  if (derive) {
    fn = [](const std::vector<double>& m, const Config&) {
      return std::vector<DerivedValue>{{"double", 2 * m[0], std::string("ns")}};
    };
  }
  s.raw = build_raw_rows(records, {kTimeMetric}, fn, s.configs);
  s.processed = aggregate(s.raw, "");
  s.columns = add_info_columns(s.collectors, s.runs, s.raw, s.processed);
  return s;
}

/// The sample as Results with fixed metadata (golden files).
inline Results info_sample_results() {
  InfoSample s = info_sample(true);
  Results::Data d;
  d.name = "info";
  d.options.runs = 3;
  d.options.derive_metric = [](const std::vector<double>&, const Config&) {
    return std::vector<DerivedValue>{};
  };
  d.options.info_collectors = s.collectors;
  d.configs = s.configs;
  d.parameters = d.configs.front().names();
  d.metadata = sample_metadata();
  d.raw = std::move(s.raw);
  d.processed = std::move(s.processed);
  d.info_columns = std::move(s.columns);
  return Results(std::move(d));
}

}  // namespace kscope::testing
