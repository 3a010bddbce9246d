// kscope: command-line front of the engine. Subcommands are added in cli/<command>.cpp and
// registered below. Exit codes (docs/errors.md): 0 success, 1 an error kscope reports (bad input
// file, failed tool, ...), 2 a usage error (unknown subcommand or option, missing argument).

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "check_metrics.hpp"
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
  app.footer("Exit status: 0 success, 1 error (bad input file, failed tool), 2 usage error.");

  auto* show = app.add_subcommand("show", "Print a saved result (JSON) or journal (.jsonl) as a table");
  std::string path;
  show->add_option("path", path, "result .json or journal .jsonl")->required()->check(CLI::ExistingFile);
  show->callback([&] {
    const kscope::Results results = kscope::Results::load(path);
    for (const auto& w : results.load_warnings()) std::cerr << "kscope: warning: " << w << "\n";
    results.print(std::cout);
  });
  kscope::cli::add_query_metrics(app);
  kscope::cli::add_check_metrics(app);
  kscope::cli::add_import_ncu(app);
  kscope::cli::add_merge(app);

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
