// Info collectors (info_collector.hpp): the scopes, a collector over a Python callable, the
// columns of the results and the engine's name checks. The Python package adapts the user's
// callbacks (argument binding, value conversion) and hands the engine one callable per collector:
// callback(annotation: str, config: Config | None) -> float | str | None.

#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>

#include "bindings.hpp"
#include "kscope/info_collector.hpp"

namespace kscope::python {
namespace {

// A Python BaseException that is not an Exception (KeyboardInterrupt, SystemExit) raised by a
// collector must end profiling, not become a missing value: it crosses the engine as this type,
// which the engine does not absorb (it absorbs std::exception), and is raised again in Python.
struct PythonStop {
  nb::python_error error;
};

using PythonInfoFn = std::function<InfoValue(std::string_view annotation, const Config* config)>;

// The engine's InfoFn over the Python callable: a Python Exception becomes InfoCollectorError
// naming its type, so the engine's warning reads "raised ValueError: ...".
InfoFn engine_callback(PythonInfoFn fn) {
  return [fn = std::move(fn)](const InfoCall& call) -> InfoValue {
    try {
      return fn(call.annotation, call.config);
    } catch (nb::python_error& e) {
      std::string type;
      std::string message;
      bool failure = false;
      {
        nb::gil_scoped_acquire gil;
        failure = e.matches(PyExc_Exception);
        if (failure) {
          type = nb::cast<std::string>(e.type().attr("__name__"));
          message = nb::cast<std::string>(nb::str(e.value()));
        }
      }
      if (!failure) throw PythonStop{std::move(e)};
      throw InfoCollectorError(type, message);
    }
  };
}

void translate_stop(const std::exception_ptr& p, void* /*payload*/) {
  try {
    std::rethrow_exception(p);
  } catch (PythonStop& stop) {
    stop.error.restore();
  }
}

}  // namespace

void bind_info_collectors(nb::module_& m) {
  nb::register_exception_translator(&translate_stop);

  nb::enum_<CollectionScope>(m, "CollectionScope", "When an info collector is called.")
      .value("ONCE", CollectionScope::kOnce, "once per profile() call")
      .value("CONFIG", CollectionScope::kConfig, "once per config, before its runs")
      .value("RUN", CollectionScope::kRun, "before each measured run")
      .value("ANNOTATION", CollectionScope::kAnnotation,
             "at each entry of an annotation, before it opens");

  nb::class_<InfoCollector>(m, "InfoCollector",
                            "One custom column: a name, a scope and a callback.")
      .def(
          "__init__",
          [](InfoCollector* self, std::string name, CollectionScope scope, PythonInfoFn callback) {
            new (self) InfoCollector{std::move(name), scope, engine_callback(std::move(callback))};
          },
          nb::arg("name"), nb::arg("scope"), nb::arg("callback"),
          "callback(annotation: str, config: Config | None) -> float | str | None; annotation "
          "is \"\" outside ANNOTATION scope, config None at ONCE scope.")
      .def_rw("name", &InfoCollector::name)
      .def_rw("scope", &InfoCollector::scope)
      .def("__repr__", [](const InfoCollector& c) {
        return "InfoCollector(" + c.name + ", " + scope_name(c.scope) + ")";
      });

  nb::class_<InfoColumn>(m, "InfoColumn", "How one info collector appears in the results.")
      .def(nb::init<>())
      .def_rw("name", &InfoColumn::name)
      .def_rw("scope", &InfoColumn::scope)
      .def_rw("aggregated", &InfoColumn::aggregated,
              "the processed table has <name>_Avg/_Std/_Min/_Max instead of <name>");

  m.def("validate_info_collectors", &validate_info_collectors, nb::arg("collectors"),
        nb::arg("parameters") = std::vector<std::string>{}, nb::arg("function") = "",
        "Raises InvalidArgument (duplicate names, reserved column names, parameter names).");
  m.def("reserved_column_names", &reserved_column_names,
        "Column names an info collector may not take, sorted.");
  m.def("raw_info_columns", &raw_info_columns, nb::arg("columns"),
        "The raw table's info columns: one per collector.");
  m.def("processed_info_columns", &processed_info_columns, nb::arg("columns"),
        "The processed table's info columns: <name> or <name>_Avg/_Std/_Min/_Max.");
}

}  // namespace kscope::python
