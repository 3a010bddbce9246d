// kscope: command-line front of the engine. Subcommands are added in cli/<command>.cpp and
// registered below.
#include <CLI/CLI.hpp>

#include <iostream>

#include "check_metrics.hpp"
#include "import_ncu.hpp"
#include "kscope/kscope.hpp"
#include "query_metrics.hpp"

int main(int argc, char** argv) {
  CLI::App app{"kscope " + std::string(kscope::version()) +
               ": benchmark GPU kernels and collect their profiling metrics"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kscope ") + kscope::version());

  auto* show = app.add_subcommand("show", "Print a saved result (JSON) or journal (.jsonl) as a table");
  std::string path;
  show->add_option("path", path, "result .json or journal .jsonl")->required()->check(CLI::ExistingFile);
  show->callback([&] { kscope::Results::load(path).print(std::cout); });
  kscope::cli::add_query_metrics(app);
  kscope::cli::add_check_metrics(app);
  kscope::cli::add_import_ncu(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const kscope::Error& e) {
    std::cerr << "kscope: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
