#pragma once
// Carries an exception across the process boundary of the re-execution protocol: the child
// records the class and message of what ended its session, the parent throws the same kscope
// error class again, so that e.g. a NoDeviceError in the child is a NoDeviceError for the user.

#include <exception>
#include <string>

namespace kscope::subprocess {

/// The name of the kscope::Error class of `e` ("NoDeviceError", "InvalidArgument", ...);
/// "Error" for other kscope errors and "exception" for anything else.
[[nodiscard]] std::string error_kind(const std::exception& e);

/// Throws the kscope error class named by `kind` (see error_kind) with `message`; kinds it does
/// not know (a user exception) become kscope::Error.
[[noreturn]] void throw_error_of_kind(const std::string& kind, const std::string& message);

}  // namespace kscope::subprocess
