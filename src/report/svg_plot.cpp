#include "report/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/number_format.hpp"
#include "report/processed_cells.hpp"

namespace kscope::report {
namespace {

constexpr double kWidth = 720;
constexpr double kHeight = 400;
constexpr double kLeft = 80;
constexpr double kRight = 170;  // legend
constexpr double kTop = 56;
constexpr double kBottom = 110;  // rotated config labels
// matplotlib's default colour cycle (tab10), as kscope.analyze.plot draws.
constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string fmt(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

// A step of 1, 2 or 5 times a power of ten giving about five ticks over `range`.
double nice_step(double range) {
  if (!(range > 0)) return 1;
  const double raw = range / 5;
  const double p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

// An axis tick: six significant digits without trailing zeros ("500", "0.25").
std::string tick_text(double v) {
  std::string t = format_significant(v, 6);
  if (t.find('.') == std::string::npos || t.find_first_of("eE") != std::string::npos) return t;
  while (t.back() == '0') t.pop_back();
  if (t.back() == '.') t.pop_back();
  return t;
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string svg_plot(const Results& results, const std::string& metric) {
  const auto rows = results.rows(metric);
  // Configs in sweep order (x positions) and annotations in table order (series).
  std::vector<std::size_t> configs;
  std::vector<std::string> series;
  for (const auto& p : rows) {
    if (std::find(configs.begin(), configs.end(), p.config) == configs.end()) configs.push_back(p.config);
    if (std::find(series.begin(), series.end(), p.annotation) == series.end()) series.push_back(p.annotation);
  }
  std::sort(configs.begin(), configs.end());
  const bool normalized = !rows.empty() && rows.front().normalized.has_value();
  double lo = 0;
  double hi = 0;
  std::size_t runs = 0;
  bool any = false;
  for (const auto& p : rows) {
    runs = std::max(runs, p.num_runs);
    for (double v : {p.avg, normalized ? p.avg : p.ci95_lower, normalized ? p.avg : p.ci95_upper}) {
      if (!std::isfinite(v)) continue;
      lo = any ? std::min(lo, v) : std::min(0.0, v);
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  }
  if (!(hi > lo)) hi = lo + 1;
  const double step = nice_step(hi - lo);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi * 1.05 / step) * step;
  const double pw = kWidth - kLeft - kRight;
  const double ph = kHeight - kTop - kBottom;
  auto x_of = [&](std::size_t i) {
    return kLeft + (configs.size() <= 1 ? pw / 2 : pw * (0.05 + 0.9 * i / (configs.size() - 1.0)));
  };
  auto y_of = [&](double v) { return kTop + ph * (1 - (v - lo) / (hi - lo)); };

  std::ostringstream s;
  // As kscope.analyze.plot's PNG: the unit, or the baseline when normalised (a ratio has none).
  const std::string unit = !rows.empty() && rows.front().unit && !rows.front().unit->empty() && !normalized
                               ? " (" + *rows.front().unit + ")"
                               : "";
  const Metadata& m = results.metadata();
  s << "<svg class=\"plot\" width=\"" << kWidth
    << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
    << "\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n"
    << "<title>" << xml_escape(metric) << "</title>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << fmt(kLeft + pw / 2) << "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">"
    << xml_escape(results.name()) << "</text>\n"
    << "<text x=\"" << fmt(kLeft + pw / 2) << "\" y=\"38\" text-anchor=\"middle\">"
    << xml_escape(gpu_label(m) + ", " + m.host) << "</text>\n";
  // Axes, grid and y ticks.
  s << "<g stroke=\"#ccc\" stroke-width=\"0.5\">\n";
  for (double v = lo; v <= hi + step / 2; v += step) {
    s << "<line x1=\"" << fmt(kLeft) << "\" x2=\"" << fmt(kLeft + pw) << "\" y1=\"" << fmt(y_of(v))
      << "\" y2=\"" << fmt(y_of(v)) << "\"/>\n";
  }
  s << "</g>\n<g text-anchor=\"end\">\n";
  for (double v = lo; v <= hi + step / 2; v += step) {
    s << "<text x=\"" << fmt(kLeft - 6) << "\" y=\"" << fmt(y_of(v) + 4) << "\">"
      << xml_escape(tick_text(std::abs(v) < step * 1e-9 ? 0 : v)) << "</text>\n";
  }
  s << "</g>\n<rect x=\"" << fmt(kLeft) << "\" y=\"" << fmt(kTop) << "\" width=\"" << fmt(pw)
    << "\" height=\"" << fmt(ph) << "\" fill=\"none\" stroke=\"black\"/>\n";
  const std::string ylabel = metric + unit + (normalized ? " relative to " + *rows.front().normalized : "") +
                             " (avg: " + std::to_string(runs) + " runs)";
  s << "<text transform=\"translate(16," << fmt(kTop + ph / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
    << xml_escape(ylabel) << "</text>\n";
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string label = results.configs().at(configs[i]).label();
    s << "<text transform=\"translate(" << fmt(x_of(i) + 4) << "," << fmt(kTop + ph + 12)
      << ") rotate(-35)\" text-anchor=\"end\">" << xml_escape(label) << "</text>\n";
  }
  // Series: error bars, line, markers; legend.
  for (std::size_t k = 0; k < series.size(); ++k) {
    const char* color = kColors[k % (sizeof kColors / sizeof kColors[0])];
    std::string points;
    s << "<g class=\"series\" stroke=\"" << color << "\" fill=\"" << color << "\">\n";
    for (std::size_t i = 0; i < configs.size(); ++i) {
      for (const auto& p : rows) {
        if (p.annotation != series[k] || p.config != configs[i] || !std::isfinite(p.avg)) continue;
        const double x = x_of(i);
        if (!normalized && std::isfinite(p.ci95_lower) && std::isfinite(p.ci95_upper) &&
            p.ci95_upper > p.ci95_lower) {
          s << "<line x1=\"" << fmt(x) << "\" x2=\"" << fmt(x) << "\" y1=\"" << fmt(y_of(p.ci95_lower))
            << "\" y2=\"" << fmt(y_of(p.ci95_upper)) << "\"/>\n";
        }
        s << "<circle cx=\"" << fmt(x) << "\" cy=\"" << fmt(y_of(p.avg)) << "\" r=\"3.5\"><title>"
          << xml_escape(series[k] + ", " + results.configs().at(p.config).label() + ": " +
                        format_significant(p.avg, 6))
          << "</title></circle>\n";
        points += (points.empty() ? "" : " ") + fmt(x) + "," + fmt(y_of(p.avg));
      }
    }
    s << "<polyline fill=\"none\" stroke-width=\"1.5\" points=\"" << points << "\"/>\n</g>\n";
    const double ly = kTop + 10 + 18 * static_cast<double>(k);
    s << "<line x1=\"" << fmt(kLeft + pw + 12) << "\" x2=\"" << fmt(kLeft + pw + 32) << "\" y1=\""
      << fmt(ly) << "\" y2=\"" << fmt(ly) << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n"
      << "<text x=\"" << fmt(kLeft + pw + 38) << "\" y=\"" << fmt(ly + 4) << "\">"
      << xml_escape(series[k]) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace kscope::report
