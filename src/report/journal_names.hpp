#pragma once
// The name tables of a compact journal (schema 2.0, docs/output-schema.md#the-journal): every
// annotation, kernel (its name and mangled name), metric (its name and unit) and host phase is
// written once, on a "names" line before the first line that uses it, and the lines after refer
// to it by its index in its table. A "names" line gives each entry's index, so that a reader
// never shifts a table by a line it skipped: an index that does not follow on is an error.

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "report/json_field.hpp"

namespace kscope::report {

/// The writer's side: indices for names, and the "names" line of those not yet written.
class JournalNameWriter {
 public:
  std::size_t annotation(const std::string& name);
  std::size_t kernel(const std::string& name, const std::string& mangled);
  std::size_t metric(const std::string& name, const std::optional<std::string>& unit);
  std::size_t phase(const std::string& name);
  /// The "names" line of the names first used since the previous call; empty when there are none.
  [[nodiscard]] std::string take_line();

 private:
  struct Table {
    std::unordered_map<std::string, std::size_t> index;  // by key (the names, '\0'-separated)
    std::string pending;  // the entries not yet on a line, as JSON text, comma-separated
  };
  // The index of `key`; a new one appends `entry(text)`'s JSON text (the entry after its index).
  template <class Entry>
  static std::size_t find_or_add(Table& table, std::string key, Entry entry);
  Table annotations_, kernels_, metrics_, phases_;
};

/// The reader's side: the tables the "names" lines read so far hold.
class JournalNameReader {
 public:
  /// Adds the entries of a "names" line; throws FileFormatError (and adds nothing) when an entry
  /// is malformed or its index does not follow on from its table.
  /// (A JsonField or a TapeField: json_tape.hpp.)
  template <class F>
  void read_line(const F& line);
  /// The entry at `index`; throws FileFormatError naming the table when there is none.
  template <class F>
  [[nodiscard]] const std::string& annotation(const F& index) const;
  template <class F>
  [[nodiscard]] const std::pair<std::string, std::string>& kernel(const F& index) const;
  template <class F>
  [[nodiscard]] const std::pair<std::string, std::optional<std::string>>& metric(
      const F& index) const;
  template <class F>
  [[nodiscard]] const std::string& phase(const F& index) const;

 private:
  std::vector<std::string> annotations_;
  std::vector<std::pair<std::string, std::string>> kernels_;
  std::vector<std::pair<std::string, std::optional<std::string>>> metrics_;
  std::vector<std::string> phases_;
};

}  // namespace kscope::report
