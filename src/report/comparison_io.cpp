// The outputs of kscope::Comparison: table, markdown, the notebook's HTML, CSV and JSON
// (docs/compare.md), and the verdicts' display text and colour. The CSV and JSON columns come
// from one list, kColumns.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <ostream>
#include <sstream>

#include "core/number_format.hpp"
#include "kscope/compare.hpp"
#include "report/aligned_text.hpp"
#include "report/csv_writer.hpp"
#include "report/html_table.hpp"
#include "report/json_codec.hpp"
#include "report/svg_plot.hpp"
#include "report/tint.hpp"

namespace kscope {
namespace {
using report::Json;

Json number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

struct Column {
  const char* name;
  std::function<Json(const ComparisonRow&)> value;
};

const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      {"Session", [](const ComparisonRow& r) { return Json(r.session); }},
      {"Annotation", [](const ComparisonRow& r) { return Json(r.annotation); }},
      {"Metric", [](const ComparisonRow& r) { return Json(r.metric); }},
      {"Config", [](const ComparisonRow& r) { return Json(r.config); }},
      {"Unit", [](const ComparisonRow& r) { return r.unit ? Json(*r.unit) : Json(nullptr); }},
      {"Direction", [](const ComparisonRow& r) { return Json(to_string(r.direction)); }},
      {"DirectionDeclared", [](const ComparisonRow& r) { return Json(r.direction_declared); }},
      {"BaseValue", [](const ComparisonRow& r) { return number(r.base_value); }},
      {"NewValue", [](const ComparisonRow& r) { return number(r.new_value); }},
      {"BaseRuns", [](const ComparisonRow& r) { return Json(r.base_runs); }},
      {"NewRuns", [](const ComparisonRow& r) { return Json(r.new_runs); }},
      {"BaseRSDPct", [](const ComparisonRow& r) { return number(r.base_rsd_pct); }},
      {"NewRSDPct", [](const ComparisonRow& r) { return number(r.new_rsd_pct); }},
      {"Ratio", [](const ComparisonRow& r) { return number(r.ratio); }},
      {"RatioCI95_Lower", [](const ComparisonRow& r) { return number(r.ratio_ci_lower); }},
      {"RatioCI95_Upper", [](const ComparisonRow& r) { return number(r.ratio_ci_upper); }},
      {"Test", [](const ComparisonRow& r) { return Json(r.test); }},
      {"PValue", [](const ComparisonRow& r) { return number(r.p_value); }},
      {"PValueHolm", [](const ComparisonRow& r) { return number(r.p_adjusted); }},
      {"Verdict", [](const ComparisonRow& r) { return Json(to_string(r.verdict)); }},
      {"WithinNoise", [](const ComparisonRow& r) { return Json(r.within_noise); }},
      {"BeyondThreshold", [](const ComparisonRow& r) { return Json(r.beyond_threshold); }},
  };
  return c;
}

std::string csv_text(const Json& j) {
  if (j.is_null()) return "";
  if (j.is_boolean()) return j.get<bool>() ? "True" : "False";
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_unsigned()) return std::to_string(j.get<std::size_t>());
  return format_shortest(j.get<double>());
}

std::string num(double x) { return std::isfinite(x) ? format_significant(x, 6) : "-"; }

std::string change_text(const ComparisonRow& r) {
  if (!std::isfinite(r.ratio)) return "-";
  const double pct = 100 * (r.ratio - 1);
  return (pct > 0 ? "+" : "") + format_significant(pct, 3) + "%";
}

std::string ci_text(const ComparisonRow& r) {
  if (!std::isfinite(r.ratio_ci_lower)) return "-";
  return "[" + format_significant(r.ratio_ci_lower, 4) + ", " +
         format_significant(r.ratio_ci_upper, 4) + "]";
}

bool has_sessions(const Comparison& c) {
  return std::any_of(c.rows.begin(), c.rows.end(),
                     [](const ComparisonRow& r) { return !r.session.empty(); });
}

// The human-readable table of print(), to_markdown() and to_html_table(), rows in `order`; a
// Session column first when sets of results were compared.
report::Cells display_cells(const Comparison& c, const std::vector<std::size_t>& order) {
  const bool sessions = has_sessions(c);
  report::Cells cells;
  cells.header = {"Annotation", "Config", "Metric", "Unit", "Base", "New", "Ratio",
                  "Ratio CI95", "Change", "p (Holm)", "Verdict"};
  if (sessions) cells.header.insert(cells.header.begin(), "Session");
  for (std::size_t i : order) {
    const ComparisonRow& r = c.rows[i];
    std::vector<std::string> row = {
        r.annotation, r.config, r.metric, r.unit.value_or(""), num(r.base_value),
        num(r.new_value), std::isfinite(r.ratio) ? format_significant(r.ratio, 4) : "-",
        ci_text(r), change_text(r),
        std::isfinite(r.p_adjusted) ? format_significant(r.p_adjusted, 2) : "-", verdict_text(r)};
    if (sessions) row.insert(row.begin(), r.session);
    cells.rows.push_back(std::move(row));
  }
  cells.first_number = sessions ? 5 : 4;  // Base, New, Ratio, Ratio CI95, Change, p
  cells.numbers = 6;
  return cells;
}

std::vector<std::size_t> table_order(const Comparison& c) {
  std::vector<std::size_t> order(c.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  return order;
}

// The regressed rows first (beyond the threshold, then the other SLOWER rows), then the rest,
// each group in table order.
std::vector<std::size_t> regressed_first(const Comparison& c) {
  std::vector<std::size_t> order = table_order(c);
  const auto rank = [&](std::size_t i) {
    const ComparisonRow& r = c.rows[i];
    return r.beyond_threshold ? 0 : r.verdict == Verdict::kSlower ? 1 : 2;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  return order;
}

// How the verdicts were reached, under the table.
std::string rules_line(const Comparison& c) {
  std::size_t family = 0;
  for (const auto& r : c.rows) family += std::isfinite(r.p_adjusted) ? 1 : 0;
  return "FASTER/SLOWER: a change beyond the noise threshold of " +
         format_general(100 * c.noise, 6) + "% with p < " + format_general(c.alpha, 6) +
         " after Holm's adjustment over " + std::to_string(family) + " row" +
         (family == 1 ? "" : "s") + " (docs/compare.md)";
}

std::string summary_line(const Comparison& c) {
  std::size_t counts[6] = {0, 0, 0, 0, 0, 0};
  for (const auto& r : c.rows) ++counts[static_cast<int>(r.verdict)];
  std::string out;
  for (Verdict v : {Verdict::kFaster, Verdict::kSlower, Verdict::kSame, Verdict::kUnsure,
                    Verdict::kBaseOnly, Verdict::kNewOnly}) {
    if (counts[static_cast<int>(v)] == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(counts[static_cast<int>(v)]) + " " +
           to_string(v);
  }
  if (out.empty()) out = "no rows";
  if (c.threshold) {
    out += c.regressed() ? "; SLOWER beyond the threshold of " : "; nothing SLOWER beyond the threshold of ";
    out += format_general(100 * *c.threshold, 6) + "%";
  }
  return out;
}

std::string verdict_class(Verdict v) {
  std::string name = to_string(v);
  for (char& c : name) {
    c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return "kscope-verdict-" + name;
}

}  // namespace

std::string verdict_text(const ComparisonRow& r) {
  std::string v = to_string(r.verdict);
  if (r.beyond_threshold) v += " (beyond threshold)";
  if (r.within_noise) v += " (within noise)";
  return v;
}

const char* verdict_color(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFaster: return "#1a7f37";
    case Verdict::kSlower: return "#cf222e";
    case Verdict::kSame: return "#6e7781";
    case Verdict::kUnsure: return "#9a6700";
    case Verdict::kBaseOnly: return "#0969da";
    case Verdict::kNewOnly: return "#8250df";
  }
  return "#6e7781";
}

void Comparison::print(std::ostream& out, bool colour) const {
  using report::Tint;
  out << "kscope compare: BASE " << base_name << " vs NEW " << new_name << "\n";
  for (const auto& w : warnings) {
    out << report::tinted("warning: " + w, colour ? Tint::kYellow : Tint::kNone) << "\n";
  }
  const report::Cells cells = display_cells(*this, table_order(*this));
  report::CellTint tint;
  if (colour) {
    tint = [&](std::size_t row, std::size_t column) {
      if (column + 1 != cells.header.size()) return Tint::kNone;  // only the verdict
      switch (rows[row].verdict) {
        case Verdict::kFaster: return Tint::kGreen;
        case Verdict::kSlower: return Tint::kRed;
        case Verdict::kUnsure: return Tint::kYellow;
        default: return Tint::kNone;
      }
    };
  }
  report::print_aligned(cells, out, tint);
  out << summary_line(*this) << "\n" << rules_line(*this) << "\n";
}

std::string Comparison::to_markdown() const {
  std::ostringstream out;
  out << "**kscope compare**: BASE `" << base_name << "` vs NEW `" << new_name << "`: "
      << summary_line(*this) << "\n\n";
  for (const auto& w : warnings) out << "> warning: " << w << "\n";
  if (!warnings.empty()) out << "\n";
  auto cell = [](std::string s) {
    std::string e;
    for (char c : s) {
      if (c == '|') e += '\\';
      e += c;
    }
    return e;
  };
  const std::vector<std::size_t> order = regressed_first(*this);
  const report::Cells cells = display_cells(*this, order);
  out << "|";
  for (const auto& h : cells.header) out << " " << h << " |";
  out << "\n|";
  for (std::size_t i = 0; i < cells.header.size(); ++i) {
    const bool number = i >= cells.first_number && i < cells.first_number + cells.numbers;
    out << (number ? " ---: |" : " --- |");
  }
  out << "\n";
  for (std::size_t k = 0; k < order.size(); ++k) {
    const ComparisonRow& r = rows[order[k]];
    out << "|";
    auto fields = cells.rows[k];
    if (r.verdict == Verdict::kSlower || r.verdict == Verdict::kFaster) {
      fields.back() = "**" + fields.back() + "**";
    }
    for (const auto& f : fields) out << " " << cell(f) << " |";
    out << "\n";
  }
  out << "\n" << rules_line(*this) << "\n";
  return out.str();
}

std::string Comparison::to_html_table(std::size_t max_rows) const {
  std::ostringstream out;
  out << "<div class=\"kscope-comparison\">\n<p><strong>kscope compare</strong>: BASE <code>"
      << report::xml_escape(base_name) << "</code> vs NEW <code>" << report::xml_escape(new_name)
      << "</code>: " << report::xml_escape(summary_line(*this)) << "</p>\n";
  for (const auto& w : warnings) {
    out << "<p class=\"warn\">warning: " << report::xml_escape(w) << "</p>\n";
  }
  const report::Cells cells = display_cells(*this, table_order(*this));
  const std::size_t verdict_column = cells.header.size() - 1;
  report::HtmlTableOptions o;
  o.max_rows = max_rows;
  o.cell_attributes = [&](std::size_t row, std::size_t column) -> std::string {
    if (column != verdict_column) return "";
    const Verdict v = rows[row].verdict;
    return " class=\"kscope-verdict " + verdict_class(v) + "\" style=\"background:" +
           verdict_color(v) + ";color:#fff;font-weight:bold\"";
  };
  report::write_html_table(cells, out, o);
  out << "<p>" << report::xml_escape(rules_line(*this)) << "</p>\n</div>\n";
  return out.str();
}

void Comparison::write_csv(std::ostream& out) const {
  const auto& cols = columns();
  for (std::size_t i = 0; i < cols.size(); ++i) out << (i ? "," : "") << cols[i].name;
  out << "\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      out << (i ? "," : "") << report::csv_field(csv_text(cols[i].value(r)));
    }
    out << "\n";
  }
}

std::string Comparison::to_json() const {
  Json doc{{"kind", "kscope.comparison"},
           {"schema_version", kSchemaVersion},
           {"base", base_name},
           {"new", new_name},
           {"threshold", threshold ? number(*threshold) : Json(nullptr)},
           {"noise", number(noise)},
           {"alpha", number(alpha)},
           {"regressed", regressed()},
           {"warnings", warnings}};
  Json list = Json::array();
  for (const auto& r : rows) {
    Json j = Json::object();
    for (const auto& c : columns()) j[c.name] = c.value(r);
    list.push_back(std::move(j));
  }
  doc["rows"] = std::move(list);
  return report::to_text(doc, 2);
}

}  // namespace kscope
