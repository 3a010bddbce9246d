#pragma once
// A sweep of six configs ("n" = 0..5) run through profile() without a device (the engine's real
// plan, journal, Session and tables around a fake collector): what the api tests merge, resume
// and plan. Config n's kernel takes 100 + n ns in every run.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/device_free_session.hpp"
#include "core/fakes.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"
#include "support/gpu_test.hpp"

namespace kscope::testing {

constexpr std::size_t kSweepConfigs = 6;

inline std::vector<Config> sweep_configs(std::size_t n = kSweepConfigs) {
  std::vector<Config> out;
  for (std::size_t c = 0; c < n; ++c) {
    out.emplace_back(std::vector<Value>{static_cast<int>(c)}, std::vector<std::string>{"n"});
  }
  for (std::size_t c = 0; c < out.size(); ++c) out[c].set_index(c);
  return out;
}

inline Options sweep_options(const std::string& dir) {
  Options o;
  o.runs = 3;
  o.verbosity = Verbosity::kSilent;
  o.thermal.mode = "off";
  o.output_prefix = scratch_dir(dir);
  return o;
}

/// Runs the sweep "sweep" with `o`; the benchmark throws std::runtime_error at config
/// `fail_at` (none by default). `decode_late`: the collector decodes in batches, handing over
/// each flush's records at the next flush (as the range profiler may).
inline Results run_sweep(const Options& o, std::size_t fail_at = kSweepConfigs,
                         bool decode_late = false) {
  auto collector = std::make_unique<FakeCollector>();
  FakeCollector* tool = collector.get();
  tool->complete_flushes = !decode_late;
  tool->one_flush_late = decode_late;
  return profile_without_device("sweep", sweep_configs(), [tool, fail_at](const Config& c) {
    const auto n = static_cast<std::size_t>(c[0].get<int>());
    if (n == fail_at) throw std::runtime_error("config " + std::to_string(n) + " broke");
    Annotation a("region");
    tool->launch("k", 100.0 + static_cast<double>(n));
  }, o, std::move(collector));
}

/// `got` has the rows of `want`: processed rows with the same config, annotation and
/// statistics, raw rows with the same config and run, in the same order.
inline void expect_same_tables(const Results& got, const Results& want) {
  ASSERT_EQ(got.processed().size(), want.processed().size());
  for (std::size_t i = 0; i < want.processed().size(); ++i) {
    const ProcessedRow& a = want.processed()[i];
    const ProcessedRow& b = got.processed()[i];
    EXPECT_EQ(b.config, a.config);
    EXPECT_EQ(b.annotation, a.annotation);
    EXPECT_DOUBLE_EQ(b.avg, a.avg);
    EXPECT_EQ(b.num_runs, a.num_runs);
    EXPECT_DOUBLE_EQ(b.geomean, a.geomean);
  }
  ASSERT_EQ(got.raw().size(), want.raw().size());
  for (std::size_t i = 0; i < want.raw().size(); ++i) {
    EXPECT_EQ(got.raw()[i].config, want.raw()[i].config);
    EXPECT_EQ(got.raw()[i].run, want.raw()[i].run);
  }
}

/// The one journal a sweep wrote in the directory `prefix` ("" when there is none), with or
/// without a rank in front of its name.
inline std::string journal_in(const std::string& prefix) {
  for (const auto& f : std::filesystem::directory_iterator(prefix)) {
    if (f.path().filename().string().find("journal-sweep-") != std::string::npos) {
      return f.path().string();
    }
  }
  return "";
}

}  // namespace kscope::testing
