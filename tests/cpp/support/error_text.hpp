#pragma once
// Checking error messages in tests: the text of the exception a call throws, and "contains".

#include <exception>
#include <string>

namespace kscope::testing {

/// The message of the exception of class E that `fn()` throws; "wrong class: <message>" when it
/// throws another exception, "no error" when it returns.
template <class E, class Fn>
std::string error_text(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong class: ") + e.what();
  }
  return "no error";
}

/// Whether `text` contains `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace kscope::testing
