#pragma once
// A table of rows of one C++ type as a Parquet table: each column a Field that writes a row's
// cell and reads it back into a row (member() makes one from a data member, by its type). The
// result's tables (parquet_result.cpp) are lists of these.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kscope/errors.hpp"
#include "report/parquet_table.hpp"

namespace kscope::report::parquet {

/// How a C++ type is a Parquet cell.
template <class T, class Enable = void>
struct Cell;

template <>
struct Cell<std::string> {
  static constexpr Type type = Type::kByteArray;
  static void put(TableWriter& w, const std::string& v) { w.value(std::string_view(v)); }
  static std::string get(const ColumnValues& c, std::size_t i) { return std::string(c.strings[i]); }
};
template <>
struct Cell<double> {
  static constexpr Type type = Type::kDouble;
  static void put(TableWriter& w, double v) { w.value(v); }
  static double get(const ColumnValues& c, std::size_t i) { return c.doubles[i]; }
};
template <>
struct Cell<bool> {
  static constexpr Type type = Type::kBoolean;
  static void put(TableWriter& w, bool v) { w.value(v); }
  static bool get(const ColumnValues& c, std::size_t i) { return c.bools[i] != 0; }
};
/// Integers as INT64; read back, a value out of T's range is a FileFormatError.
template <class T>
struct Cell<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr Type type = Type::kInt64;
  static void put(TableWriter& w, T v) { w.value(static_cast<std::int64_t>(v)); }
  static T get(const ColumnValues& c, std::size_t i) {
    const std::int64_t v = c.ints[i];
    if (v < 0 && std::is_unsigned_v<T>) {
      throw FileFormatError("expected a non-negative integer, found " + std::to_string(v));
    }
    if constexpr (sizeof(T) < sizeof(std::int64_t)) {
      if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
          v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
        throw FileFormatError("expected an integer that fits, found " + std::to_string(v));
      }
    }
    return static_cast<T>(v);
  }
};

/// One column of a table of `Row`s.
template <class Row>
struct Field {
  Column column;
  /// Writes the cell of `row` (the `index`th row of its table).
  std::function<void(TableWriter&, const Row&, std::size_t index)> put;
  /// Reads cell `i` of `values` into `row`; empty: a column kscope writes for readers and does
  /// not read back (the metadata's, a config's parameters).
  std::function<void(const ColumnValues&, std::size_t i, Row&)> get;
  /// Reading fails when the file lacks the column (false: the row keeps its default).
  bool required = true;
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

/// The column `name` of data member `m`; std::optional members are optional columns.
template <class Row, class T>
Field<Row> member(const char* name, T Row::*m) {
  if constexpr (IsOptional<T>::value) {
    using V = typename T::value_type;
    return {Column{name, Cell<V>::type, true},
            [m](TableWriter& w, const Row& r, std::size_t) {
              if (r.*m) {
                Cell<V>::put(w, *(r.*m));
              } else {
                w.null();
              }
            },
            [m](const ColumnValues& c, std::size_t i, Row& r) {
              r.*m = c.null(i) ? T() : T(Cell<V>::get(c, i));
            }};
  } else {
    return {Column{name, Cell<T>::type, false},
            [m](TableWriter& w, const Row& r, std::size_t) { Cell<T>::put(w, r.*m); },
            [m](const ColumnValues& c, std::size_t i, Row& r) { r.*m = Cell<T>::get(c, i); }};
  }
}

/// Writes `count` rows, `row(i)` each, as one table to `out`; returns its size in bytes.
template <class Row, class RowAt>
std::uint64_t write_table(Output& out, const std::vector<Field<Row>>& fields, std::size_t count,
                          const RowAt& row, std::vector<KeyValue> key_value = {}) {
  std::vector<Column> columns;
  for (const auto& f : fields) columns.push_back(f.column);
  TableWriter w(out, std::move(columns));
  for (std::size_t i = 0; i < count; ++i) {
    const Row& r = row(i);
    for (const auto& f : fields) f.put(w, r, i);
    w.end_row();
  }
  return w.finish(std::move(key_value));
}

/// Reads every row of `table` through `fields`, one row group at a time, and hands each row, in
/// order, to `take(row, index)`: the table's rows are never all held at once. A missing required
/// column, a cell of another type or a null in a required column is a FileFormatError naming the
/// column and row.
template <class Row, class Take>
void for_each_row(TableReader& table, const std::vector<Field<Row>>& fields, Take take) {
  std::vector<std::pair<const Field<Row>*, std::size_t>> present;
  for (const auto& f : fields) {
    if (!f.get) continue;
    const auto at = table.find(f.column.name);
    if (!at) {
      if (f.required) table.fail("no column '" + f.column.name + "'");
      continue;
    }
    const Column& c = table.columns()[*at];
    if (c.type != f.column.type) {
      table.fail("column '" + f.column.name + "' holds " +
                 type_name(static_cast<std::int32_t>(c.type)) + ", expected " +
                 type_name(static_cast<std::int32_t>(f.column.type)));
    }
    present.emplace_back(&f, *at);
  }
  std::vector<Row> group;
  std::size_t first = 0;
  for (std::size_t g = 0; g < table.row_groups(); ++g) {
    const std::size_t n = table.rows(g);
    group.assign(n, Row{});  // what a row group holds is checked as it is read
    for (const auto& [f, at] : present) {
      const ColumnValues values = table.read(g, at);
      std::size_t i = 0;
      try {
        for (; i < n; ++i) {
          if (!f->column.optional && values.null(i)) throw FileFormatError("a null cell");
          f->get(values, i, group[i]);
        }
      } catch (const FileFormatError& e) {
        table.fail("column '" + f->column.name + "', row " + std::to_string(first + i) + ": " +
                   e.what());
      }
    }
    for (std::size_t i = 0; i < n; ++i) take(std::move(group[i]), first + i);
    first += n;
  }
}

/// Every row of `table` through `fields` (for_each_row), in a vector.
template <class Row>
std::vector<Row> read_table(TableReader& table, const std::vector<Field<Row>>& fields) {
  std::vector<Row> rows;
  rows.reserve(table.rows());
  for_each_row(table, fields, [&rows](Row&& row, std::size_t) { rows.push_back(std::move(row)); });
  return rows;
}

}  // namespace kscope::report::parquet
