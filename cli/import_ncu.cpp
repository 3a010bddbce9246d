#include "import_ncu.hpp"

#include <iostream>
#include <memory>

#include "colour.hpp"
#include "kscope/ncu_import.hpp"
#include "kscope/results.hpp"

namespace kscope::cli {
namespace {

struct ImportNcuArgs {
  std::string report;
  std::string output;
  NcuImportOptions options;
};

}  // namespace

void add_import_ncu(CLI::App& app) {
  auto args = std::make_shared<ImportNcuArgs>();
  auto* cmd = app.add_subcommand(
      "import-ncu",
      "Read an Nsight Compute report (.ncu-rep, or its raw page as CSV) as kscope results: one "
      "row per kernel and metric with its NVTX ranges and units");
  cmd->add_option("report", args->report, ".ncu-rep, or CSV from `ncu --csv --page raw`")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", args->output, "also write the results as JSON to this file");
  cmd->add_option("--metrics", args->options.metrics,
                  "metrics to import (comma-separated); default: every measured metric, without "
                  "device__attribute_*/launch__* and similar attributes")
      ->delimiter(',');
  cmd->add_flag("--all-metrics", args->options.all_metrics,
                "import every numeric column, device and launch attributes included");
  cmd->add_option("--ncu", args->options.ncu,
                  "ncu used to read a .ncu-rep (default: KSCOPE_NCU, then PATH, then the CUDA "
                  "toolkit)");
  cmd->add_flag_function(
      "-v,--verbose",
      [args](std::int64_t) { args->options.verbosity = Verbosity::kDebug; },
      "also name the lines before the table that were skipped (program output, ==PROF== lines)");
  cmd->callback([args] {
    const Results results = import_ncu(args->report, args->options);
    results.write("table", std::cout, stdout_write_options());
    if (!args->output.empty()) {
      results.write_json(args->output);
      std::cout << "Results written to " << args->output << "\n";
    }
  });
}

}  // namespace kscope::cli
