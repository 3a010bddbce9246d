// A user program for the re-execution protocol tests. It has two sessions, "first" and
// "second", run through the child side of the protocol with a fake device (no GPU needed), as
// kscope::profile does when the child marker is set. argv[1] picks what it does:
//   ok           both sessions are called (only the marked one runs)
//   throw        the benchmark throws kscope::InvalidArgument in config n=20
//   skip-second  the program never calls session "second"
#include <cstdio>
#include <memory>
#include <string>

#include "api/child_session.hpp"
#include "kscope/kscope.hpp"
#include "subprocess/child_marker.hpp"

namespace {

class NullEnvironment : public kscope::RunEnvironment {
 public:
  void synchronize() override {}
};

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "ok";
  const auto marker = kscope::subprocess::ChildMarker::from_environment();
  if (!marker) {
    std::fprintf(stderr, "no child marker in the environment\n");
    return 3;
  }
  kscope::Options opt;
  opt.runs = 2;
  opt.warmup_runs = 1;
  opt.verbosity = kscope::Verbosity::kSilent;
  const auto configs = kscope::configs({10, 20}, "n");
  const auto device = [](const kscope::Options&) {
    kscope::ChildDevice d;
    d.environment = std::make_unique<NullEnvironment>();
    d.metadata.gpu = "Fake GPU";
    return d;
  };
  for (const std::string name : {"first", "second"}) {
    if (name == "second" && mode == "skip-second") break;
    const auto fn = [&](const kscope::Config& c) {
      if (mode == "throw" && c.get<int>("n") == 20) {
        throw kscope::InvalidArgument("bad input in benchmark");
      }
      { kscope::Annotation a("a"); }
      { kscope::Annotation b("b"); }
    };
    const auto r = kscope::run_child_session(*marker, name, 0, configs, fn, opt, device);
    std::fprintf(stderr, "%s returned %zu rows\n", name.c_str(), r.raw().size());
  }
  return 0;
}
