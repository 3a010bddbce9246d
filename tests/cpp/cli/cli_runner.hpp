#pragma once
// Running the built `kscope` binary as a user would: its exit status, stdout and stderr.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/gpu_test.hpp"

namespace kscope::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `kscope <args>` (args as a shell would split them) with the environment variables
/// `variables` ("NAME=value ..."), and without NO_COLOR and FORCE_COLOR unless they are among them.
inline CliResult kscope_cli(const std::string& args, const std::string& variables = "") {
  // One directory per test case and call: CTest runs the cases in parallel processes.
  static int counter = 0;
  const std::string dir = scratch_dir(
      std::string("cli_") + ::testing::UnitTest::GetInstance()->current_test_info()->name() +
      "_" + std::to_string(counter++));
  const std::string cmd = "env -u NO_COLOR -u FORCE_COLOR " + variables + " " +
                          std::string(KSCOPE_BINARY_DIR) + "/cli/kscope " + args + " > " + dir +
                          "out.txt 2> " + dir + "err.txt";
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(dir + "out.txt");
  r.err = slurp(dir + "err.txt");
  return r;
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace kscope::testing
