#pragma once
// Text cells (processed_cells.hpp) as HTML tables, every text escaped: the one table writer of the
// "html" report and of the tables notebooks show (Results::to_html_table,
// Comparison::to_html_table).

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

#include "kscope/results.hpp"
#include "report/processed_cells.hpp"

namespace kscope::report {

struct HtmlTableOptions {
  std::string id;            ///< the table's id attribute ("": none)
  /// > 0: only the first max_rows rows, then a line saying how many were left out.
  std::size_t max_rows = 0;
  /// Attributes added to the cell of row `row`, column `column` (` class="..." style="..."`,
  /// escaped by the caller), or "". Not for the number columns, which have their class.
  std::function<std::string(std::size_t row, std::size_t column)> cell_attributes;
};

/// `cells` as a <table> (numbers in <td class="num">), then, when rows were left out, a
/// <p class="kscope-more"> saying how many.
void write_html_table(const Cells& cells, std::ostream& out, const HtmlTableOptions& options = {});

/// What a result holds, as HTML: a sanitizer session's findings ("compute-sanitizer found
/// nothing." when clean), else the processed table ("(no rows)" when empty) and the configs that
/// failed. `max_rows` as in HtmlTableOptions; `ids`: the tables carry ids ("processed",
/// "findings", "failed"), as the one page of the "html" report does (a notebook shows many
/// tables on one page: Results::to_html_table gives none).
void write_results_html(const Results& results, std::ostream& out, std::size_t max_rows,
                        bool ids);

/// "kscope: <name> #<id>": the report's title, the notebook table's caption.
[[nodiscard]] std::string result_title(const Results& results);

/// One <p class="warn"> for an unfinished session's journal and one per load warning.
void write_result_warnings(const Results& results, std::ostream& out);

}  // namespace kscope::report
