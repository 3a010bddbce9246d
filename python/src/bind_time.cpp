// kscope::time (kscope/time.hpp): TimeOptions, Timing and time(), which runs with the GIL
// released; the callable re-acquires it for each call, so a Python exception it raises comes back
// unchanged.

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bind_fields.hpp"
#include "bindings.hpp"
#include "kscope/time.hpp"

namespace kscope::python {

std::function<void()> python_call(const nb::callable& fn) {
  // Borrowed: the caller holds the callable for the whole measurement, and the engine's copies of
  // the lambda then touch no reference count while the GIL is released.
  PyObject* callable = fn.ptr();
  return [callable] {
    nb::gil_scoped_acquire gil;
    const nb::handle call(callable);
    call();
  };
}

namespace {

// kscope::time, or its test hook, on the Python callable `fn` with the GIL released.
Timing without_gil(const nb::callable& fn, const TimeOptions& options,
                   Timing (*measure)(const std::function<void()>&, const TimeOptions&)) {
  const std::function<void()> call = python_call(fn);
  nb::gil_scoped_release no_gil;
  return measure(call, options);
}

}  // namespace

void bind_time(nb::module_& m) {
  auto time_options =
      nb::class_<TimeOptions>(m, "TimeOptions",
                              "The options of time(): profile()'s of the same names, with "
                              "auto_runs on and one warm-up call by default.")
          .def(nb::init<>())
          .def_rw("runs", &TimeOptions::runs, "measured calls without auto_runs (>= 1)")
          .def_rw("warmup_runs", &TimeOptions::warmup_runs, "unmeasured calls first (>= 0)")
          .def_rw("cache_control", &TimeOptions::cache_control,
                  "\"all\" (flush the L2 before every call) or \"none\"")
          .def_rw("duration_source", &TimeOptions::duration_source,
                  "\"activity\", \"profiler\" or \"events\"")
          .def_rw("ignore_kernel_list", &TimeOptions::ignore_kernel_list,
                  "kernels that are not counted")
          .def_rw("call_name", &TimeOptions::call_name,
                  "how messages name the call; the measured region's name")
          .def_rw("verbosity", &TimeOptions::verbosity,
                  "SILENT (default), INFO (progress) or DEBUG (also what the call cost)");
  def_adaptive_runs(time_options);
  def_callback(time_options, "setup", &TimeOptions::setup,
               "() -> None called before every call, outside what is measured");
  def_callback(time_options, "log", &TimeOptions::log,
               "(text: str) -> None receiving what time() prints");

  nb::class_<Timing>(m, "Timing", "What time() measured.")
      .def(nb::init<>())
      .def_rw("statistics", &Timing::statistics,
              "ProcessedRow over the measured calls (ns; stop_reason with auto_runs)")
      .def_rw("values", &Timing::values, "ns per measured call, in call order")
      .def_rw("seconds", &Timing::seconds, "wall time of the time() call")
      .def("quantile", &Timing::quantile, nb::arg("q"),
           "The q quantile of values, linear interpolation (numpy's default).")
      .def("rel_ci", &Timing::rel_ci, "CI95 half-width / |avg| (NaN for one call).");

  m.def(
      "time", [](const nb::callable& fn, const TimeOptions& o) { return without_gil(fn, o, time); },
      nb::arg("fn"), nb::arg("options"),
      "Measures fn(): the GPU time of the kernels each call launches (kscope::time). Python "
      "exceptions raised by fn propagate unchanged.");
  m.def(
      "_test_time_without_device",
      [](const nb::callable& fn, const TimeOptions& o) {
        return without_gil(fn, o, time_without_device);
      },
      nb::arg("fn"), nb::arg("options"),
      "Test hook: time() through its real session without a device; the kernels are those fn "
      "launches with _test_launch(name, ns).");
  m.def("_test_launch", &launch_test_kernel, nb::arg("name"), nb::arg("ns"),
        "Test hook: inside _test_time_without_device, kernel `name` of `ns` ns launched now.");
}

}  // namespace kscope::python
