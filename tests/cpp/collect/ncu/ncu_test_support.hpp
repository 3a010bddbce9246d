#pragma once
// Helpers of the ncu tests: fixture text and environment variables set for one test.

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "support/gpu_test.hpp"

namespace kscope::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string fixture_text(const std::string& relative) { return read_text(fixture(relative)); }

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;             // non-copyable
  ScopedEnv& operator=(const ScopedEnv&) = delete;  // non-copyable

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace kscope::testing
