#include "kscope/info_value.hpp"

#include "core/number_format.hpp"

namespace kscope {

std::string InfoValue::to_string() const {
  if (is_number()) return format_shortest(number());
  return text();
}

}  // namespace kscope
