#include "report/parquet_meta.hpp"

#include "kscope/errors.hpp"
#include "report/thrift_compact.hpp"

namespace kscope::report::parquet {
namespace {

using Field = ThriftReader::Field;

void write_schema_element(ThriftWriter& w, const SchemaElement& e) {
  w.element_struct();
  if (e.type) w.field_i32(1, *e.type);
  if (e.repetition) w.field_i32(3, *e.repetition);
  w.field_binary(4, e.name);
  if (e.num_children) w.field_i32(5, *e.num_children);
  if (e.converted_type) w.field_i32(6, *e.converted_type);
  if (e.string_logical_type) {
    w.field_struct(10);  // LogicalType, a union
    w.field_struct(1);   // STRING: StringType, an empty struct
    w.end_struct();
    w.end_struct();
  }
  w.end_struct();
}

void write_column_chunk(ThriftWriter& w, const ColumnMetaData& c) {
  w.element_struct();
  w.field_i64(2, c.dictionary_page_offset.value_or(c.data_page_offset));  // file_offset
  w.field_struct(3);
  w.field_i32(1, c.type);
  w.field_list(2, ThriftType::kI32, c.encodings.size());
  for (const auto e : c.encodings) w.element_i32(e);
  w.field_list(3, ThriftType::kBinary, c.path.size());
  for (const auto& p : c.path) w.element_binary(p);
  w.field_i32(4, c.codec);
  w.field_i64(5, c.num_values);
  w.field_i64(6, c.total_uncompressed_size);
  w.field_i64(7, c.total_compressed_size);
  w.field_i64(9, c.data_page_offset);
  if (c.dictionary_page_offset) w.field_i64(11, *c.dictionary_page_offset);
  w.end_struct();
  w.end_struct();
}

// A list of structs, each read by `read_one` (called after the struct is opened).
template <class ReadOne>
void read_struct_list(ThriftReader& r, const ReadOne& read_one) {
  const auto [element, size] = r.read_list();
  if (element != ThriftType::kStruct) throw FileFormatError("expected a list of structs");
  for (std::size_t i = 0; i < size; ++i) {
    r.begin_struct();
    read_one();
  }
}

SchemaElement read_schema_element(ThriftReader& r) {
  SchemaElement e;
  for (Field f = r.next_field(); !f.stop(); f = r.next_field()) {
    if (f.id == 1 && f.type == ThriftType::kI32) {
      e.type = r.read_i32();
    } else if (f.id == 3 && f.type == ThriftType::kI32) {
      e.repetition = r.read_i32();
    } else if (f.id == 4 && f.type == ThriftType::kBinary) {
      e.name = r.read_binary();
    } else if (f.id == 5 && f.type == ThriftType::kI32) {
      e.num_children = r.read_i32();
    } else if (f.id == 6 && f.type == ThriftType::kI32) {
      e.converted_type = r.read_i32();
    } else {
      r.skip(f.type);  // logical type: the converted type says what kscope needs
    }
  }
  return e;
}

ColumnMetaData read_column_metadata(ThriftReader& r) {
  ColumnMetaData c;
  for (Field f = r.next_field(); !f.stop(); f = r.next_field()) {
    if (f.id == 1 && f.type == ThriftType::kI32) {
      c.type = r.read_i32();
    } else if (f.id == 2 && f.type == ThriftType::kList) {
      const auto [element, size] = r.read_list();
      for (std::size_t i = 0; i < size; ++i) {
        if (element != ThriftType::kI32) throw FileFormatError("expected a list of encodings");
        c.encodings.push_back(r.read_i32());
      }
    } else if (f.id == 3 && f.type == ThriftType::kList) {
      const auto [element, size] = r.read_list();
      for (std::size_t i = 0; i < size; ++i) {
        if (element != ThriftType::kBinary) throw FileFormatError("expected a list of names");
        c.path.push_back(r.read_binary());
      }
    } else if (f.id == 4 && f.type == ThriftType::kI32) {
      c.codec = r.read_i32();
    } else if (f.id == 5 && f.type == ThriftType::kI64) {
      c.num_values = r.read_i64();
    } else if (f.id == 6 && f.type == ThriftType::kI64) {
      c.total_uncompressed_size = r.read_i64();
    } else if (f.id == 7 && f.type == ThriftType::kI64) {
      c.total_compressed_size = r.read_i64();
    } else if (f.id == 9 && f.type == ThriftType::kI64) {
      c.data_page_offset = r.read_i64();
    } else if (f.id == 11 && f.type == ThriftType::kI64) {
      c.dictionary_page_offset = r.read_i64();
    } else {
      r.skip(f.type);
    }
  }
  return c;
}

RowGroup read_row_group(ThriftReader& r) {
  RowGroup g;
  for (Field f = r.next_field(); !f.stop(); f = r.next_field()) {
    if (f.id == 1 && f.type == ThriftType::kList) {
      read_struct_list(r, [&] {
        bool has_metadata = false;
        for (Field c = r.next_field(); !c.stop(); c = r.next_field()) {
          if (c.id == 3 && c.type == ThriftType::kStruct) {
            r.begin_struct();
            g.columns.push_back(read_column_metadata(r));
            has_metadata = true;
          } else {
            r.skip(c.type);
          }
        }
        if (!has_metadata) {
          throw FileFormatError("a column chunk without its metadata (kept in another file?)");
        }
      });
    } else if (f.id == 2 && f.type == ThriftType::kI64) {
      g.total_byte_size = r.read_i64();
    } else if (f.id == 3 && f.type == ThriftType::kI64) {
      g.num_rows = r.read_i64();
    } else {
      r.skip(f.type);
    }
  }
  return g;
}

}  // namespace

const char* type_name(std::int32_t type) {
  static const char* const kNames[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT",
                                       "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return type >= 0 && type < 8 ? kNames[type] : "an unknown type";
}

std::string encoding_name(std::int32_t encoding) {
  static const char* const kNames[] = {"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE",
                                       "BIT_PACKED", "DELTA_BINARY_PACKED",
                                       "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                                       "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return encoding >= 0 && encoding < 10 ? kNames[encoding]
                                        : "encoding " + std::to_string(encoding);
}

std::string codec_name(std::int32_t codec) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                       "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  return codec >= 0 && codec < 8 ? kNames[codec] : "codec " + std::to_string(codec);
}

std::string encode(const FileMetaData& m) {
  std::string out;
  ThriftWriter w(out);
  w.begin_struct();
  w.field_i32(1, m.version);
  w.field_list(2, ThriftType::kStruct, m.schema.size());
  for (const auto& e : m.schema) write_schema_element(w, e);
  w.field_i64(3, m.num_rows);
  w.field_list(4, ThriftType::kStruct, m.row_groups.size());
  for (const auto& g : m.row_groups) {
    w.element_struct();
    w.field_list(1, ThriftType::kStruct, g.columns.size());
    for (const auto& c : g.columns) write_column_chunk(w, c);
    w.field_i64(2, g.total_byte_size);
    w.field_i64(3, g.num_rows);
    w.end_struct();
  }
  if (!m.key_value.empty()) {
    w.field_list(5, ThriftType::kStruct, m.key_value.size());
    for (const auto& kv : m.key_value) {
      w.element_struct();
      w.field_binary(1, kv.key);
      w.field_binary(2, kv.value);
      w.end_struct();
    }
  }
  w.field_binary(6, m.created_by);
  w.end_struct();
  return out;
}

FileMetaData decode_file_metadata(const char* data, std::size_t size) {
  ThriftReader r(data, size);
  FileMetaData m;
  r.begin_struct();
  for (Field f = r.next_field(); !f.stop(); f = r.next_field()) {
    if (f.id == 1 && f.type == ThriftType::kI32) {
      m.version = r.read_i32();
    } else if (f.id == 2 && f.type == ThriftType::kList) {
      read_struct_list(r, [&] { m.schema.push_back(read_schema_element(r)); });
    } else if (f.id == 3 && f.type == ThriftType::kI64) {
      m.num_rows = r.read_i64();
    } else if (f.id == 4 && f.type == ThriftType::kList) {
      read_struct_list(r, [&] { m.row_groups.push_back(read_row_group(r)); });
    } else if (f.id == 5 && f.type == ThriftType::kList) {
      read_struct_list(r, [&] {
        KeyValue kv;
        for (Field k = r.next_field(); !k.stop(); k = r.next_field()) {
          if (k.id == 1 && k.type == ThriftType::kBinary) {
            kv.key = r.read_binary();
          } else if (k.id == 2 && k.type == ThriftType::kBinary) {
            kv.value = r.read_binary();
          } else {
            r.skip(k.type);
          }
        }
        m.key_value.push_back(std::move(kv));
      });
    } else if (f.id == 6 && f.type == ThriftType::kBinary) {
      m.created_by = r.read_binary();
    } else {
      r.skip(f.type);
    }
  }
  return m;
}

std::string encode(const PageHeader& h) {
  std::string out;
  ThriftWriter w(out);
  w.begin_struct();
  w.field_i32(1, h.type);
  w.field_i32(2, h.uncompressed_size);
  w.field_i32(3, h.compressed_size);
  if (h.type == static_cast<std::int32_t>(PageType::kDictionary)) {
    w.field_struct(7);
    w.field_i32(1, h.num_values);
    w.field_i32(2, h.encoding);
    w.end_struct();
  } else {
    w.field_struct(5);
    w.field_i32(1, h.num_values);
    w.field_i32(2, h.encoding);
    w.field_i32(3, h.definition_level_encoding);
    w.field_i32(4, static_cast<std::int32_t>(Encoding::kRle));  // repetition levels (none)
    w.end_struct();
  }
  w.end_struct();
  return out;
}

std::pair<PageHeader, std::size_t> decode_page_header(const char* data, std::size_t size) {
  ThriftReader r(data, size);
  PageHeader h;
  r.begin_struct();
  for (Field f = r.next_field(); !f.stop(); f = r.next_field()) {
    if (f.id == 1 && f.type == ThriftType::kI32) {
      h.type = r.read_i32();
    } else if (f.id == 2 && f.type == ThriftType::kI32) {
      h.uncompressed_size = r.read_i32();
    } else if (f.id == 3 && f.type == ThriftType::kI32) {
      h.compressed_size = r.read_i32();
    } else if ((f.id == 5 || f.id == 7 || f.id == 8) && f.type == ThriftType::kStruct) {
      r.begin_struct();  // data page, dictionary page or data page v2: count and encoding
      for (Field g = r.next_field(); !g.stop(); g = r.next_field()) {
        if (g.id == 1 && g.type == ThriftType::kI32) {
          h.num_values = r.read_i32();
        } else if (g.id == (f.id == 8 ? 4 : 2) && g.type == ThriftType::kI32) {
          h.encoding = r.read_i32();
        } else if (f.id == 5 && g.id == 3 && g.type == ThriftType::kI32) {
          h.definition_level_encoding = r.read_i32();
        } else {
          r.skip(g.type);
        }
      }
    } else {
      r.skip(f.type);
    }
  }
  return {h, r.consumed(data)};
}

}  // namespace kscope::report::parquet
