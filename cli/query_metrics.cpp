#include "query_metrics.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "collect/cupti/launch_metrics.hpp"
#include "collect/cupti/metric_catalog.hpp"
#include "cuda/device_attributes.hpp"
#include "metric_catalog_source.hpp"

namespace kscope::cli {
namespace {

struct QueryMetricsArgs {
  std::string chip;
  std::string filter;
  bool csv = false;
  bool list_chips = false;
  bool launch = false;
};

std::string csv_field(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void print_table(const cupti::MetricCatalog& catalog, const std::vector<cupti::MetricInfo>& rows) {
  std::size_t name_w = 11, type_w = 11, unit_w = 11;
  for (const auto& r : rows) {
    name_w = std::max(name_w, r.name.size());
    type_w = std::max(type_w, r.type.size());
    unit_w = std::max(unit_w, r.unit.size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - s.size(), ' '); };
  std::cout << "Chip " << catalog.chip() << "\n"
            << pad("Metric Name", name_w) << "  " << pad("Metric Type", type_w) << "  "
            << pad("Metric Unit", unit_w) << "  Metric Description\n";
  for (const auto& r : rows) {
    std::cout << pad(r.name, name_w) << "  " << pad(r.type, type_w) << "  " << pad(r.unit, unit_w)
              << "  " << r.description << "\n";
  }
  std::cout << rows.size() << " base metric(s). A metric to collect is a base name plus a rollup "
               "or submetric: .sum .avg .min .max (counters), .pct .ratio (ratios), "
               ".avg.pct_of_peak_sustained_elapsed (throughputs); check full names with "
               "`kscope check-metrics`.\n";
}

void run(const QueryMetricsArgs& a) {
  if (a.launch) {
    for (const auto& m : cupti::served_launch_metrics()) std::cout << m << "\n";
    for (const auto& m : cuda::device_attribute_names()) std::cout << "device__attribute_" << m << "\n";
    return;
  }
  if (a.list_chips) {
    for (const auto& c : cupti::MetricCatalog::supported_chips()) std::cout << c << "\n";
    return;
  }
  const auto catalog = open_catalog(a.chip);
  const auto rows = catalog.list(a.filter);
  if (!a.csv) {
    print_table(catalog, rows);
    return;
  }
  std::cout << "\"Metric name\",\"Metric type\",\"Metric unit\",\"Metric description\"\n";
  for (const auto& r : rows) {
    std::cout << csv_field(r.name) << "," << csv_field(r.type) << "," << csv_field(r.unit) << ","
              << csv_field(r.description) << "\n";
  }
}

}  // namespace

void add_query_metrics(CLI::App& app) {
  auto args = std::make_shared<QueryMetricsArgs>();
  auto* cmd = app.add_subcommand(
      "query-metrics",
      "List the hardware metrics the cupti tool can collect on a chip (base names with type, "
      "unit as ncu prints it, and description), like `ncu --query-metrics`");
  cmd->add_option("--chip", args->chip, chip_option_help());
  cmd->add_option("--filter", args->filter,
                  "Only metrics whose name contains TEXT (case-insensitive), e.g. dram__bytes");
  cmd->add_flag("--csv", args->csv,
                "Comma-separated output with a header row: \"Metric name\",\"Metric type\","
                "\"Metric unit\",\"Metric description\"");
  cmd->add_flag("--list-chips", args->list_chips, "List the chip names --chip accepts and exit");
  cmd->add_flag("--launch", args->launch,
                "List the launch__ and device__attribute_ metrics the cupti tool serves from "
                "kernel activity records and the device's attributes (no chip needed) and exit");
  cmd->footer(
      "Examples:\n"
      "  kscope query-metrics --chip GH100 --filter dram__bytes\n"
      "  kscope query-metrics --csv > metrics.csv        (the GPU present)\n"
      "Without --chip and without a GPU the command fails with \"no CUDA device: ...\".");
  cmd->callback([args] { run(*args); });
}

}  // namespace kscope::cli
