#include "core/raw_columns.hpp"

namespace kscope {

const std::vector<RawColumn>& raw_columns() {
  static const std::vector<RawColumn> columns = {
      {"Annotation", &RawRow::annotation},
      {"Value", &RawRow::value},
      {"Metric", &RawRow::metric},
      {"Kernel", &RawRow::kernel},
      {"GPU", &Metadata::gpu},
      {"Host", &Metadata::host},
      {"ComputeClock", &Metadata::compute_clock},
      {"MemoryClock", &Metadata::memory_clock},
      {"Unit", &RawRow::unit},
      {"<info collectors>", InfoColumns{}},
      {"<parameters>", ParameterColumns{}},
  };
  return columns;
}

}  // namespace kscope
