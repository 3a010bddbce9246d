// kscope: command-line front of the engine. Subcommands are added in cli/<command>.cpp and
// registered below; exit statuses in exit_status.hpp (docs/cli.md). The Python package's
// `kscope` command runs `plot` itself and executes this program for everything else.

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "check_metrics.hpp"
#include "compare.hpp"
#include "diagnostics.hpp"
#include "exit_status.hpp"
#include "import_ncu.hpp"
#include "kscope/kscope.hpp"
#include "merge.hpp"
#include "plot.hpp"
#include "query_metrics.hpp"
#include "show.hpp"

namespace {

using kscope::cli::kExitError;
using kscope::cli::kExitUsage;

// The subcommand argv[1] names, "" when it is an option or absent; nullopt when it names none.
std::optional<std::string> subcommand_of(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return std::string();
  for (const auto* sub : app.get_subcommands({})) {
    if (sub->get_name() == argv[1]) return sub->get_name();
  }
  return std::nullopt;
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
  // Named "kscope" whatever argv[0] says: the usage lines name the command the user types.
  CLI::App app{"kscope " + std::string(kscope::version()) +
                   ": benchmark GPU kernels and collect their profiling metrics",
               "kscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kscope ") + kscope::version());
  kscope::cli::add_show(app);
  kscope::cli::add_query_metrics(app);
  kscope::cli::add_check_metrics(app);
  kscope::cli::add_import_ncu(app);
  kscope::cli::add_merge(app);
  kscope::cli::add_compare(app);
  kscope::cli::add_plot(app);
  // After the subcommands, which would inherit it: only `kscope --help` lists the statuses.
  app.footer("Run 'kscope SUBCOMMAND --help' for a subcommand's options.\n\n" +
             kscope::cli::exit_status_help());

  if (argc < 2) {
    std::cerr << app.help();
    return kExitUsage;
  }
  const std::optional<std::string> command = subcommand_of(app, argc, argv);
  if (!command) {
    kscope::cli::print_usage_error(std::string("unknown subcommand '") + argv[1] +
                                       "' (expected one of: " + subcommand_names(app) + ")",
                                   "");
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end parsing with code 0; every other parse error is a usage error.
    if (e.get_exit_code() == 0) return app.exit(e);
    kscope::cli::print_usage_error(e.what(), *command);
    return kExitUsage;
  } catch (const kscope::cli::ExitStatus& status) {
    return status.code;
  } catch (const kscope::Error& e) {
    kscope::cli::print_error(e.what());
    return kExitError;
  } catch (const std::exception& e) {
    // Not expected (every input error is a kscope::Error): reported, never an abort.
    kscope::cli::print_error(std::string("internal error: ") + e.what());
    return kExitError;
  }
  return kscope::cli::kExitSuccess;
}
