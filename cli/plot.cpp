#include "plot.hpp"

#include "kscope/errors.hpp"

namespace kscope::cli {

void add_plot(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plot",
      "Plot a saved result (JSON, journal or processed CSV) to an image, like "
      "@kscope.analyze.plot: part of the Python package (kscope plot --help)");
  cmd->allow_extras();
  cmd->set_help_flag();  // its --help is the Python command's
  cmd->callback([] {
    throw Error(
        "plot is part of the Python package's kscope command (pip install 'kernelscope[plot]'); "
        "this is the engine's executable alone, which cannot draw");
  });
}

}  // namespace kscope::cli
