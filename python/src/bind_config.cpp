// kscope::Value and kscope::Config. Values cross the boundary as plain Python int, float, str
// and bool; richer Python objects (tuples, tensors, dicts) never reach the engine: the Python
// layer keeps them and hands the engine a printable label instead.

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "kscope/config.hpp"

namespace kscope::python {

Value value_from_py(nb::handle obj) {
  // bool before int: Python's bool is a subclass of int.
  if (PyBool_Check(obj.ptr())) return Value(obj.ptr() == Py_True);
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow != 0) {
      throw nb::value_error("config value does not fit in a 64-bit integer");
    }
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return Value(static_cast<std::int64_t>(v));
  }
  if (PyFloat_Check(obj.ptr())) return Value(PyFloat_AsDouble(obj.ptr()));
  if (PyUnicode_Check(obj.ptr())) return Value(nb::cast<std::string>(obj));
  if (nb::isinstance<Value>(obj)) return nb::cast<Value>(obj);
  throw nb::type_error(("a kscope config value must be int, float, str or bool, not " +
                        std::string(nb::type_name(obj.type()).c_str()))
                           .c_str());
}

nb::object value_to_py(const Value& value) {
  return std::visit(
      [](const auto& x) -> nb::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::int64_t>)
          return nb::int_(x);
        else if constexpr (std::is_same_v<T, double>)
          return nb::float_(x);
        else if constexpr (std::is_same_v<T, bool>)
          return nb::bool_(x);
        else
          return nb::str(x.c_str(), x.size());
      },
      value.storage());
}

namespace {

std::vector<Value> values_from_py(nb::handle seq) {
  std::vector<Value> out;
  for (nb::handle item : seq) out.push_back(value_from_py(item));
  return out;
}

std::vector<std::vector<Value>> rows_from_py(nb::handle rows) {
  std::vector<std::vector<Value>> out;
  for (nb::handle row : rows) out.push_back(values_from_py(row));
  return out;
}

nb::list values_to_py(const std::vector<Value>& values) {
  nb::list out;
  for (const auto& v : values) out.append(value_to_py(v));
  return out;
}

}  // namespace

void bind_config(nb::module_& m) {
  nb::class_<Value>(m, "Value",
                    "One configuration parameter value: int (64-bit), float, str or bool.")
      .def(
          "__init__", [](Value* self, nb::handle obj) { new (self) Value(value_from_py(obj)); },
          nb::arg("value"))
      .def_prop_ro("value", &value_to_py, "The value as a Python int, float, str or bool.")
      .def("is_int", &Value::is_int)
      .def("is_double", &Value::is_double)
      .def("is_string", &Value::is_string)
      .def("is_bool", &Value::is_bool)
      .def("type_name", &Value::type_name, "\"int\", \"float\", \"str\" or \"bool\".")
      .def("to_string", &Value::to_string, "Human-readable form: 1048576, 0.5, fp16, true.")
      .def("__str__", &Value::to_string)
      .def("__repr__", [](const Value& v) { return "Value(" + v.to_string() + ")"; })
      .def("__eq__", [](const Value& a, const Value& b) { return a == b; })
      .def("__hash__", [](const Value& v) { return nb::hash(value_to_py(v)); });

  nb::class_<Config>(m, "Config",
                     "One configuration of a sweep: ordered values with parameter names.")
      .def(
          "__init__",
          [](Config* self, nb::handle values, std::vector<std::string> names) {
            new (self) Config(values_from_py(values), std::move(names));
          },
          nb::arg("values"), nb::arg("names") = std::vector<std::string>{},
          "Values (int, float, str or bool) with their parameter names; missing names default "
          "to arg0, arg1, ...")
      .def("__len__", &Config::size)
      .def("size", &Config::size)
      .def(
          "__getitem__",
          [](const Config& c, std::size_t i) {
            if (i >= c.size()) throw nb::index_error("config index out of range");
            return value_to_py(c[i]);
          },
          nb::arg("index"))
      .def(
          "__getitem__",
          [](const Config& c, const std::string& name) { return value_to_py(c.at(name)); },
          nb::arg("name"),
          "The value of parameter `name` (kscope.exceptions.InvalidArgument if absent).")
      .def_prop_ro(
          "values", [](const Config& c) { return values_to_py(c.values()); },
          "The values as Python objects, in parameter order.")
      .def_prop_ro("names", &Config::names, "Parameter names, in value order.")
      .def_prop_rw("index", &Config::index, &Config::set_index,
                   "Position of this config in the sweep (set by profile before the first run).")
      .def_prop_rw("label", &Config::label, &Config::set_label,
                   "\"n=1048576, dtype=f32\" unless a label was set.")
      .def("__repr__", [](const Config& c) { return "Config(" + c.label() + ")"; });

  m.def(
      "configs",
      [](const std::vector<std::string>& names, nb::handle rows) {
        return configs(names, rows_from_py(rows));
      },
      nb::arg("names"), nb::arg("rows"),
      "Configs from explicit rows, each with one value per name (ConfigError otherwise).");
  m.def(
      "product",
      [](const std::vector<std::string>& names, nb::handle axes) {
        return product(names, rows_from_py(axes));
      },
      nb::arg("names"), nb::arg("axes"), "Cartesian product of named axes, first axis slowest.");
}

}  // namespace kscope::python
