#pragma once
// The process's interrupt check (kscope::set_interrupt_check): called while kscope waits for a
// child process (an ncu or compute-sanitizer part), so that a Ctrl-C reaches the caller of a
// language binding without waiting for the part to end.

namespace kscope::subprocess {

/// Calls the check set by kscope::set_interrupt_check, if any; what it throws propagates.
void check_interrupt();

}  // namespace kscope::subprocess
