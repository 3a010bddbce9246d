// Fuzz target: compute-sanitizer's XML report (the XML reader and the findings built from it),
// then the JSON and table writers on results holding those findings.
#include <sstream>
#include <string>

#include "collect/sanitizer/sanitizer_report.hpp"
#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"
#include "kscope/results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    kscope::Results::Data d;
    d.metadata.tool = "sanitizer";
    d.checked = true;
    d.findings = kscope::sanitizer::parse_sanitizer_report(text, "memcheck", "fuzz.xml");
    const kscope::Results r(std::move(d));
    std::ostringstream sink;
    r.print(sink);
    (void)r.to_json();
  } catch (const kscope::Error&) {
  }
  return 0;
}
