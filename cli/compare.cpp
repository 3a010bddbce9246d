#include "compare.hpp"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "argument_values.hpp"
#include "colour.hpp"
#include "diagnostics.hpp"
#include "exit_status.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"

namespace kscope::cli {
namespace {

struct CompareArgs {
  std::string base;
  std::string next;
  std::string threshold;
  bool markdown = false;
  std::string csv;
  std::string json;
  CompareOptions options;
};

template <typename Write>
void write_file(const std::string& path, const std::string& what, const Write& write) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write the " + what + " to '" + path + "'");
  write(out);
  if (!out) throw Error("cannot write the " + what + " to '" + path + "'");
}

}  // namespace

void add_compare(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results (JSON or journal) row by row: both means, the ratio NEW/BASE with "
      "its 95% CI and a verdict FASTER/SLOWER/SAME/UNSURE from a Mann-Whitney U test on the "
      "runs");
  cmd->add_option("base", args->base, "BASE result .json or journal .jsonl")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("new", args->next, "NEW result .json or journal .jsonl")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--threshold", args->threshold,
                  "exit with status 3 when a row is SLOWER by more than this (5% or 0.05)");
  cmd->add_option("--alpha", args->options.alpha,
                  "significance level of the U test (default 0.05)");
  cmd->add_option("--higher-is-better", args->options.higher_is_better,
                  "metrics for which a higher value is better (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--lower-is-better", args->options.lower_is_better,
                  "metrics for which a lower value is better (comma-separated)")
      ->delimiter(',');
  cmd->add_flag("--md", args->markdown, "print markdown (for a pull-request comment)");
  cmd->add_option("--csv", args->csv, "also write the comparison as CSV to this file");
  cmd->add_option("--json", args->json, "also write the comparison as JSON to this file");
  cmd->callback([args] {
    as_usage_error([&] {
      if (!args->threshold.empty()) args->options.threshold = parse_threshold(args->threshold);
      args->options.validate();
    });
    const Results base = Results::load(args->base);
    const Results next = Results::load(args->next);
    print_load_warnings(base);
    print_load_warnings(next);
    Comparison c = compare(base, next, args->options);
    c.base_name = args->base;
    c.new_name = args->next;
    if (args->markdown) {
      std::cout << c.to_markdown();
    } else {
      c.print(std::cout, colour_for(STDOUT_FILENO));
    }
    if (!args->csv.empty()) {
      write_file(args->csv, "comparison", [&](std::ostream& o) { c.write_csv(o); });
    }
    if (!args->json.empty()) {
      write_file(args->json, "comparison", [&](std::ostream& o) { o << c.to_json() << "\n"; });
    }
    if (c.regressed()) throw ExitStatus{kExitRegression};
  });
}

}  // namespace kscope::cli
