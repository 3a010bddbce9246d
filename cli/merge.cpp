#include "merge.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "colour.hpp"
#include "diagnostics.hpp"
#include "kscope/kscope.hpp"

namespace kscope::cli {

void add_merge(CLI::App& app) {
  struct Args {
    std::vector<std::string> paths;
    std::string out;
    MergeOptions options;
  };
  auto args = std::make_shared<Args>();
  auto* merge_cmd = app.add_subcommand(
      "merge", "Join the shards of one sweep (results .json or journals .jsonl) into one result");
  merge_cmd->add_option("paths", args->paths, "the shards' results or journals")
      ->required()
      ->check(CLI::ExistingFile);
  merge_cmd->add_option("-o,--output", args->out, "write the merged result as JSON to this file");
  merge_cmd->add_flag("--allow-overlap", args->options.allow_overlap,
                      "keep the first part's values of a config measured twice");
  merge_cmd->add_flag("--allow-missing", args->options.allow_missing,
                      "merge even when no part measured some configs");
  merge_cmd->callback([args] {
    std::vector<Results> parts;
    for (const auto& p : args->paths) {
      parts.push_back(Results::load(p));
      print_load_warnings(parts.back());
    }
    MergeOptions options = args->options;
    options.labels = args->paths;
    const Results merged = merge(parts, options);
    print_load_warnings(merged);
    merged.write("table", std::cout, stdout_write_options());
    if (!args->out.empty()) {
      merged.write_json(args->out);
      std::cout << "Merged result: " << args->out << "\n";
    }
  });
}

}  // namespace kscope::cli
