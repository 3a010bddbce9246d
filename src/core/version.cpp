#include "kscope/profile.hpp"

namespace kscope {

const char* version() { return KSCOPE_VERSION; }

}  // namespace kscope
