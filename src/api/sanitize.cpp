// kscope::sanitize: profile() with tool "sanitizer", each config once.

#include "kscope/sanitize.hpp"

namespace kscope {

Results sanitize(std::string_view name, std::vector<Config> configs, const Benchmark& fn,
                 Options options) {
  options.tool = "sanitizer";
  options.runs = 1;
  options.warmup_runs = 0;
  return profile(name, std::move(configs), fn, options);
}

}  // namespace kscope
