// kscope::Timing's derived statistics (include/kscope/time.hpp), from the engine's statistics.

#include <cmath>
#include <limits>

#include "core/number_format.hpp"
#include "core/statistics.hpp"
#include "kscope/errors.hpp"
#include "kscope/time.hpp"

namespace kscope {

double Timing::quantile(double q) const {
  if (!(q >= 0 && q <= 1)) {
    throw InvalidArgument("Invalid quantile " + format_general(q, 6) +
                          ". Expected a fraction between 0 and 1, e.g. 0.5 for the median.");
  }
  return stats::quantile(values, q);
}

double Timing::rel_ci() const {
  if (statistics.num_runs < 2 || statistics.avg == 0) return std::numeric_limits<double>::quiet_NaN();
  return (statistics.ci95_upper - statistics.avg) / std::fabs(statistics.avg);
}

}  // namespace kscope
