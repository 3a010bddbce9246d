#pragma once
// Parquet's footer and page headers (parquet.thrift of Apache Parquet's format specification):
// the fields kscope writes and reads, encoded with Thrift's compact protocol. Fields kscope does
// not use are skipped when read and never written (statistics, indexes, encryption).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kscope::report::parquet {

/// Physical types (parquet.thrift Type).
enum class Type : std::int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};
[[nodiscard]] const char* type_name(std::int32_t type);

enum class Encoding : std::int32_t {
  kPlain = 0,
  kPlainDictionary = 2,  // the dictionary pages and indices of format 1.0
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};
[[nodiscard]] std::string encoding_name(std::int32_t encoding);

/// parquet.thrift CompressionCodec; kscope writes and reads kUncompressed.
[[nodiscard]] std::string codec_name(std::int32_t codec);

enum class PageType : std::int32_t { kData = 0, kIndex = 1, kDictionary = 2, kDataV2 = 3 };

struct SchemaElement {
  std::optional<std::int32_t> type;        ///< leaves only (Type)
  std::optional<std::int32_t> repetition;  ///< 0 required, 1 optional, 2 repeated
  std::string name;
  std::optional<std::int32_t> num_children;  ///< groups only (the root)
  std::optional<std::int32_t> converted_type;  ///< 0: UTF8
  bool string_logical_type = false;          ///< LogicalType STRING
};

struct ColumnMetaData {
  std::int32_t type = 0;
  std::vector<std::int32_t> encodings;
  std::vector<std::string> path;
  std::int32_t codec = 0;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0;
  std::int64_t total_compressed_size = 0;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> dictionary_page_offset;
};

struct RowGroup {
  std::vector<ColumnMetaData> columns;
  std::int64_t total_byte_size = 0;
  std::int64_t num_rows = 0;
};

struct KeyValue {
  std::string key;
  std::string value;
};

struct FileMetaData {
  std::int32_t version = 1;
  std::vector<SchemaElement> schema;  ///< the root group first, then the leaf columns
  std::int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value;
  std::string created_by;
};

struct PageHeader {
  std::int32_t type = 0;  ///< PageType
  std::int32_t uncompressed_size = 0;
  std::int32_t compressed_size = 0;
  std::int32_t num_values = 0;  ///< data page (v1 or v2) or dictionary page
  std::int32_t encoding = 0;    ///< of the values
  std::int32_t definition_level_encoding = 3;  ///< data page v1: RLE
};

[[nodiscard]] std::string encode(const FileMetaData& m);
/// Throws FileFormatError when `data` is not a FileMetaData.
[[nodiscard]] FileMetaData decode_file_metadata(const char* data, std::size_t size);
[[nodiscard]] std::string encode(const PageHeader& h);
/// The header at the start of `data` and its length in bytes.
[[nodiscard]] std::pair<PageHeader, std::size_t> decode_page_header(const char* data,
                                                                    std::size_t size);

}  // namespace kscope::report::parquet
