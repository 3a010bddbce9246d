// kscope: command-line front of the engine. Subcommands are added in cli/<command>.cpp and
// registered below. Exit codes (docs/errors.md): 0 success, 1 an error kscope reports (bad input
// file, failed tool, ...), 2 a usage error (unknown subcommand or option, missing argument), 3
// `kscope compare --threshold` found a regression.

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "check_metrics.hpp"
#include "compare.hpp"
#include "exit_status.hpp"
#include "import_ncu.hpp"
#include "kscope/kscope.hpp"
#include "merge.hpp"
#include "query_metrics.hpp"

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

// The first argument when it names no subcommand (and is no option): CLI11 would only say that
// a subcommand is required.
std::string unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return {};
  const std::string first = argv[1];
  for (const auto* sub : app.get_subcommands({})) {
    if (sub->get_name() == first) return {};
  }
  return first;
}

std::string subcommand_names(const CLI::App& app) {
  std::string out;
  for (const auto* sub : app.get_subcommands({})) {
    out += (out.empty() ? "" : ", ") + sub->get_name();
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kscope " + std::string(kscope::version()) +
               ": benchmark GPU kernels and collect their profiling metrics"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kscope ") + kscope::version());
  app.footer(
      "Exit status: 0 success, 1 error (bad input file, failed tool), 2 usage error, 3 compare "
      "found a row SLOWER beyond --threshold.");

  auto* show = app.add_subcommand(
      "show", "Print a saved result (JSON) or journal (.jsonl) as a table, or write it in another format");
  std::string path;
  std::string format = "table";
  std::string output;
  std::string compare;
  show->add_option("path", path, "result .json or journal .jsonl")->required()->check(CLI::ExistingFile);
  std::vector<std::string> format_names;
  std::string format_help = "output format (default table):";
  for (const auto& f : kscope::output_formats()) {
    format_names.push_back(f.name);
    format_help += "\n  " + f.name + ": " + f.description;
  }
  show->add_option("-f,--format", format, format_help)->check(CLI::IsMember(format_names));
  show->add_option("-o,--output", output, "write to this file instead of standard output");
  show->add_option("--compare", compare,
                   "a second result or journal: the baseline of the compare table (html, md)")
      ->check(CLI::ExistingFile);
  show->callback([&] {
    const kscope::Results results = kscope::Results::load(path);
    for (const auto& w : results.load_warnings()) std::cerr << "kscope: warning: " << w << "\n";
    std::optional<kscope::Results> baseline;
    if (!compare.empty()) {
      baseline = kscope::Results::load(compare);
      for (const auto& w : baseline->load_warnings()) std::cerr << "kscope: warning: " << w << "\n";
    }
    kscope::WriteOptions options;
    options.compare = baseline ? &*baseline : nullptr;
    if (output.empty()) {
      results.write(format, std::cout, options);
    } else {
      results.write(format, output, options);
    }
  });
  kscope::cli::add_query_metrics(app);
  kscope::cli::add_check_metrics(app);
  kscope::cli::add_import_ncu(app);
  kscope::cli::add_merge(app);
  kscope::cli::add_compare(app);

  if (const std::string unknown = unknown_subcommand(app, argc, argv); !unknown.empty()) {
    std::cerr << "kscope: unknown subcommand '" << unknown << "' (expected one of: "
              << subcommand_names(app) << "). Run 'kscope --help' for usage.\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end parsing with code 0; every other parse error is a usage error.
    return app.exit(e) == 0 ? 0 : kExitUsage;
  } catch (const kscope::cli::ExitStatus& status) {
    return status.code;
  } catch (const kscope::Error& e) {
    std::cerr << "kscope: " << e.what() << "\n";
    return kExitError;
  } catch (const std::exception& e) {
    // Not expected (every input error is a kscope::Error): reported, never an abort.
    std::cerr << "kscope: internal error: " << e.what() << "\n";
    return kExitError;
  }
  return 0;
}
