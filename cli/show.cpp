#include "show.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "colour.hpp"
#include "diagnostics.hpp"
#include "kscope/kscope.hpp"
#include "report/result_reader.hpp"
#include "report/writer.hpp"

namespace kscope::cli {
namespace {

struct ShowArgs {
  std::string path;
  std::string format = "table";
  std::string output;
  std::string compare;
  bool full_paths = false;
};

}  // namespace

void add_show(CLI::App& app) {
  auto args = std::make_shared<ShowArgs>();
  auto* cmd = app.add_subcommand(
      "show", "Print a saved result (JSON or Parquet) or journal (.jsonl) as a table, or write it in another format");
  cmd->add_option("path", args->path, "result (.json, .parquet) or journal (.jsonl)")
      ->required()
      ->check(CLI::ExistingFile);
  std::vector<std::string> format_names;
  std::string format_help = "output format (default table):";
  for (const auto& f : output_formats()) {
    format_names.push_back(f.name);
    format_help += "\n  " + f.name + ": " + f.description;
  }
  cmd->add_option("-f,--format", args->format, format_help)->check(CLI::IsMember(format_names));
  cmd->add_option("-o,--output", args->output, "write to this file instead of standard output")
      ->check(CLI::Validator(
          [](const std::string& path) {
            return path.empty() ? std::string("an empty path names no file; leave -o out to write "
                                              "to standard output")
                                : std::string();
          },
          "FILE"));
  cmd->add_option("--compare", args->compare,
                  "a second result or journal: the baseline of the compare table (html, md)")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--full-paths", args->full_paths,
                "html, md: the options' absolute paths in full (default: .../<last part>)");
  cmd->callback([args] {
    // Only the tables the format writes from: the files of a big sweep hold much else.
    report::ResultTables tables = report::find_writer(args->format).reads;
    if (!args->compare.empty()) tables.raw = true;  // the compare table's tests
    const Results results = report::load_results(args->path, tables);
    print_load_warnings(results);
    std::optional<Results> baseline;
    if (!args->compare.empty()) {
      baseline = report::load_results(args->compare, report::kCompareTables);
      print_load_warnings(*baseline);
    }
    WriteOptions options = args->output.empty() ? stdout_write_options() : WriteOptions{};
    options.compare = baseline ? &*baseline : nullptr;
    options.full_paths = args->full_paths;
    if (args->output.empty()) {
      if (isatty(STDOUT_FILENO)) report::check_text(report::find_writer(args->format), "to a terminal");
      results.write(args->format, std::cout, options);
    } else {
      results.write(args->format, args->output, options);
    }
  });
}

}  // namespace kscope::cli
