// kscope::Options and what it refers to. Callback fields accept Python callables: nanobind's
// std::function caster re-acquires the GIL for every call (the engine runs with the GIL
// released) and keeps a reference to the callable while the engine holds a copy.

#include <type_traits>
#include <utility>

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include "bind_fields.hpp"
#include "bindings.hpp"
#include "collect/tool_registry.hpp"
#include "core/option_table.hpp"
#include "kscope/options.hpp"

namespace kscope::python {
namespace {

// One entry of the option table as a property of Options under its flat name; callbacks also
// accept and return None (an empty std::function).
void def_option(nb::class_<Options>& cls, const OptionSpec& spec) {
  std::visit(
      [&](const auto& field) {
        using T = std::decay_t<decltype(field.of(std::declval<Options&>()))>;
        if constexpr (IsOptionCallback<T>::value) {
          def_callback_at(cls, spec.name, [field](auto& o) -> auto& { return field.of(o); },
                          spec.doc);
        } else {
          cls.def_prop_rw(
              spec.name, [field](const Options& o) -> T { return field.of(o); },
              [field](Options& o, T value) { field.of(o) = std::move(value); }, spec.doc);
        }
      },
      spec.field);
}

}  // namespace

void bind_options(nb::module_& m) {
  nb::enum_<Verbosity>(m, "Verbosity", "How much kscope prints; level N prints levels <= N.")
      .value("SILENT", Verbosity::kSilent, "nothing at all")
      .value("INFO", Verbosity::kInfo, "header, progress, paths, completion (default)")
      .value("DEBUG", Verbosity::kDebug, "also per-config boxes and tool details");

  nb::class_<DerivedValue>(m, "DerivedValue", "One value returned by a derived-metric function.")
      .def(nb::init<>())
      .def(
          "__init__",
          [](DerivedValue* self, std::string name, double value, std::optional<std::string> unit) {
            new (self) DerivedValue{std::move(name), value, std::move(unit)};
          },
          nb::arg("name"), nb::arg("value"), nb::arg("unit") = nb::none())
      .def_rw("name", &DerivedValue::name, "metric name of the derived row")
      .def_rw("value", &DerivedValue::value, "the value (NaN allowed)")
      .def_rw("unit", &DerivedValue::unit, "unit; None leaves the Unit column empty")
      .def("__repr__", [](const DerivedValue& d) {
        return "DerivedValue(" + d.name + ", " + std::to_string(d.value) + ", " +
               d.unit.value_or("None") + ")";
      });

  nb::class_<ProgressUpdate>(m, "ProgressUpdate", "Where a sweep stands (Options.on_progress).")
      .def(nb::init<>())
      .def_rw("config", &ProgressUpdate::config, "the current config (0-based)")
      .def_rw("num_configs", &ProgressUpdate::num_configs, "configs in the sweep")
      .def_rw("done_runs", &ProgressUpdate::done_runs, "runs finished, warm-up runs included")
      .def_rw("total_runs", &ProgressUpdate::total_runs, "runs in the sweep")
      .def_rw("label", &ProgressUpdate::label, "the current config's values")
      .def_rw("finished", &ProgressUpdate::finished, "the sweep's last update");

  auto options = nb::class_<Options>(m, "Options",
                                     "Every option of profile(); defaults follow nsight-python. "
                                     "validate() checks them all before any GPU work.")
                     .def(nb::init<>())
                     .def("validate", &Options::validate,
                          "Raises InvalidArgument (bad values) or NotSupportedError (valid values "
                          "the tool cannot honour).");
  for (const auto& spec : option_table()) def_option(options, spec);

  m.def(
      "option_table",
      [] {
        const nb::object defaults = nb::cast(Options(), nb::rv_policy::move);
        nb::list out;
        for (const auto& spec : option_table()) {
          nb::dict entry;
          entry["name"] = spec.name;
          entry["type"] = option_type_name(spec);
          entry["default"] = nb::getattr(defaults, spec.name);
          entry["allowed"] = spec.allowed;
          entry["stored"] = spec.record != OptionRecord::kNotStored;
          entry["sweep_identity"] = spec.record == OptionRecord::kSweep;
          entry["doc"] = spec.doc;
          out.append(entry);
        }
        return out;
      },
      "The engine's option table: one dict per option (name, type, default, allowed, stored, "
      "sweep_identity, doc), in the order result files list them.");
  m.def(
      "tool_programs",
      [] {
        nb::dict out;
        for (const auto& t : tool_entries()) {
          out[t.name.c_str()] = t.program ? nb::cast(t.program) : nb::none();
        }
        return out;
      },
      "The tool registry: each tool's name -> the external program it runs (None: in process).");
  m.def("allowed_values", &allowed_values, nb::arg("option"),
        "Allowed values of a string option (\"tool\", \"cache_control\", ...), in message order.");
  m.attr("TIME_METRIC") = kTimeMetric;
  m.attr("DEFAULT_THERMAL_WAIT") = kDefaultThermalWait;
  m.attr("DEFAULT_THERMAL_CONT") = kDefaultThermalCont;
}

}  // namespace kscope::python
