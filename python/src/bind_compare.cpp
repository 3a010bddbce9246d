// Bindings of include/kscope/compare.hpp: kscope::compare and its Comparison.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <sstream>

#include "bindings.hpp"
#include "kscope/compare.hpp"


namespace kscope::python {

void bind_compare(nb::module_& m) {
  nb::class_<CompareOptions>(m, "CompareOptions", "How compare() decides (docs/compare.md).")
      .def(nb::init<>())
      .def_rw("alpha", &CompareOptions::alpha, "family-wise significance level (Holm)")
      .def_rw("noise", &CompareOptions::noise, "fraction: a change within it is SAME")
      .def_rw("threshold", &CompareOptions::threshold, "fraction; None: never a regression")
      .def_rw("higher_is_better", &CompareOptions::higher_is_better)
      .def_rw("lower_is_better", &CompareOptions::lower_is_better)
      .def_rw("annotations", &CompareOptions::annotations, "filter: annotation patterns")
      .def_rw("metrics", &CompareOptions::metrics, "filter: metric patterns")
      .def_rw("configs", &CompareOptions::configs, "filter: 'name=value' each")
      .def("validate", &CompareOptions::validate);

  nb::class_<ComparisonRow>(m, "ComparisonRow", "One (annotation, metric, config) compared.")
      .def_ro("session", &ComparisonRow::session, "'' unless sets of results were compared")
      .def_ro("annotation", &ComparisonRow::annotation)
      .def_ro("metric", &ComparisonRow::metric)
      .def_ro("config", &ComparisonRow::config, "the config's label")
      .def_ro("ratio", &ComparisonRow::ratio)
      .def_ro("ratio_ci_lower", &ComparisonRow::ratio_ci_lower)
      .def_ro("ratio_ci_upper", &ComparisonRow::ratio_ci_upper)
      .def_ro("test", &ComparisonRow::test, "'t', 'U' or '' (no p-value)")
      .def_ro("p_value", &ComparisonRow::p_value)
      .def_ro("p_adjusted", &ComparisonRow::p_adjusted, "Holm's adjustment of p_value")
      .def_ro("within_noise", &ComparisonRow::within_noise)
      .def_ro("beyond_threshold", &ComparisonRow::beyond_threshold)
      .def_prop_ro("verdict", [](const ComparisonRow& r) { return std::string(to_string(r.verdict)); })
      .def_prop_ro("verdict_text", &verdict_text,
                   "the verdict as the tables print it ('SLOWER (beyond threshold)')");

  nb::class_<Comparison>(m, "Comparison", "What compare() found.")
      .def_ro("rows", &Comparison::rows)
      .def_ro("warnings", &Comparison::warnings)
      .def_ro("threshold", &Comparison::threshold)
      .def_ro("noise", &Comparison::noise)
      .def_ro("alpha", &Comparison::alpha)
      .def_rw("base_name", &Comparison::base_name)
      .def_rw("new_name", &Comparison::new_name)
      .def("regressed", &Comparison::regressed)
      .def("table", [](const Comparison& c) {
        std::ostringstream out;
        c.print(out);
        return out.str();
      })
      .def("to_markdown", &Comparison::to_markdown)
      .def("to_html_table", &Comparison::to_html_table, nb::arg("max_rows") = 0,
           "An HTML fragment for a notebook: summary, warnings, the table with coloured "
           "verdicts; max_rows > 0: only the first rows.")
      .def("to_csv", [](const Comparison& c) {
        std::ostringstream out;
        c.write_csv(out);
        return out.str();
      })
      .def("to_json", &Comparison::to_json);

  m.def("compare", nb::overload_cast<const Results&, const Results&, const CompareOptions&>(&compare),
        nb::arg("base"), nb::arg("new"), nb::arg("options"),
        "Compares NEW against BASE (docs/compare.md).");
  m.def("compare_sessions",
        nb::overload_cast<const std::vector<Results>&, const std::vector<Results>&,
                          const CompareOptions&>(&compare),
        nb::arg("base"), nb::arg("new"), nb::arg("options"),
        "Compares sets of results joined by session name (docs/compare.md).");
  m.def("compare_directories", &compare_directories, nb::arg("base"), nb::arg("new"),
        nb::arg("options"), "Compares two directories of results by session (docs/compare.md).");
  m.def("student_t_quantile", &student_t_quantile, nb::arg("p"), nb::arg("df"),
        "t with P(T <= t) = p, Student's t with df degrees of freedom");
  m.def(
      "verdict_colors",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (Verdict v : {Verdict::kFaster, Verdict::kSlower, Verdict::kSame, Verdict::kUnsure,
                          Verdict::kBaseOnly, Verdict::kNewOnly}) {
          out.emplace_back(to_string(v), verdict_color(v));
        }
        return out;
      },
      "(verdict, '#rrggbb') for every verdict: the colours of the notebook table and the plot");
  m.def("parse_threshold", &parse_threshold, nb::arg("text"), "'5%' -> 0.05, '0.05' -> 0.05");
  m.def("parse_noise", &parse_noise, nb::arg("text"), "'1%' -> 0.01, as parse_threshold");
}

}  // namespace kscope::python
