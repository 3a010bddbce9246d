#pragma once
// One table as a Parquet file, written row by row and read column chunk by column chunk: flat
// columns of BOOLEAN, INT64, DOUBLE or UTF-8 BYTE_ARRAY values, required or optional (one
// definition level), in row groups of a bounded number of rows, uncompressed. The writer
// dictionary-encodes a column chunk whose values repeat (RLE_DICTIONARY) and writes the others
// PLAIN. The reader reads what the writer writes, and the same from other writers (PLAIN and
// dictionary encodings of data pages v1, INT32 read as INT64); anything else (a codec, another
// encoding, nested columns) is a FileFormatError naming it. docs/output-schema.md, "Parquet".

#include <cstdint>
#include <deque>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/parquet_meta.hpp"

namespace kscope::report::parquet {

/// A column of a table: its name, its physical type (kBoolean, kInt64, kDouble, kByteArray:
/// UTF-8 text) and whether a cell may be null.
struct Column {
  std::string name;
  Type type = Type::kInt64;
  bool optional = false;
};

/// "PAR1", at a Parquet file's start and end.
inline constexpr std::string_view kMagic = "PAR1";

/// A stream and how many bytes went to it: the position tables inside a file count from.
class Output {
 public:
  explicit Output(std::ostream& out) : out_(out) {}
  void write(std::string_view bytes) {
    out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    position_ += bytes.size();
  }
  [[nodiscard]] std::uint64_t position() const { return position_; }

 private:
  std::ostream& out_;
  std::uint64_t position_ = 0;
};

/// Writes one table to `out` as a whole Parquet file, from out's position on: the cells of a row go in column order
/// (null() or value()), then end_row(); a row group goes out every `rows_per_group` rows, so
/// only those rows are in memory. finish() writes the footer.
class TableWriter {
 public:
  TableWriter(Output& out, std::vector<Column> columns, std::size_t rows_per_group = 65536);
  TableWriter(const TableWriter&) = delete;
  TableWriter& operator=(const TableWriter&) = delete;

  void null();
  void value(std::int64_t v);
  void value(double v);
  void value(bool v);
  void value(std::string_view v);
  void end_row();
  /// Writes the last row group and the footer with `key_value` metadata; returns the file's
  /// size in bytes.
  std::uint64_t finish(std::vector<KeyValue> key_value = {});
  /// Bytes of this table written so far (where its next byte goes, from the table's start).
  [[nodiscard]] std::uint64_t position() const { return out_.position() - base_; }

 private:
  struct Buffer {
    std::vector<std::uint32_t> defined;  // optional columns: 1 or 0 per row
    std::string plain;                   // PLAIN bytes of the non-null values
    std::vector<std::uint32_t> ends;     // end of each value in `plain`
  };
  Buffer& next(Type type);
  void write_row_group();
  void write_chunk(std::size_t column, Buffer& b, RowGroup& group);
  void put(std::string_view bytes);

  Output& out_;
  std::uint64_t base_;  // out's position at the table's first byte
  std::vector<Column> columns_;
  std::size_t rows_per_group_;
  std::vector<Buffer> buffers_;
  std::size_t cursor_ = 0;  // the column the next cell goes to
  std::size_t rows_ = 0;    // rows in the buffers
  FileMetaData meta_;
};

/// Reads byte ranges of a file.
class ByteSource {
 public:
  /// Opens `path`; Error "cannot open" naming it.
  explicit ByteSource(const std::string& path);
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  /// Bytes [offset, offset + length); FileFormatError when past the end.
  [[nodiscard]] std::string read(std::uint64_t offset, std::uint64_t length);

 private:
  std::string path_;
  std::ifstream in_;
  std::uint64_t size_ = 0;
};

/// One column's cells in one row group. Null cells hold the type's default value.
struct ColumnValues {
  std::vector<std::uint8_t> defined;  ///< 1 per row; empty when the column is required
  std::vector<std::int64_t> ints;
  std::vector<double> doubles;
  std::vector<std::uint8_t> bools;
  std::vector<std::string_view> strings;  ///< into `storage`
  std::deque<std::string> storage;        ///< the pages the strings are in (a deque: they stay put)
  [[nodiscard]] bool null(std::size_t row) const { return !defined.empty() && !defined[row]; }
};

/// A Parquet file (or one inside a file, from `base` for `size` bytes), read through `source`.
class TableReader {
 public:
  /// Reads the footer; FileFormatError when there is no Parquet file there. `what` names it in
  /// errors ("'r.parquet'", "'r.parquet', table processed").
  TableReader(ByteSource& source, std::uint64_t base, std::uint64_t size, std::string what);

  [[nodiscard]] const FileMetaData& metadata() const { return meta_; }
  /// The key-value metadata `key`, or nullopt.
  [[nodiscard]] std::optional<std::string> key_value(std::string_view key) const;
  [[nodiscard]] const std::vector<Column>& columns() const { return columns_; }
  /// The index of the column called `name`, or nullopt.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  [[nodiscard]] std::size_t row_groups() const { return meta_.row_groups.size(); }
  [[nodiscard]] std::size_t rows(std::size_t group) const;
  [[nodiscard]] std::size_t rows() const { return static_cast<std::size_t>(meta_.num_rows); }
  /// Column `column` of row group `group`.
  [[nodiscard]] ColumnValues read(std::size_t group, std::size_t column);
  /// The footer's created_by ("kscope version 0.1.0", "parquet-cpp-arrow version 26.0.1").
  [[nodiscard]] std::string written_by() const;
  /// Throws FileFormatError "<what>: <text>".
  [[noreturn]] void fail(const std::string& text) const;

 private:
  ByteSource& source_;
  std::uint64_t base_;
  std::uint64_t size_;
  std::string what_;
  FileMetaData meta_;
  std::vector<Column> columns_;
};

}  // namespace kscope::report::parquet
