// The notebook tables (Results::to_html_table, Comparison::to_html_table) and the one HTML table
// writer they share with the "html" report: escaping, the row limit and its line, the verdict
// cells' classes and colours.
#include <gtest/gtest.h>

#include <string>

#include "kscope/compare.hpp"
#include "kscope/results.hpp"
#include "report/html_table.hpp"
#include "sample_results.hpp"

namespace kscope {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(HtmlTableTest, EscapesEveryTextAndMarksNumbers) {
  report::Cells t;
  t.header = {"<h>", "n"};
  t.rows = {{"a&b", "1"}, {"\"q\" 'x'", "2"}};
  t.first_number = 1;
  t.numbers = 1;
  std::ostringstream out;
  report::HtmlTableOptions o;
  o.id = "x\"y";
  report::write_html_table(t, out, o);
  EXPECT_EQ(out.str(),
            "<table id=\"x&quot;y\">\n<thead><tr><th>&lt;h&gt;</th><th>n</th></tr></thead>\n"
            "<tbody>\n<tr><td>a&amp;b</td><td class=\"num\">1</td></tr>\n"
            "<tr><td>&quot;q&quot; &#39;x&#39;</td><td class=\"num\">2</td></tr>\n"
            "</tbody>\n</table>\n");
}

TEST(HtmlTableTest, TheRowLimitSaysHowManyWereLeftOut) {
  report::Cells t;
  t.header = {"i"};
  for (int i = 0; i < 5; ++i) t.rows.push_back({std::to_string(i)});
  report::HtmlTableOptions o;
  o.max_rows = 2;
  o.cell_attributes = [](std::size_t row, std::size_t) {
    return row == 1 ? std::string(" class=\"second\"") : std::string();
  };
  std::ostringstream out;
  report::write_html_table(t, out, o);
  EXPECT_EQ(count(out.str(), "<tr><td"), 2u);
  EXPECT_TRUE(has(out.str(), "<tr><td class=\"second\">1</td></tr>"));
  EXPECT_TRUE(has(out.str(), "<p class=\"kscope-more\">The first 2 of 5 rows; 3 left out.</p>\n"));
  o.max_rows = 5;  // exactly all: no line
  std::ostringstream all;
  report::write_html_table(t, all, o);
  EXPECT_EQ(count(all.str(), "<tr><td"), 5u);
  EXPECT_FALSE(has(all.str(), "left out"));
}

TEST(HtmlTableTest, ResultsFragmentHasACaptionTheTableAndNoIds) {
  Results::Data d = testing::sample_results(false).data();
  d.name = "v<add>";
  const std::string html = Results(d).to_html_table();
  EXPECT_EQ(html.rfind("<div class=\"kscope-results\">\n<p><strong>kscope: v&lt;add&gt; #0"
                       "</strong>: NVIDIA H200, gpu-host</p>\n<table>\n",
                       0),
            0u)
      << html;
  EXPECT_EQ(count(html, "<tr><td>"), Results(d).processed().size());
  EXPECT_FALSE(has(html, "id=\""));
  EXPECT_TRUE(has(html, "</table>\n</div>\n"));
  const std::string cut = Results(d).to_html_table(1);
  EXPECT_EQ(count(cut, "<tr><td>"), 1u);
  EXPECT_TRUE(has(cut, "The first 1 of " + std::to_string(Results(d).processed().size()) + " rows"));
}

TEST(HtmlTableTest, AnUnfinishedResultsFragmentSaysSo) {
  Results::Data d = testing::sample_results(false).data();
  d.complete = false;
  d.metadata.gpu.clear();
  const std::string html = Results(d).to_html_table();
  EXPECT_TRUE(has(html, "</strong>: unknown GPU, gpu-host</p>\n<p class=\"warn\">Incomplete: the "
                        "journal of an unfinished session.</p>\n"));
}

TEST(HtmlTableTest, ComparisonVerdictCellsHaveClassColourAndText) {
  Comparison c;
  c.base_name = "base<1>";
  c.new_name = "new";
  c.threshold = 0.05;
  c.warnings = {"GPUs 'A' & 'B' differ"};
  for (Verdict v : {Verdict::kFaster, Verdict::kSlower, Verdict::kSame, Verdict::kUnsure,
                    Verdict::kBaseOnly, Verdict::kNewOnly}) {
    ComparisonRow r;
    r.annotation = "a";
    r.metric = "m";
    r.config = "n=1";
    r.verdict = v;
    r.beyond_threshold = v == Verdict::kSlower;
    c.rows.push_back(r);
  }
  const std::string html = c.to_html_table();
  EXPECT_EQ(html.rfind("<div class=\"kscope-comparison\">\n<p><strong>kscope compare</strong>: "
                       "BASE <code>base&lt;1&gt;</code> vs NEW <code>new</code>: 1 FASTER, "
                       "1 SLOWER, 1 SAME, 1 UNSURE, 1 BASE_ONLY, 1 NEW_ONLY; SLOWER beyond the "
                       "threshold of 5%</p>\n<p class=\"warn\">warning: GPUs &#39;A&#39; &amp; "
                       "&#39;B&#39; differ</p>\n",
                       0),
            0u)
      << html;
  const auto cell = [](const char* cls, const char* colour, const char* text) {
    return std::string("<td class=\"kscope-verdict kscope-verdict-") + cls +
           "\" style=\"background:" + colour + ";color:#fff;font-weight:bold\">" + text + "</td>";
  };
  EXPECT_TRUE(has(html, cell("faster", "#1a7f37", "FASTER")));
  EXPECT_TRUE(has(html, cell("slower", "#cf222e", "SLOWER (beyond threshold)")));
  EXPECT_TRUE(has(html, cell("same", "#6e7781", "SAME")));
  EXPECT_TRUE(has(html, cell("unsure", "#9a6700", "UNSURE")));
  EXPECT_TRUE(has(html, cell("base-only", "#0969da", "BASE_ONLY")));
  EXPECT_TRUE(has(html, cell("new-only", "#8250df", "NEW_ONLY")));
  EXPECT_EQ(count(html, "kscope-verdict "), 6u);  // only the Verdict column
  EXPECT_EQ(count(c.to_html_table(4), "kscope-verdict "), 4u);
  EXPECT_TRUE(has(c.to_html_table(4), "The first 4 of 6 rows; 2 left out."));
}

TEST(HtmlTableTest, VerdictTextAndColours) {
  ComparisonRow r;
  r.verdict = Verdict::kSlower;
  EXPECT_EQ(verdict_text(r), "SLOWER");
  r.beyond_threshold = true;
  EXPECT_EQ(verdict_text(r), "SLOWER (beyond threshold)");
  EXPECT_STREQ(verdict_color(Verdict::kFaster), "#1a7f37");
  EXPECT_STREQ(verdict_color(Verdict::kUnsure), "#9a6700");
}

}  // namespace
}  // namespace kscope
