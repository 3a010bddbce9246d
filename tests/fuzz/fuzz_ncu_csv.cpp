// Fuzz target: ncu's raw page as CSV (NcuRawTable), and every number in it.
#include <string>

#include "collect/ncu/ncu_raw_table.hpp"
#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto table = kscope::ncu::NcuRawTable::parse(text, "fuzz.csv");
    for (const auto& result : table.results()) {
      for (std::size_t c = 0; c < table.columns().size(); ++c) {
        try {
          (void)table.number(result, c);
        } catch (const kscope::Error&) {
        }
      }
    }
  } catch (const kscope::Error&) {
  }
  return 0;
}
