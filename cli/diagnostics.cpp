#include "diagnostics.hpp"

#include <unistd.h>

#include <iostream>

#include "colour.hpp"
#include "report/tint.hpp"

namespace kscope::cli {
namespace {

void print(const char* label, report::Tint tint, const std::string& message) {
  std::cerr << "kscope: " << report::tinted(label, colour_for(STDERR_FILENO) ? tint : report::Tint::kNone)
            << " " << message << "\n";
}

}  // namespace

void print_warning(const std::string& message) { print("warning:", report::Tint::kYellow, message); }

void print_load_warnings(const Results& results) {
  for (const auto& w : results.load_warnings()) print_warning(w);
}

void print_error(const std::string& message) { print("error:", report::Tint::kRed, message); }

void print_usage_error(const std::string& message, const std::string& command) {
  print_error(message);
  std::cerr << "Run 'kscope " << (command.empty() ? "" : command + " ") << "--help' for usage.\n";
}

}  // namespace kscope::cli
