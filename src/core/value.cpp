#include "kscope/value.hpp"


#include "core/number_format.hpp"
#include "kscope/errors.hpp"

namespace kscope {

const char* Value::type_name() const {
  switch (v_.index()) {
    case 0: return "int";
    case 1: return "float";
    case 2: return "str";
    default: return "bool";
  }
}

void Value::throw_bad_get(const char* wanted) const {
  throw InvalidArgument("config value " + to_string() + " is of type " + type_name() +
                        ", cannot be read as " + wanted);
}

std::string Value::to_string() const {
  if (auto* i = std::get_if<std::int64_t>(&v_)) return std::to_string(*i);
  if (auto* s = std::get_if<std::string>(&v_)) return *s;
  if (auto* b = std::get_if<bool>(&v_)) return *b ? "true" : "false";
  return format_shortest(std::get<double>(v_));
}

}  // namespace kscope
