// kscope::profile and the annotation entry points. profile() runs with the GIL released; the
// benchmark callable re-acquires it for each run, so other Python threads (a worker launching
// kernels inside an annotation) run while the engine waits on the device.

#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <exception>
#include <string>

#include "bindings.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"
#include "kscope/ncu_import.hpp"
#include "kscope/profile.hpp"

namespace kscope::python {

void bind_annotation(nb::module_& m) {
  m.def("begin_annotation", &begin_annotation, nb::arg("name"),
        "Opens annotation `name` (an NVTX range in the domain \"kscope\"). Raises "
        "AnnotationError when another annotation is open or `name` was used in this run.");
  m.def("end_annotation", &end_annotation, nb::arg("failed") = false,
        "Closes the open annotation; failed=True records this run of it as NaN.");
  m.def("current_annotation", &current_annotation, "Name of the open annotation, or \"\".");
  m.attr("NVTX_DOMAIN") = kNvtxDomain;
}

namespace {

// The engine's Benchmark over a Python callable. The callable outlives the profile() call (the
// caller holds it) and the engine does not keep the Benchmark, so a borrowed pointer is enough;
// copies of the lambda then touch no reference count while the GIL is released.
// With on_config_error "skip" a Python Exception becomes a BenchmarkError carrying its type name
// and text (the failure record), and a BaseException that is not an Exception (KeyboardInterrupt,
// SystemExit) a SweepInterrupted nesting it, which the engine never skips and run_profile()
// raises again unchanged.
Benchmark python_benchmark(nb::callable& fn, const Options& options) {
  PyObject* callable = fn.ptr();
  const bool skip = options.on_config_error == "skip";
  return [callable, skip](const Config& config) {
    nb::gil_scoped_acquire gil;
    const nb::handle benchmark_fn(callable);
    if (!skip) {
      benchmark_fn(nb::cast(config, nb::rv_policy::copy));
      return;
    }
    try {
      benchmark_fn(nb::cast(config, nb::rv_policy::copy));
    } catch (nb::python_error& e) {
      if (!e.matches(PyExc_Exception)) {
        std::throw_with_nested(SweepInterrupted("the benchmark raised " +
                                                std::string(nb::type_name(e.type()).c_str())));
      }
      const std::string type = nb::type_name(e.type()).c_str();
      const std::string message = nb::str(e.value()).c_str();
      throw BenchmarkError(type, message);
    }
  };
}

// profile() (or its test variant) with the GIL released; a nested Python exception of a
// SweepInterrupted is raised again as it was.
template <class Profile>
Results run_profile(const Profile& profile_fn) {
  std::exception_ptr interrupted;
  {
    nb::gil_scoped_release no_gil;
    try {
      return profile_fn();
    } catch (const SweepInterrupted& e) {
      interrupted = std::current_exception();
      try {
        std::rethrow_if_nested(e);
      } catch (...) {
        interrupted = std::current_exception();
      }
    }
  }
  std::rethrow_exception(interrupted);
}

// Test hook: what profile() does with the Python callbacks, without a GPU. With the GIL released
// it runs fn(config) options.runs times per config, sends one line to options.log and
// `warning` (if not empty) to options.on_warning, combines 1.0 and 2.0 with
// options.combine_kernel_metrics, and calls options.derive_metric with metric values 1.0, 2.0,
// ... for every config.
nb::tuple drive_callbacks(std::vector<Config> configs, nb::callable fn, const Options& options,
                          const std::string& warning) {
  const Benchmark benchmark = python_benchmark(fn, options);
  std::vector<std::vector<DerivedValue>> derived;
  double combined = 0;
  {
    nb::gil_scoped_release no_gil;
    for (std::size_t i = 0; i < configs.size(); ++i) configs[i].set_index(i);
    for (const auto& config : configs) {
      for (int r = 0; r < options.runs; ++r) benchmark(config);
    }
    if (options.log) options.log("[kscope] driven by _test_drive_callbacks\n");
    if (options.on_warning && !warning.empty()) options.on_warning(warning);
    if (options.combine_kernel_metrics) combined = options.combine_kernel_metrics(1.0, 2.0);
    if (options.derive_metric) {
      std::vector<double> values;
      for (std::size_t m = 0; m < options.metrics.size(); ++m) values.push_back(1.0 + m);
      for (const auto& config : configs) derived.push_back(options.derive_metric(values, config));
    }
  }
  return nb::make_tuple(derived, combined);
}

}  // namespace

void bind_profile(nb::module_& m) {
  // A Ctrl-C while kscope waits without running the benchmark (an ncu or compute-sanitizer
  // part, the GPU lock, the cooling wait): Python's handler runs (on the main thread; elsewhere
  // the check does nothing) and its KeyboardInterrupt ends the wait.
  set_interrupt_check([] {
    nb::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw nb::python_error();
  });
  m.def(
      "profile",
      [](const std::string& name, std::vector<Config> configs, nb::callable fn,
         const Options& options) {
        const Benchmark benchmark = python_benchmark(fn, options);
        return run_profile([&] { return profile(name, std::move(configs), benchmark, options); });
      },
      nb::arg("name"), nb::arg("configs"), nb::arg("fn"), nb::arg("options"),
      "Runs fn(config) for every config options.runs times and measures the kernels launched "
      "inside annotations. Python exceptions raised by fn propagate unchanged.");
  m.def("_test_drive_callbacks", &drive_callbacks, nb::arg("configs"), nb::arg("fn"),
        nb::arg("options"), nb::arg("warning") = "",
        "Test hook: calls the Python callbacks of `options` and `fn` from C++ with the GIL "
        "released, as profile() does, without a GPU. Returns (derived values per config, "
        "combine_kernel_metrics(1.0, 2.0) or 0.0).");
  m.def(
      "_test_profile_without_device",
      [](const std::string& name, std::vector<Config> configs, nb::callable fn,
         const Options& options) {
        const Benchmark benchmark = python_benchmark(fn, options);
        return run_profile(
            [&] { return profile_without_device(name, std::move(configs), benchmark, options); });
      },
      nb::arg("name"), nb::arg("configs"), nb::arg("fn"), nb::arg("options"),
      "Test hook: profile() through the engine's real session (info collectors, annotations, "
      "extraction, statistics) without a device; each annotation entered in a measured run is "
      "one kernel whose metric i is worth 100 (config + 1) + run + i.");
  m.def(
      "import_ncu",
      [](const std::string& path, std::vector<std::string> metrics, bool all_metrics,
         std::string ncu) {
        NcuImportOptions options;
        options.metrics = std::move(metrics);
        options.all_metrics = all_metrics;
        options.ncu = std::move(ncu);
        nb::gil_scoped_release no_gil;  // may run `ncu --import` on a large report
        return import_ncu(path, options);
      },
      nb::arg("path"), nb::arg("metrics") = std::vector<std::string>{},
      nb::arg("all_metrics") = false, nb::arg("ncu") = "",
      "Reads an Nsight Compute report (.ncu-rep, or a CSV of its raw page) into Results: one "
      "config per profiled kernel (include/kscope/ncu_import.hpp).");
  m.def("version", &version, "kscope's version string.");
  m.def(
      "device_available",
      []() {
        std::string reason;
        const bool ok = device_available(&reason);
        return nb::make_tuple(ok, reason);
      },
      "(True, \"\") when a CUDA device is usable, else (False, reason).");
  m.def("available_tools", &available_tools, "Names of the tools this build has.");
  m.def("release", &release,
        "Gives up what kscope keeps loaded between profile() calls (CUPTI, NVML): kscope::release.");
}

}  // namespace kscope::python
