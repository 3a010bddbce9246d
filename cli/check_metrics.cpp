#include "check_metrics.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/metric_catalog.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "metric_catalog_source.hpp"

namespace kscope::cli {
namespace {

struct CheckMetricsArgs {
  std::string chip;
  std::vector<std::string> metrics;
};

void run(const CheckMetricsArgs& a) {
  const auto catalog = open_catalog(a.chip);
  for (const auto& m : a.metrics) cupti::check_metric_name_syntax(m);
  // The launch and device metrics need no counter: the cupti tool reads them from activity
  // records and the device's attributes.
  const auto counters = cupti::counter_metrics(a.metrics);
  catalog.validate(counters, "kscope check-metrics");  // names this command, not profile()
  const std::size_t passes = counters.empty() ? 0 : catalog.passes(counters);
  std::size_t name_w = 0, type_w = 0, unit_w = 0;
  std::vector<cupti::MetricInfo> infos;
  for (const auto& m : counters) {
    infos.push_back(*catalog.find(m));
    name_w = std::max(name_w, m.size());
    type_w = std::max(type_w, infos.back().type.size());
    unit_w = std::max(unit_w, infos.back().unit.size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - s.size(), ' '); };
  std::cout << "Chip " << catalog.chip() << "\n";
  for (const auto& i : infos) {
    std::cout << "  ok  " << pad(i.name, name_w) << "  " << pad(i.type, type_w) << "  "
              << pad(i.unit.empty() ? "-" : i.unit, std::max<std::size_t>(unit_w, 1)) << "  "
              << i.description << "\n";
  }
  for (const auto& m : cupti::launch_metrics(a.metrics)) {
    std::cout << "  ok  " << m << "  (launch/device metric: from the kernel's activity record and "
              << "the device's attributes, no counter pass)\n";
  }
  if (counters.empty()) return;
  std::cout << "Replay passes: " << passes << "\n";
  std::cout << "  replay_mode 'kernel': "
            << cupti::plan_collection("kernel", "kernel", passes).describe() << "\n";
  if (passes > 1) {
    std::cout << "  replay_mode 'kernel', metric_replay 'application': "
              << cupti::plan_collection("kernel", "application", passes).describe() << "\n";
  }
  std::cout << "  replay_mode 'range': " << cupti::plan_collection("range", "kernel", passes).describe()
            << "\n";
}

}  // namespace

void add_check_metrics(CLI::App& app) {
  auto args = std::make_shared<CheckMetricsArgs>();
  auto* cmd = app.add_subcommand(
      "check-metrics",
      "Check metric names against a chip's catalogue and print the number of replay passes the "
      "set needs with the cupti tool. Exits 1 when a name is unknown (with the closest valid "
      "names) or can only be collected by ncu");
  cmd->add_option("--chip", args->chip, chip_option_help());
  cmd->add_option("metrics", args->metrics,
                  "Full metric names, e.g. gpu__time_duration.sum dram__bytes_read.sum "
                  "sm__throughput.avg.pct_of_peak_sustained_elapsed")
      ->required();
  cmd->footer(
      "Examples:\n"
      "  kscope check-metrics --chip GH100 gpu__time_duration.sum dram__bytes_read.sum\n"
      "  kscope check-metrics --chip GH100 sm__throughput.avg.pct_of_peak_sustained_elapsed\n"
      "Exit status: 0 when every name is valid, 1 otherwise.");
  cmd->callback([args] { run(*args); });
}

}  // namespace kscope::cli
