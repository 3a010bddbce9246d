// Fuzz target: ncu's raw page as CSV through kscope::import_ncu (NcuRawTable, the metric choice,
// every number), then the table and JSON writers on what it made.
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"
#include "kscope/ncu_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // import_ncu reads a path: one scratch file per process.
  static const std::string path = "/tmp/kscope-fuzz-ncu-" + std::to_string(getpid()) + ".csv";
  {
    // Without NUL bytes the file cannot start with a report's magic "NVR\0", which would make
    // import_ncu run ncu on it: this target is about the CSV reader.
    std::string text(reinterpret_cast<const char*>(data), size);
    for (char& c : text) {
      if (c == '\0') c = ' ';
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  try {
    const kscope::Results r = kscope::import_ncu(path);
    std::ostringstream sink;
    r.print(sink);
    (void)r.to_json();
  } catch (const kscope::Error&) {
  }
  return 0;
}
