#pragma once
// Apache Thrift's compact protocol, the part Parquet's footer and page headers use: structs of
// numbered fields holding booleans, 32- and 64-bit integers (zigzag varints), binary strings,
// nested structs and lists. The writer appends to a string; the reader walks a byte range and
// skips what it does not ask for. Parquet's own structs are in parquet_meta.hpp.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::report {

/// Compact protocol type codes of a field or list element.
enum class ThriftType : std::uint8_t {
  kStop = 0,
  kTrue = 1,  // a boolean field's value is its type: true
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class ThriftWriter {
 public:
  explicit ThriftWriter(std::string& out) : out_(out) {}

  void begin_struct() { last_.push_back(0); }
  /// Closes the innermost struct (its stop byte).
  void end_struct();
  void field_bool(int id, bool value);
  void field_i32(int id, std::int32_t value);
  void field_i64(int id, std::int64_t value);
  void field_binary(int id, std::string_view value);
  /// A struct field: its fields follow, then end_struct().
  void field_struct(int id);
  /// A list field of `size` elements of `element` type, which follow.
  void field_list(int id, ThriftType element, std::size_t size);
  // List elements.
  void element_i32(std::int32_t value) { zigzag(value); }
  void element_binary(std::string_view value);
  void element_struct() { begin_struct(); }

 private:
  void field(int id, ThriftType type);
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v);

  std::string& out_;
  std::vector<int> last_;  // last field id of each open struct
};

/// Reads compact protocol from [data, data + size). Every read past the end, or a value that is
/// not what the protocol allows, throws FileFormatError (the caller adds where).
class ThriftReader {
 public:
  ThriftReader(const char* data, std::size_t size) : p_(data), end_(data + size) {}

  struct Field {
    int id = 0;
    ThriftType type = ThriftType::kStop;
    [[nodiscard]] bool stop() const { return type == ThriftType::kStop; }
  };
  void begin_struct() { last_.push_back(0); }
  /// The next field of the innermost struct; stop() at its end (the struct is then closed).
  Field next_field();
  [[nodiscard]] bool read_bool(const Field& f) const { return f.type == ThriftType::kTrue; }
  std::int32_t read_i32();
  std::int64_t read_i64();
  std::string read_binary();
  /// A list header: its element type and size.
  std::pair<ThriftType, std::size_t> read_list();
  /// Skips a value of `type` (nested structs and lists too).
  void skip(ThriftType type);
  /// Bytes read so far.
  [[nodiscard]] std::size_t consumed(const char* start) const {
    return static_cast<std::size_t>(p_ - start);
  }

 private:
  std::uint8_t byte();
  std::uint64_t varint();
  std::int64_t zigzag();

  const char* p_;
  const char* end_;
  std::vector<int> last_;
  int depth_ = 0;  // nesting of skipped values, bounded against hostile input
};

}  // namespace kscope::report
