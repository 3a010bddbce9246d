#include "compare.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "argument_values.hpp"
#include "colour.hpp"
#include "diagnostics.hpp"
#include "exit_status.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"
#include "report/result_reader.hpp"

namespace kscope::cli {
namespace {

struct CompareArgs {
  std::string base;
  std::string next;
  std::string threshold;
  std::string noise;
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

// Two files, or two directories joined by session name.
Comparison compare_paths(const CompareArgs& args) {
  const bool base_dir = std::filesystem::is_directory(args.base);
  const bool new_dir = std::filesystem::is_directory(args.next);
  if (base_dir != new_dir) {
    // A file and a directory: the engine refuses them before it reads anything, with the text
    // that says so; a usage error.
    as_usage_error([&] { (void)compare_directories(args.base, args.next, args.options); });
  }
  if (base_dir) return compare_directories(args.base, args.next, args.options);
  // Only what compare reads of each: the files of a big sweep hold much else (the timeline).
  const Results base = report::load_results(args.base, report::kCompareTables);
  const Results next = report::load_results(args.next, report::kCompareTables);
  print_load_warnings(base);
  print_load_warnings(next);
  Comparison c = compare(base, next, args.options);
  c.base_name = args.base;
  c.new_name = args.next;
  return c;
}

}  // namespace

void add_compare(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results (JSON or journal), or two directories of them joined by session "
      "name, row by row: both means, the ratio NEW/BASE with its 95% CI and a verdict "
      "FASTER/SLOWER/SAME/UNSURE (docs/compare.md)");
  cmd->add_option("base", args->base, "BASE result .json or journal .jsonl, or a directory")
      ->required()
      ->check(CLI::ExistingPath);
  cmd->add_option("new", args->next, "NEW result .json or journal .jsonl, or a directory")
      ->required()
      ->check(CLI::ExistingPath);
  auto* threshold = cmd->add_option(
      "--threshold", args->threshold,
      "exit with status 3 when a row is SLOWER by more than this (5% or 0.05)");
  auto* noise = cmd->add_option(
      "--noise", args->noise,
      "a change within this is SAME, significant or not (default 1%; 0.5% or 0.005)");
  cmd->add_option("--alpha", args->options.alpha,
                  "family-wise significance level of the rows' tests (Holm; default 0.05)");
  cmd->add_option("--higher-is-better", args->options.higher_is_better,
                  "metrics for which a higher value is better (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--lower-is-better", args->options.lower_is_better,
                  "metrics for which a lower value is better (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--annotation", args->options.annotations,
                  "only these annotations (comma-separated, '*' matches any characters)")
      ->delimiter(',');
  cmd->add_option("--metric", args->options.metrics,
                  "only these metrics (comma-separated, '*' matches any characters)")
      ->delimiter(',');
  cmd->add_option("--config", args->options.configs,
                  "only configs with these parameter values (comma-separated NAME=VALUE; "
                  "values of one parameter are alternatives)")
      ->delimiter(',');
  cmd->add_flag("--md", args->markdown, "print markdown (for a pull-request comment)");
  cmd->add_option("--csv", args->csv, "also write the comparison as CSV to this file");
  cmd->add_option("--json", args->json, "also write the comparison as JSON to this file");
  cmd->callback([args, threshold, noise] {
    as_usage_error([&] {
      // Given, even empty: an empty value is an error, never "no threshold".
      if (threshold->count() > 0) args->options.threshold = parse_threshold(args->threshold);
      if (noise->count() > 0) args->options.noise = parse_noise(args->noise);
      args->options.validate();
    });
    const Comparison c = compare_paths(*args);
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
