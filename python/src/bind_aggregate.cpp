// kscope/aggregate.hpp: the engine's statistics over raw rows (kscope.transformation.aggregate_data).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "kscope/aggregate.hpp"

namespace nb = nanobind;

namespace kscope::python {

void bind_aggregate(nb::module_& m) {
  m.def("aggregate_rows", &aggregate_rows, nb::arg("raw"), nb::arg("normalize_against") = "",
        nb::call_guard<nb::gil_scoped_release>(),
        "Processed rows of raw rows, grouped by (annotation, metric, config), as profile() makes "
        "them.");
}

}  // namespace kscope::python
