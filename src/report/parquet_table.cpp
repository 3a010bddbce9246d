#include "report/parquet_table.hpp"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

#include "kscope/errors.hpp"
#include "kscope/profile.hpp"
#include "report/rle_hybrid.hpp"

namespace kscope::report::parquet {
namespace {

constexpr std::int32_t kRequired = 0;
constexpr std::int32_t kOptional = 1;
constexpr std::int32_t kUtf8 = 0;  // ConvertedType UTF8
constexpr std::int64_t kMaxGroupRows = std::int64_t{1} << 24;  // pyarrow writes up to 2^20

template <class T>
void append_le(std::string& out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));  // little-endian hosts (x86-64, aarch64)
  out.append(bytes, sizeof(T));
}

template <class T>
T load_le(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Booleans PLAIN: one bit each, least significant first.
std::string pack_bools(const std::string& bytes) {
  std::string out((bytes.size() + 7) / 8, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i]) out[i / 8] = static_cast<char>(out[i / 8] | (1 << (i % 8)));
  }
  return out;
}

}  // namespace

TableWriter::TableWriter(Output& out, std::vector<Column> columns, std::size_t rows_per_group)
    : out_(out), base_(out.position()), columns_(std::move(columns)), rows_per_group_(rows_per_group),
      buffers_(columns_.size()) {
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<std::int32_t>(columns_.size());
  meta_.schema.push_back(root);
  for (const auto& c : columns_) {
    SchemaElement e;
    e.type = static_cast<std::int32_t>(c.type);
    e.repetition = c.optional ? kOptional : kRequired;
    e.name = c.name;
    if (c.type == Type::kByteArray) {
      e.converted_type = kUtf8;
      e.string_logical_type = true;
    }
    meta_.schema.push_back(e);
  }
  meta_.version = 2;
  meta_.created_by = std::string("kscope version ") + kscope::version();
  put(kMagic);
}

void TableWriter::put(std::string_view bytes) { out_.write(bytes); }

TableWriter::Buffer& TableWriter::next(Type type) {
  if (cursor_ >= columns_.size() || columns_[cursor_].type != type) {
    throw std::logic_error("parquet::TableWriter: a cell of the wrong type or past the row's "
                           "columns, at column " + std::to_string(cursor_));
  }
  Buffer& b = buffers_[cursor_++];
  if (columns_[cursor_ - 1].optional) b.defined.push_back(1);
  return b;
}

void TableWriter::null() {
  if (cursor_ >= columns_.size() || !columns_[cursor_].optional) {
    throw std::logic_error("parquet::TableWriter: null in a required column, at column " +
                           std::to_string(cursor_));
  }
  buffers_[cursor_++].defined.push_back(0);
}

void TableWriter::value(std::int64_t v) {
  Buffer& b = next(Type::kInt64);
  append_le(b.plain, v);
  b.ends.push_back(static_cast<std::uint32_t>(b.plain.size()));
}

void TableWriter::value(double v) {
  Buffer& b = next(Type::kDouble);
  append_le(b.plain, v);
  b.ends.push_back(static_cast<std::uint32_t>(b.plain.size()));
}

void TableWriter::value(bool v) {
  Buffer& b = next(Type::kBoolean);
  b.plain += static_cast<char>(v ? 1 : 0);
  b.ends.push_back(static_cast<std::uint32_t>(b.plain.size()));
}

void TableWriter::value(std::string_view v) {
  Buffer& b = next(Type::kByteArray);
  append_le(b.plain, static_cast<std::uint32_t>(v.size()));
  b.plain.append(v.data(), v.size());
  b.ends.push_back(static_cast<std::uint32_t>(b.plain.size()));
}

void TableWriter::end_row() {
  if (cursor_ != columns_.size()) {
    throw std::logic_error("parquet::TableWriter: a row of " + std::to_string(cursor_) +
                           " cells, expected " + std::to_string(columns_.size()));
  }
  cursor_ = 0;
  if (++rows_ == rows_per_group_) write_row_group();
}

void TableWriter::write_chunk(std::size_t column, Buffer& b, RowGroup& group) {
  const Column& c = columns_[column];
  std::string levels;
  if (c.optional) {
    std::string hybrid;
    encode_hybrid(b.defined, 1, hybrid);
    append_le(levels, static_cast<std::uint32_t>(hybrid.size()));
    levels += hybrid;
  }
  ColumnMetaData m;
  m.type = static_cast<std::int32_t>(c.type);
  m.path = {c.name};
  m.num_values = static_cast<std::int64_t>(rows_);
  const auto write_page = [&](PageHeader h, const std::string& body) {
    h.uncompressed_size = h.compressed_size = static_cast<std::int32_t>(body.size());
    const std::string head = encode(h);
    put(head);
    put(body);
    m.total_uncompressed_size += static_cast<std::int64_t>(head.size() + body.size());
  };
  const std::int64_t start = static_cast<std::int64_t>(position());

  // A dictionary when the values repeat enough to make the chunk smaller.
  std::unordered_map<std::string_view, std::uint32_t> dictionary;
  std::vector<std::uint32_t> indices;
  std::string dictionary_plain;
  bool use_dictionary = c.type != Type::kBoolean && !b.ends.empty();
  for (std::size_t k = 0, begin = 0; use_dictionary && k < b.ends.size(); ++k) {
    const std::string_view v(b.plain.data() + begin, b.ends[k] - begin);
    begin = b.ends[k];
    const auto [it, added] =
        dictionary.emplace(v, static_cast<std::uint32_t>(dictionary.size()));
    if (added) dictionary_plain.append(v.data(), v.size());
    indices.push_back(it->second);
    // Mostly distinct values (durations): give up early.
    if (dictionary.size() > 65536 || (k >= 1024 && dictionary.size() * 2 > k)) {
      use_dictionary = false;
    }
  }
  std::string body = levels;
  PageHeader data;
  data.type = static_cast<std::int32_t>(PageType::kData);
  data.num_values = static_cast<std::int32_t>(rows_);
  if (use_dictionary) {
    const int width = bit_width_for(static_cast<std::uint32_t>(dictionary.size() - 1));
    body += static_cast<char>(width);
    encode_hybrid(indices, width, body);
    use_dictionary = dictionary_plain.size() + body.size() < levels.size() + b.plain.size();
  }
  if (use_dictionary) {
    PageHeader dict;
    dict.type = static_cast<std::int32_t>(PageType::kDictionary);
    dict.num_values = static_cast<std::int32_t>(dictionary.size());
    dict.encoding = static_cast<std::int32_t>(Encoding::kPlain);
    m.dictionary_page_offset = start;
    write_page(dict, dictionary_plain);
    data.encoding = static_cast<std::int32_t>(Encoding::kRleDictionary);
    m.encodings = {static_cast<std::int32_t>(Encoding::kPlain),
                   static_cast<std::int32_t>(Encoding::kRle),
                   static_cast<std::int32_t>(Encoding::kRleDictionary)};
  } else {
    body = levels;
    body += c.type == Type::kBoolean ? pack_bools(b.plain) : b.plain;
    data.encoding = static_cast<std::int32_t>(Encoding::kPlain);
    m.encodings = {static_cast<std::int32_t>(Encoding::kPlain),
                   static_cast<std::int32_t>(Encoding::kRle)};
  }
  m.data_page_offset = static_cast<std::int64_t>(position());
  write_page(data, body);
  m.total_compressed_size = m.total_uncompressed_size;
  group.total_byte_size += m.total_uncompressed_size;
  group.columns.push_back(std::move(m));
}

void TableWriter::write_row_group() {
  if (rows_ == 0) return;
  RowGroup group;
  group.num_rows = static_cast<std::int64_t>(rows_);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    write_chunk(i, buffers_[i], group);
    buffers_[i] = Buffer();
  }
  meta_.num_rows += group.num_rows;
  meta_.row_groups.push_back(std::move(group));
  rows_ = 0;
}

std::uint64_t TableWriter::finish(std::vector<KeyValue> key_value) {
  if (cursor_ != 0) throw std::logic_error("parquet::TableWriter: finish() inside a row");
  write_row_group();
  meta_.key_value = std::move(key_value);
  const std::string footer = encode(meta_);
  put(footer);
  std::string tail;
  append_le(tail, static_cast<std::uint32_t>(footer.size()));
  tail += kMagic;
  put(tail);
  return position();
}

ByteSource::ByteSource(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  if (!in_) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  in_.seekg(0, std::ios::end);
  size_ = static_cast<std::uint64_t>(in_.tellg());
}

std::string ByteSource::read(std::uint64_t offset, std::uint64_t length) {
  if (offset > size_ || length > size_ - offset) {
    throw FileFormatError("bytes " + std::to_string(offset) + " to " +
                          std::to_string(offset + length) + " are past the file's end (" +
                          std::to_string(size_) + " bytes)");
  }
  std::string bytes(static_cast<std::size_t>(length), '\0');
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  in_.read(bytes.data(), static_cast<std::streamsize>(length));
  if (static_cast<std::uint64_t>(in_.gcount()) != length) {
    throw FileFormatError("cannot read bytes " + std::to_string(offset) + " to " +
                          std::to_string(offset + length) + " (the file changed?)");
  }
  return bytes;
}

void TableReader::fail(const std::string& text) const { throw FileFormatError(what_ + ": " + text); }

TableReader::TableReader(ByteSource& source, std::uint64_t base, std::uint64_t size,
                         std::string what)
    : source_(source), base_(base), size_(size), what_(std::move(what)) {
  try {
    if (size < 12) fail("not a Parquet file (" + std::to_string(size) + " bytes)");
    const std::string head = source_.read(base, 4);
    const std::string tail = source_.read(base + size - 8, 8);
    if (head != kMagic || tail.substr(4) != kMagic) {
      fail("not a Parquet file (it does not start and end with \"PAR1\")");
    }
    const auto footer_size = load_le<std::uint32_t>(tail.data());
    if (footer_size > size - 12) fail("its footer length is past the file's start");
    const std::string footer = source_.read(base + size - 8 - footer_size, footer_size);
    meta_ = decode_file_metadata(footer.data(), footer.size());
  } catch (const FileFormatError& e) {
    const std::string text = e.what();
    if (text.rfind(what_, 0) == 0) throw;
    fail("its footer is not Parquet's FileMetaData: " + text);
  }
  if (meta_.schema.empty()) fail("its footer has no schema");
  const std::size_t n = meta_.schema.size() - 1;
  if (!meta_.schema[0].num_children || static_cast<std::size_t>(*meta_.schema[0].num_children) != n) {
    fail("nested columns, which kscope's Parquet reader does not read (flat tables only)");
  }
  for (std::size_t i = 1; i <= n; ++i) {
    const SchemaElement& e = meta_.schema[i];
    if (e.num_children || !e.type) fail("column '" + e.name + "' is a group (nested data)");
    if (e.repetition.value_or(kRequired) > kOptional) {
      fail("column '" + e.name + "' is repeated (a list), which kscope's reader does not read");
    }
    Column c{e.name, Type::kInt64, e.repetition.value_or(kRequired) == kOptional};
    switch (static_cast<Type>(*e.type)) {
      case Type::kBoolean: c.type = Type::kBoolean; break;
      case Type::kInt32:
      case Type::kInt64: c.type = Type::kInt64; break;
      case Type::kDouble: c.type = Type::kDouble; break;
      case Type::kByteArray: c.type = Type::kByteArray; break;
      default:
        fail("column '" + e.name + "' has type " + type_name(*e.type) +
             ", which kscope's Parquet reader does not read (BOOLEAN, INT32, INT64, DOUBLE and "
             "BYTE_ARRAY only)");
    }
    columns_.push_back(std::move(c));
  }
  std::int64_t rows = 0;
  for (std::size_t g = 0; g < meta_.row_groups.size(); ++g) {
    const RowGroup& group = meta_.row_groups[g];
    if (group.columns.size() != n) {
      fail("row group " + std::to_string(g) + " has " + std::to_string(group.columns.size()) +
           " columns, the schema " + std::to_string(n));
    }
    // Bounded, so that a damaged count cannot make the reader take the machine's memory.
    if (group.num_rows < 0 || group.num_rows > kMaxGroupRows) {
      fail("row group " + std::to_string(g) + " claims " + std::to_string(group.num_rows) +
           " rows (kscope's reader reads row groups of up to " + std::to_string(kMaxGroupRows) +
           ")");
    }
    rows += group.num_rows;
  }
  if (rows != meta_.num_rows) {
    fail("its row groups hold " + std::to_string(rows) + " rows, its footer says " +
         std::to_string(meta_.num_rows));
  }
}

std::string TableReader::written_by() const {
  return meta_.created_by.empty() ? std::string("a program that does not name itself")
                                  : meta_.created_by;
}

std::optional<std::string> TableReader::key_value(std::string_view key) const {
  for (const auto& kv : meta_.key_value) {
    if (kv.key == key) return kv.value;
  }
  return std::nullopt;
}

std::optional<std::size_t> TableReader::find(std::string_view name) const {
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].name == name) return i;
  }
  return std::nullopt;
}

std::size_t TableReader::rows(std::size_t group) const {
  return static_cast<std::size_t>(meta_.row_groups.at(group).num_rows);
}

namespace {

// The values of a PLAIN page (or dictionary page) of `type`: `count` of them from [p, end).
struct PlainValues {
  std::vector<std::int64_t> ints;
  std::vector<double> doubles;
  std::vector<std::uint8_t> bools;
  std::vector<std::string_view> strings;
};

void decode_plain(std::int32_t physical, const char* p, const char* end, std::size_t count,
                  PlainValues& out) {
  auto need = [&](std::size_t bytes) {
    if (static_cast<std::size_t>(end - p) < bytes) throw FileFormatError("page ends early");
  };
  switch (static_cast<Type>(physical)) {
    case Type::kBoolean:
      need((count + 7) / 8);
      for (std::size_t i = 0; i < count; ++i) out.bools.push_back((p[i / 8] >> (i % 8)) & 1);
      return;
    case Type::kInt32:
      need(4 * count);
      for (std::size_t i = 0; i < count; ++i, p += 4) out.ints.push_back(load_le<std::int32_t>(p));
      return;
    case Type::kInt64:
      need(8 * count);
      for (std::size_t i = 0; i < count; ++i, p += 8) out.ints.push_back(load_le<std::int64_t>(p));
      return;
    case Type::kDouble:
      need(8 * count);
      for (std::size_t i = 0; i < count; ++i, p += 8) out.doubles.push_back(load_le<double>(p));
      return;
    default:
      for (std::size_t i = 0; i < count; ++i) {
        need(4);
        const auto n = load_le<std::uint32_t>(p);
        p += 4;
        need(n);
        out.strings.emplace_back(p, n);
        p += n;
      }
      return;
  }
}

}  // namespace

ColumnValues TableReader::read(std::size_t group, std::size_t column) {
  const ColumnMetaData& m = meta_.row_groups.at(group).columns.at(column);
  const Column& c = columns_.at(column);
  const std::string where = "column '" + c.name + "', row group " + std::to_string(group);
  if (m.codec != 0) {
    fail(where + " is compressed with " + codec_name(m.codec) +
         ", which kscope's Parquet reader does not read: kscope writes and reads uncompressed "
         "Parquet. This file was written by " + written_by() +
         ". Load the file kscope wrote, or read this one with pandas.read_parquet");
  }
  const std::int32_t physical = *meta_.schema[column + 1].type;
  const std::int64_t start = m.dictionary_page_offset && *m.dictionary_page_offset > 0
                                 ? std::min(*m.dictionary_page_offset, m.data_page_offset)
                                 : m.data_page_offset;
  if (start < 0 || m.total_compressed_size < 0 ||
      static_cast<std::uint64_t>(start) + static_cast<std::uint64_t>(m.total_compressed_size) >
          size_) {
    fail(where + ": its bytes are past the table's end");
  }
  ColumnValues out;
  out.storage.push_back(source_.read(base_ + static_cast<std::uint64_t>(start),
                                     static_cast<std::uint64_t>(m.total_compressed_size)));
  const std::string& bytes = out.storage.back();
  const std::size_t rows = this->rows(group);
  PlainValues dictionary;
  bool has_dictionary = false;
  std::vector<std::uint32_t> levels;
  std::vector<std::uint32_t> indices;
  std::size_t done = 0;
  const char* p = bytes.data();
  const char* end = bytes.data() + bytes.size();
  try {
    while (done < rows) {
      if (p >= end) throw FileFormatError("its pages hold " + std::to_string(done) + " of " +
                                          std::to_string(rows) + " rows");
      const auto [h, head] = decode_page_header(p, static_cast<std::size_t>(end - p));
      p += head;
      if (h.compressed_size < 0 || h.compressed_size > end - p || h.num_values < 0) {
        throw FileFormatError("a page past the column chunk's end");
      }
      const char* body = p;
      const char* body_end = p + h.compressed_size;
      p = body_end;
      const auto type = static_cast<PageType>(h.type);
      if (type == PageType::kIndex) continue;
      if (type == PageType::kDictionary) {
        if (h.encoding != static_cast<std::int32_t>(Encoding::kPlain) &&
            h.encoding != static_cast<std::int32_t>(Encoding::kPlainDictionary)) {
          throw FileFormatError("a dictionary page in " + encoding_name(h.encoding));
        }
        dictionary = PlainValues();
        decode_plain(physical, body, body_end, static_cast<std::size_t>(h.num_values), dictionary);
        has_dictionary = true;
        continue;
      }
      if (type != PageType::kData) {
        throw FileFormatError(type == PageType::kDataV2
                                  ? std::string("a data page v2, which kscope's reader does not "
                                                "read (v1 only: pyarrow's data_page_version=\"1.0\")")
                                  : "a page of unknown type " + std::to_string(h.type));
      }
      const auto n = static_cast<std::size_t>(h.num_values);
      if (n > rows - done) throw FileFormatError("a page of more values than the row group's rows");
      const char* q = body;
      std::size_t present = n;
      levels.assign(n, 1);
      if (c.optional) {
        if (h.definition_level_encoding != static_cast<std::int32_t>(Encoding::kRle)) {
          throw FileFormatError("definition levels in " + encoding_name(h.definition_level_encoding));
        }
        if (body_end - q < 4) throw FileFormatError("page ends early");
        const auto length = load_le<std::uint32_t>(q);
        q += 4;
        if (length > static_cast<std::size_t>(body_end - q)) throw FileFormatError("page ends early");
        decode_hybrid(q, length, 1, n, 2, levels);
        q += length;
        present = 0;
        for (const auto l : levels) present += l;
        out.defined.insert(out.defined.end(), levels.begin(), levels.end());
      }
      PlainValues values;
      const auto encoding = static_cast<Encoding>(h.encoding);
      if (encoding == Encoding::kPlain) {
        decode_plain(physical, q, body_end, present, values);
      } else if (encoding == Encoding::kRleDictionary || encoding == Encoding::kPlainDictionary) {
        if (!has_dictionary) throw FileFormatError("dictionary indices without a dictionary page");
        const std::size_t size = std::max({dictionary.ints.size(), dictionary.doubles.size(),
                                           dictionary.strings.size()});
        if (body_end - q < 1) throw FileFormatError("page ends early");
        const int width = static_cast<std::uint8_t>(*q++);
        if (width > 32) throw FileFormatError("dictionary indices of " + std::to_string(width) + " bits");
        if (width == 0) {
          indices.assign(present, 0);
          if (present && size == 0) throw FileFormatError("an index into an empty dictionary");
        } else {
          decode_hybrid(q, static_cast<std::size_t>(body_end - q), width, present,
                        static_cast<std::uint32_t>(std::min<std::size_t>(size, UINT32_MAX)), indices);
        }
        for (const auto i : indices) {
          if (!dictionary.ints.empty()) values.ints.push_back(dictionary.ints[i]);
          if (!dictionary.doubles.empty()) values.doubles.push_back(dictionary.doubles[i]);
          if (!dictionary.strings.empty()) values.strings.push_back(dictionary.strings[i]);
        }
      } else {
        throw FileFormatError("values in " + encoding_name(h.encoding) +
                              ", which kscope's Parquet reader does not read (PLAIN and "
                              "RLE_DICTIONARY only)");
      }
      const std::size_t decoded = c.type == Type::kBoolean  ? values.bools.size()
                                  : c.type == Type::kInt64  ? values.ints.size()
                                  : c.type == Type::kDouble ? values.doubles.size()
                                                            : values.strings.size();
      if (decoded != present) {
        throw FileFormatError("a page of " + std::to_string(decoded) + " values for " +
                              std::to_string(present) + " defined cells");
      }
      // One cell per row, the type's default where null.
      std::size_t v = 0;
      for (std::size_t r = 0; r < n; ++r) {
        const bool defined = levels[r] != 0;
        switch (c.type) {
          case Type::kBoolean: out.bools.push_back(defined ? values.bools[v] : 0); break;
          case Type::kInt64: out.ints.push_back(defined ? values.ints[v] : 0); break;
          case Type::kDouble: out.doubles.push_back(defined ? values.doubles[v] : 0.0); break;
          default: out.strings.push_back(defined ? values.strings[v] : std::string_view()); break;
        }
        v += defined;
      }
      done += n;
    }
  } catch (const FileFormatError& e) {
    const std::string text = e.what();
    if (text.rfind(what_, 0) == 0) throw;
    fail(where + ": " + text);
  }
  return out;
}

}  // namespace kscope::report::parquet
