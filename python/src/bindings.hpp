#pragma once
// The private module _kscope binds kscope's public C++ API (include/kscope/) for the pure-Python
// package kscope. One bind_* function per public header; module.cpp calls them in order.

#include <nanobind/nanobind.h>

#include "kscope/value.hpp"

namespace kscope::python {

namespace nb = nanobind;

/// Python int, float, bool or str -> Value. Anything else raises TypeError naming the type.
[[nodiscard]] Value value_from_py(nb::handle obj);
/// Value -> Python int, float, str or bool.
[[nodiscard]] nb::object value_to_py(const Value& value);

void bind_errors(nb::module_& m);      // exception translation (errors.hpp)
void bind_config(nb::module_& m);      // Value, Config, configs, product (value.hpp, config.hpp)
void bind_options(nb::module_& m);     // Verbosity, DerivedValue, Options (options.hpp)
void bind_results(nb::module_& m);     // Metadata, RawRow, ProcessedRow, Results (results.hpp)
void bind_annotation(nb::module_& m);  // begin/end_annotation, current_annotation
void bind_profile(nb::module_& m);     // profile, version, device_available, available_tools

}  // namespace kscope::python
