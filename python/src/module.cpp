// NB_MODULE entry point of the private extension kscope._kscope.

#include "bindings.hpp"

NB_MODULE(_kscope, m) {
  m.doc() =
      "Private bindings of kscope's C++ engine (include/kscope/). Use the kscope package; this "
      "module's interface may change without notice.";
  // Results and Options keep the Python callables of a session (derive_metric, log, ...) inside
  // C++ objects, where the cycle collector cannot see them; a user lambda whose module also
  // holds the results then forms a cycle that lives until exit. That is harmless, so do not
  // print nanobind's leak report at interpreter shutdown.
  nanobind::set_leak_warnings(false);
  kscope::python::bind_errors(m);
  kscope::python::bind_config(m);
  kscope::python::bind_info_collectors(m);
  kscope::python::bind_options(m);
  kscope::python::bind_results(m);
  kscope::python::bind_compare(m);
  kscope::python::bind_aggregate(m);
  kscope::python::bind_annotation(m);
  kscope::python::bind_profile(m);
  kscope::python::bind_time(m);
}
