// Fuzz target: compute-sanitizer's XML report (the XML reader and the findings built from it).
#include <string>

#include "collect/sanitizer/sanitizer_report.hpp"
#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)kscope::sanitizer::parse_sanitizer_report(text, "memcheck", "fuzz.xml");
  } catch (const kscope::Error&) {
  }
  return 0;
}
