#pragma once
// One metric of a result drawn as an inline SVG line chart, the default plot of
// kscope.analyze.plot (docs/plots.md) without matplotlib: one line with markers per annotation
// over the configs (in sweep order, labelled with their labels), CI95 error bars, the session's
// name and "<GPU>, <host>" as title, "<metric> (<unit>) (avg: N runs)" on the y axis. The HTML
// report embeds one per metric, so the C++ writer needs no Python.

#include <string>

#include "kscope/results.hpp"

namespace kscope::report {

/// An inline <svg> element for an HTML page (UTF-8 text, no external references) of
/// `metric`'s AvgValue.
[[nodiscard]] std::string svg_plot(const Results& results, const std::string& metric);

/// `text` with &, <, >, " and ' escaped for HTML and SVG.
[[nodiscard]] std::string xml_escape(const std::string& text);

}  // namespace kscope::report
