#include "kscope/aggregate.hpp"

#include "core/transformation.hpp"

namespace kscope {

std::vector<ProcessedRow> aggregate_rows(const std::vector<RawRow>& raw,
                                         const std::string& normalize_against) {
  return aggregate(raw, normalize_against);
}

}  // namespace kscope
