#pragma once
// The process's interrupt check (kscope::set_interrupt_check): called in every wait kscope makes
// without running the benchmark (a child process such as an ncu part, the GPU lock, the cooling
// wait of the thermal guard), so that a Ctrl-C reaches the caller of a language binding without
// waiting for the wait to end.

namespace kscope {

/// Calls the check set by kscope::set_interrupt_check, if any; what it throws propagates.
void check_interrupt();

}  // namespace kscope
