#include "core/duration_definition.hpp"

#include <algorithm>
#include <string>

namespace kscope {

bool measures_durations(const Options& options) {
  return std::find(options.metrics.begin(), options.metrics.end(), std::string(kTimeMetric)) !=
         options.metrics.end();
}

}  // namespace kscope
