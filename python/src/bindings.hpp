#pragma once
// The private module _kscope binds kscope's public C++ API (include/kscope/) for the pure-Python
// package kscope. One bind_* function per public header; module.cpp calls them in order.

#include <nanobind/nanobind.h>

#include <functional>
#include <string>

#include "kscope/info_value.hpp"
#include "kscope/profile.hpp"
#include "kscope/time.hpp"
#include "kscope/value.hpp"

namespace nanobind::detail {

// kscope::InfoValue <-> None, float or str. Python ints and bools become floats; with implicit
// conversion allowed, so do objects with __float__ (numpy scalars).
template <>
struct type_caster<kscope::InfoValue> {
  NB_TYPE_CASTER(kscope::InfoValue, const_name("float | str | None"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    if (o == Py_None) {
      value = kscope::InfoValue();
      return true;
    }
    if (PyUnicode_Check(o)) {
      Py_ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(o, &size);
      if (text == nullptr) {
        PyErr_Clear();
        return false;
      }
      value = kscope::InfoValue(std::string(text, static_cast<std::size_t>(size)));
      return true;
    }
    if (!PyFloat_Check(o) && !PyLong_Check(o) && (flags & (uint8_t)cast_flags::convert) == 0) {
      return false;
    }
    const double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    value = kscope::InfoValue(d);
    return true;
  }

  static handle from_cpp(const kscope::InfoValue& v, rv_policy, cleanup_list*) noexcept {
    if (v.is_number()) return PyFloat_FromDouble(v.number());
    if (v.is_string()) {
      return PyUnicode_FromStringAndSize(v.text().data(), static_cast<Py_ssize_t>(v.text().size()));
    }
    return none().release();
  }
};

}  // namespace nanobind::detail

namespace kscope::python {

namespace nb = nanobind;

/// Python int, float, bool or str -> Value. Anything else raises TypeError naming the type.
[[nodiscard]] Value value_from_py(nb::handle obj);
/// Value -> Python int, float, str or bool.
[[nodiscard]] nb::object value_to_py(const Value& value);

void bind_errors(nb::module_& m);      // exception translation (errors.hpp)
void bind_config(nb::module_& m);      // Value, Config, configs, product (value.hpp, config.hpp)
void bind_info_collectors(nb::module_& m);  // CollectionScope, InfoCollector, InfoColumn
void bind_options(nb::module_& m);     // Verbosity, DerivedValue, Options (options.hpp)
void bind_results(nb::module_& m);     // Metadata, RawRow, ProcessedRow, Results (results.hpp)
void bind_compare(nb::module_& m);     // CompareOptions, Comparison, compare (compare.hpp)
void bind_aggregate(nb::module_& m);   // aggregate_rows (aggregate.hpp)
void bind_annotation(nb::module_& m);  // begin/end_annotation, current_annotation
void bind_profile(nb::module_& m);     // profile, version, device_available, available_tools
void bind_time(nb::module_& m);        // TimeOptions, Timing, time (time.hpp)

/// A Python callable without arguments as the engine's callable: it acquires the GIL for each
/// call; `fn` must outlive it.
[[nodiscard]] std::function<void()> python_call(const nb::callable& fn);

/// Test hook (test_session.cpp): profile() through the engine's real Session and tables with a
/// stand-in for the tool and no device.
[[nodiscard]] Results profile_without_device(std::string_view name, std::vector<Config> configs,
                                             const Benchmark& fn, const Options& options);

/// Test hook (test_session.cpp): kscope::time through its real session without a device, on a
/// stand-in tool whose kernels are those `fn` "launches" with launch_test_kernel().
[[nodiscard]] Timing time_without_device(const std::function<void()>& fn,
                                         const TimeOptions& options);
/// Inside time_without_device: kernel `name` of `ns` launched now (attributed to the open region
/// and run as the CUPTI launch callback attributes a real one). Raises outside it.
void launch_test_kernel(const std::string& name, double ns);

}  // namespace kscope::python
