#pragma once
// The heap's free memory given back to the system at the end of a session (issue 37): the
// session's records, run logs and spans, freed once the tables are built, would otherwise stay
// in the process's resident memory as free heap pages (glibc keeps them for later allocations).

namespace kscope {

/// Gives the heap's free pages back to the system (glibc's malloc_trim; nothing elsewhere).
void give_back_free_memory();

}  // namespace kscope
