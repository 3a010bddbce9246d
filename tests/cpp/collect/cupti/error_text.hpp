#pragma once
// The message of the exception of type E that `fn` throws, or "(no error)".

#include <string>

namespace kscope::testing {

template <class E, class Fn>
std::string error_text(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace kscope::testing
