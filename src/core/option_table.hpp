#pragma once
// The one table of kscope::Options (option_table.cpp): every option's flat name, where it lives
// in Options, its C++ type, the values it allows, whether it is stored in result and journal
// files and whether it enters the sweep identity, and a one-line doc. The JSON codec, the value
// checks of Options::validate(), the sweep identity, the Python bindings and the Python front's
// settings checks iterate it; defaults are those of a default-constructed Options. Nothing on a
// run's path reads it.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "kscope/options.hpp"

namespace kscope {

/// What result and journal files do with an option.
enum class OptionRecord {
  kSweep,    ///< stored; a resumed or merged sweep must have the same value (sweep identity)
  kFree,     ///< stored; may differ between the parts of one sweep (what is shown or written)
  kNotStored ///< not in the files (code: hooks and sinks; call_name)
};

/// Where an option lives in an Options: a function returning the field, for reading and writing
/// (a captureless lambda, so that no entry holds state).
template <class T>
struct OptionField {
  T& (*ref)(Options&);
  [[nodiscard]] T& of(Options& o) const { return ref(o); }
  // Reading goes through the same function; it does not modify `o`.
  [[nodiscard]] const T& of(const Options& o) const { return ref(const_cast<Options&>(o)); }
};

/// The option's field, by its C++ type.
using OptionFieldRef = std::variant<
    OptionField<int>, OptionField<double>, OptionField<bool>, OptionField<std::string>,
    OptionField<std::vector<std::string>>, OptionField<std::optional<int>>,
    OptionField<std::optional<bool>>, OptionField<Verbosity>, OptionField<CombineFn>,
    OptionField<DeriveFn>, OptionField<LogSink>, OptionField<ProgressFn>,
    OptionField<std::vector<InfoCollector>>, OptionField<std::function<void(const std::string&)>>,
    OptionField<std::function<void(bool)>>, OptionField<std::function<void(std::size_t)>>,
    OptionField<std::function<void()>>>;

/// Whether an option's type is a callback (a std::function): code, stored as whether it is set.
template <class T>
struct IsOptionCallback : std::false_type {};
template <class R, class... Args>
struct IsOptionCallback<std::function<R(Args...)>> : std::true_type {};

/// Bounds of a number option, checked by Options::validate() with the message
/// "Invalid <name> <value>. Expected <expected>.".
struct NumberBounds {
  double low;
  bool low_open;  ///< value > low (else >= low)
  double high;
  bool high_open;  ///< value < high (else <= high)
  const char* expected;
  int digits;  ///< significant digits of the value in the message; 0: shortest text
};

struct OptionSpec {
  const char* name;  ///< the flat name (Python keyword, file key, error messages)
  OptionFieldRef field;
  OptionRecord record;
  std::vector<std::string> allowed;  ///< the allowed values of a text option (or its entries)
  std::optional<NumberBounds> bounds;
  bool empty_is_null;  ///< a text stored as null when empty (normalize_against)
  const char* doc;
};

/// Every option of kscope::Options, in the order result files list them.
[[nodiscard]] const std::vector<OptionSpec>& option_table();

/// The entry named `name`; nullptr when there is none.
[[nodiscard]] const OptionSpec* find_option(std::string_view name);

/// The C++ type of an option as the Python front names it ("int", "float", "str", "list[str]",
/// "int | None", "Verbosity", "callable", ...).
[[nodiscard]] const char* option_type_name(const OptionSpec& spec);

}  // namespace kscope
