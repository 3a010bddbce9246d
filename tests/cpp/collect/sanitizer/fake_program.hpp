#pragma once
// A recorded launch sequence standing in for a program run under compute-sanitizer: for each
// config, the steps of its run (annotations entered and left, kernels launched with what
// compute-sanitizer finds in them, leaked allocations). FakeProgram::run plays the part of the
// sanitizer tool's CheckRunner: it honours the child scope (configs, stop at a boundary) the way
// the re-executed child does, so attribution can be tested without a GPU.

#include <string>
#include <utility>
#include <vector>

#include "collect/sanitizer/finding_attribution.hpp"

namespace kscope::testing {

struct Step {
  enum class Type { kEnter, kExit, kLaunch, kLeak };
  Type type = Type::kLaunch;
  std::string name;               ///< annotation (enter) or kernel (launch)
  std::vector<Finding> findings;  ///< launch: what is found in it; leak: the leak record
  bool poisons = false;           ///< launch: the CUDA context is unusable afterwards
  bool flaky = false;             ///< launch: found only when the whole sweep runs
};

inline Step enter(const std::string& annotation) { return {Step::Type::kEnter, annotation, {}}; }
inline Step leave() { return {Step::Type::kExit, "", {}}; }
inline Step launch(const std::string& kernel, std::vector<Finding> findings = {}) {
  return {Step::Type::kLaunch, kernel, std::move(findings)};
}

/// A memcheck out-of-bounds write by thread `thread` of kernel `kernel`.
inline Finding oob(const std::string& kernel, std::uint32_t thread = 0,
                   const std::string& check = "memcheck") {
  Finding f;
  f.check = check;
  f.category = "Precise";
  f.severity = "Error";
  f.kind = "Invalid __global__ write of size 4 bytes";
  f.detail = "out of bounds";
  f.kernel = kernel;
  f.function = kernel;
  f.file = "/src/kernels.cu";
  f.line = 12;
  f.block = Dim3{0, 0, 0};
  f.thread = Dim3{thread, 0, 0};
  f.size = 4;
  f.address = 0x7f0000000000ULL + thread * 4;
  f.host_stack = {"cuLaunchKernel (/usr/lib/libcuda.so.1+0x39fb94)"};
  return f;
}

/// compute-sanitizer's record of CUDA API call `call` failing (after a memory error broke the
/// context, every call does).
inline Finding failed_call(const std::string& call) {
  Finding f;
  f.check = "memcheck";
  f.category = "ApiError";
  f.severity = "Error";
  f.kind =
      "Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" "
      "on CUDA API call to " +
      call + ".";
  f.function = call;
  f.detail = "cudaErrorLaunchFailure";
  return f;
}

/// A leak of `bytes`, allocated inside kscope's session (the benchmark) or outside it.
inline Step leak(std::uint64_t bytes, bool in_session) {
  Finding f;
  f.check = "memcheck";
  f.category = "Leak";
  f.severity = "Error";
  f.kind = "Leaked " + std::to_string(bytes) + " bytes";
  f.size = bytes;
  f.host_stack = {"cuMemAlloc_v2 (/usr/lib/libcuda.so.1+0x32b91f)",
                  "cudaMalloc (/bin/app+0x4d226)"};
  if (in_session) {
    f.host_stack.push_back(
        "kscope::Session::execute(kscope::RunId const&, kscope::Config const&, "
        "std::function<void (kscope::Config const&)> const&) (/bin/app+0x1234)");
  }
  f.host_stack.push_back("main (/bin/app+0x8cd1)");
  return {Step::Type::kLeak, "", {f}};
}

class FakeProgram {
 public:
  explicit FakeProgram(std::vector<std::vector<Step>> configs) : configs_(std::move(configs)) {}

  /// The program ends the process on a CUDA error (exit(1)) instead of reporting it to kscope.
  bool exits_on_error = false;
  /// Every scope the tool asked for, in order.
  std::vector<subprocess::ChildScope> scopes;

  [[nodiscard]] std::size_t num_configs() const { return configs_.size(); }

  sanitizer::CheckRunner runner() {
    return [this](const std::string& check, const subprocess::ChildScope& scope) {
      return run(check, scope);
    };
  }

  sanitizer::CheckRun run(const std::string& check, const subprocess::ChildScope& scope) {
    scopes.push_back(scope);
    sanitizer::CheckRun r;
    std::vector<Finding> leaks;
    std::size_t boundary = 0;
    std::vector<std::size_t> which;
    if (scope.configs) {
      which = *scope.configs;
    } else {
      for (std::size_t c = 0; c < configs_.size(); ++c) which.push_back(c);
    }
    auto found = [&](const std::vector<Finding>& fs, std::vector<Finding>* into) {
      for (const auto& f : fs) {
        if (f.check == check) into->push_back(f);
      }
    };
    for (auto c : which) {
      for (const auto& step : configs_[c]) {
        switch (step.type) {
          case Step::Type::kEnter:
            r.trace.push_back({step.name, RunId{c, 0, false}});
            [[fallthrough]];
          case Step::Type::kExit:
            if (++boundary == scope.stop_at) return r;  // stopped: no leak check
            break;
          case Step::Type::kLeak:
            found(step.findings, &leaks);
            break;
          case Step::Type::kLaunch:
            if (step.flaky && scope.configs) break;
            found(step.findings, &r.findings);
            if (step.poisons) {
              if (exits_on_error) {
                r.reported = false;
                r.trace.clear();
                r.ended_early = "the program ended with exit status 1";
              } else {
                r.ended_early = "CUDA error: unspecified launch failure";
              }
              r.findings.insert(r.findings.end(), leaks.begin(), leaks.end());
              return r;
            }
            break;
        }
      }
    }
    r.findings.insert(r.findings.end(), leaks.begin(), leaks.end());
    return r;
  }

 private:
  std::vector<std::vector<Step>> configs_;
};

}  // namespace kscope::testing
